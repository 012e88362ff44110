package research

import (
	"slices"
	"testing"
	"time"

	"lwr/analyzer"
	"lwr/config/configtest"
	"lwr/research/researchtest"
)

func TestExtractKeywords(t *testing.T) {
	titles := []string{"電子契約の導入まとめ", "バックアップ手順の解説"}
	snippets := []string{
		"電子契約サービスでは押印が不要になる。backup_daily.sh を cron で実行する。",
		"バックアップは毎週金曜に退避する。電子契約の保存期間は10年。",
	}
	got := ExtractKeywords(analyzer.Default(), titles, snippets)
	for _, w := range []string{"電子契約", "バックアップ", "押印", "backup_daily.sh", "退避"} {
		if !slices.Contains(got, w) {
			t.Errorf("keywords %v lack %s", got, w)
		}
	}
	for _, w := range []string{"電子", "まとめ", "解説", "は"} {
		if slices.Contains(got, w) {
			t.Errorf("keywords %v hold %s", got, w)
		}
	}
	if got[0] != "電子契約" {
		t.Errorf("the word of most texts should come first: %v", got)
	}
	rest := notInQuery(got, "電子契約 押印")
	if slices.Contains(rest, "電子契約") || slices.Contains(rest, "押印") || slices.Contains(rest, "電子契約サービス") {
		t.Errorf("query words kept: %v", rest)
	}
}

func TestKeywordCache(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	c := NewKeywordCache(configtest.TempDir(t), func() time.Time { return now })
	key := keywordKey([]string{"a"}, []string{"b"})
	if key == keywordKey([]string{"a", "b"}, nil) || key == keywordKey([]string{"ab"}, nil) {
		t.Fatal("keys collide")
	}
	if _, ok := c.Get(key); ok {
		t.Fatal("hit on an empty cache")
	}
	c.Put(key, []string{"電子契約"})
	if kw, ok := c.Get(key); !ok || !slices.Equal(kw, []string{"電子契約"}) {
		t.Fatalf("get %v %v", kw, ok)
	}
	if tmp := researchtest.TempFiles(t, c.dir); len(tmp) > 0 {
		t.Errorf("temp files %v", tmp)
	}
	later := NewKeywordCache(c.dir, func() time.Time { return now.Add(25 * time.Hour) })
	if _, ok := later.Get(key); ok {
		t.Error("an entry older than a day is a hit")
	}
}
