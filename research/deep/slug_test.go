package deep_test

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"lwr/research/deep"
)

var day = time.Date(2026, 6, 1, 23, 59, 0, 0, time.FixedZone("JST", 9*3600))

func TestNewSlug(t *testing.T) {
	for _, tc := range []struct{ topic, want string }{
		{"出張旅費の規程", "出張旅費の規程-20260601-abcd"},
		{"情報セキュリティの社内ルールを調査して", "情報セキュリティの社内ルールを調査して-20260601-abcd"},
		{"Ｗｅｂ会議　ＵＳＢ メモリ？", "web会議-usb-メモリ-20260601-abcd"},
		{`a<b>c:d"e/f\g|h?i*j`, "a-b-c-d-e-f-g-h-i-j-20260601-abcd"},
		{"CON", "con-20260601-abcd"},
		{"...", "topic-20260601-abcd"},
		{"  trailing. ", "trailing-20260601-abcd"},
		{strings.Repeat("長い", 30), strings.Repeat("長い", 20) + "-20260601-abcd"},
		{"ガ", "ガ-20260601-abcd"}, // カ + combining voiced mark
	} {
		got, err := deep.NewSlug(tc.topic, day.UTC(), bytes.NewReader([]byte{0xab, 0xcd}))
		if err != nil || got != tc.want {
			t.Errorf("NewSlug(%q) = %q, %v; want %q", tc.topic, got, err, tc.want)
		}
		if err := deep.CheckSlug(got); err != nil {
			t.Errorf("CheckSlug(%q): %v", got, err)
		}
	}
}

func TestSafeName(t *testing.T) {
	for _, name := range []string{"CON", "con.txt", "Nul", "COM1", "lpt9.md", "COM¹", "a.", "a ", "a:b", "a?b", "a\x01", "", "..", strings.Repeat("あ", 256)} {
		if deep.SafeName(name) {
			t.Errorf("SafeName(%q) = true", name)
		}
	}
	for _, name := range []string{"console", "con-20260601-abcd", "01-日当.md", "_followup.md", strings.Repeat("あ", 255)} {
		if !deep.SafeName(name) {
			t.Errorf("SafeName(%q) = false", name)
		}
	}
}

// Whatever the topic, its slug is a safe file name on Windows and reads
// back as a slug.
func FuzzNewSlug(f *testing.F) {
	for _, s := range []string{"出張旅費の規程", "CON", "a/../b", "\x00", "Ａ．", "𠮷野家", "\xf4ʱ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, topic string) {
		s, err := deep.NewSlug(topic, day, bytes.NewReader([]byte{1, 2}))
		if err != nil {
			t.Fatal(err)
		}
		if !deep.SafeName(s) || deep.CheckSlug(s) != nil || !utf8.ValidString(s) || strings.ContainsAny(s, `/\.`) {
			t.Fatalf("slug %q of %q", s, topic)
		}
	})
}
