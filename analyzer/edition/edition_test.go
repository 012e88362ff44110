package edition

import (
	"fmt"
	"lwr/config/configtest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

type ed struct {
	kind  Kind
	value string
}

func eds(es []Edition) []ed {
	out := make([]ed, 0, len(es))
	for _, e := range es {
		out = append(out, ed{e.Kind, e.Value})
	}
	return out
}

func TestFind(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []ed
	}{
		{name: "reiwa fiscal edition", text: "令和6年度版", want: []ed{{FiscalYear, "2024年度"}}},
		{name: "heisei effective", text: "平成31年4月1日施行", want: []ed{{Effective, "2019-04-01"}}},
		{name: "fiscal year", text: "2024年度", want: []ed{{FiscalYear, "2024年度"}}},
		{name: "edition number", text: "第3版", want: []ed{{Number, "第3版"}}},
		{name: "revised with colon", text: "改訂：2025年4月1日", want: []ed{{Revised, "2025-04-01"}}},
		{name: "ver dot", text: "Ver.1.2", want: []ed{{Version, "v1.2"}}},
		{name: "reiwa first year", text: "令和元年5月1日", want: []ed{{Date, "2019-05-01"}}},
		{name: "full-width digits", text: "令和６年度", want: []ed{{FiscalYear, "2024年度"}}},
		{name: "kanji numerals", text: "平成三十一年四月一日施行", want: []ed{{Effective, "2019-04-01"}}},
		{name: "abbreviated era fiscal", text: "R6年度", want: []ed{{FiscalYear, "2024年度"}}},
		{name: "abbreviated era dotted", text: "R6.4.1 改訂", want: []ed{{Revised, "2024-04-01"}}},
		{name: "abbreviated heisei slash", text: "H31/4/1", want: []ed{{Date, "2019-04-01"}}},
		{name: "effective day label", text: "施行日 令和7年4月1日", want: []ed{{Effective, "2025-04-01"}}},
		{name: "date then revised", text: "2025年4月1日改訂", want: []ed{{Revised, "2025-04-01"}}},
		{name: "supplementary provision", text: "この規程は、令和6年4月1日から施行する。", want: []ed{{Effective, "2024-04-01"}}},
		{name: "slash date then marker", text: "2024/04/01 改訂", want: []ed{{Revised, "2024-04-01"}}},
		{name: "iso date", text: "2024-04-01", want: []ed{{Date, "2024-04-01"}}},
		{name: "dotted date", text: "2024.4.1", want: []ed{{Date, "2024-04-01"}}},
		{name: "enacted", text: "制定：2010年4月1日", want: []ed{{Enacted, "2010-04-01"}}},
		{name: "issued", text: "発行日: 2024年5月13日", want: []ed{{Issued, "2024-05-13"}}},
		{name: "created", text: "作成日：2023/12/01", want: []ed{{Created, "2023-12-01"}}},
		{name: "last updated", text: "最終更新日 2025-06-02", want: []ed{{Revised, "2025-06-02"}}},
		{name: "amended", text: "令和7年3月31日改正", want: []ed{{Revised, "2025-03-31"}}},
		{name: "v three parts", text: "v1.2.3", want: []ed{{Version, "v1.2.3"}}},
		{name: "katakana version", text: "バージョン2.0", want: []ed{{Version, "v2.0"}}},
		{name: "full-width version", text: "ｖ２．１", want: []ed{{Version, "v2.1"}}},
		{name: "english version word", text: "Version 3", want: []ed{{Version, "v3"}}},
		{name: "first edition", text: "初版", want: []ed{{Number, "第1版"}}},
		{name: "revised edition number", text: "改訂3版", want: []ed{{Number, "第3版"}}},
		{name: "kanji edition number", text: "第十二版", want: []ed{{Number, "第12版"}}},
		{name: "english edition", text: "2nd edition", want: []ed{{Number, "第2版"}}},
		{name: "FY", text: "FY2024", want: []ed{{FiscalYear, "2024年度"}}},
		{name: "year edition", text: "2024年版", want: []ed{{Year, "2024年版"}}},
		{name: "month edition", text: "2025年4月版", want: []ed{{Issued, "2025-04"}}},
		{name: "kanji gregorian", text: "二〇二四年四月一日", want: []ed{{Date, "2024-04-01"}}},
		{name: "showa last year", text: "昭和64年1月7日", want: []ed{{Date, "1989-01-07"}}},
		{name: "heisei fiscal", text: "平成2年度", want: []ed{{FiscalYear, "1990年度"}}},
		{name: "year only", text: "令和7年", want: []ed{{Date, "2025"}}},
		{name: "year month with marker", text: "改訂 2024/04", want: []ed{{Revised, "2024-04"}}},
		{name: "two markers with colons", text: "改訂：2024年4月1日 施行：2024年5月1日",
			want: []ed{{Revised, "2024-04-01"}, {Effective, "2024-05-01"}}},
		{name: "two markers after dates", text: "2024年4月1日 改訂 2024年5月1日 施行",
			want: []ed{{Revised, "2024-04-01"}, {Effective, "2024-05-01"}}},
		{name: "cover block", text: "# 契約事務研修テキスト（令和6年度版）\n\n- 版数：第2版\n- 改訂：2024年4月1日",
			want: []ed{{FiscalYear, "2024年度"}, {Number, "第2版"}, {Revised, "2024-04-01"}}},
		{name: "effective inside a sentence", text: "主な変更点：随意契約の上限額（2025年4月1日施行の要領改正を反映）",
			want: []ed{{Effective, "2025-04-01"}}},
		{name: "repeats once", text: "令和6年度版\n令和6年度版", want: []ed{{FiscalYear, "2024年度"}}},
		{name: "impossible date", text: "2024年2月30日", want: []ed{}},
		{name: "year month without marker", text: "2024/04", want: []ed{}},
		{name: "version number, not a date", text: "1.2024.4.1", want: []ed{}},
		{name: "ip version is a word", text: "ipv4 only", want: []ed{}},
		{name: "nothing", text: "契約事務の手引き", want: []ed{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := eds(Find(tt.text))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Find(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

func TestEditionsRawAndLine(t *testing.T) {
	text := "# 情報セキュリティ研修（令和７年度版）\n\n版数：第2版　改訂：２０２５年６月２日\n"
	want := []Edition{
		{Kind: FiscalYear, Raw: "令和７年度版", Value: "2025年度", Year: 2025, Line: 1, Self: true},
		{Kind: Number, Raw: "第2版", Value: "第2版", Line: 3, Self: true},
		{Kind: Revised, Raw: "改訂：２０２５年６月２日", Value: "2025-06-02", Year: 2025, Line: 3, Self: true},
	}
	if got := Find(text); !reflect.DeepEqual(got, want) {
		t.Errorf("Editions = %+v, want %+v", got, want)
	}
}

func TestEditionsHeadAndBody(t *testing.T) {
	body := strings.Repeat("本文の行です。\n", 100)
	tests := []struct {
		name string
		text string
		want []ed
	}{
		{name: "plain date in the head", text: "2024年4月1日\n" + body, want: []ed{{Date, "2024-04-01"}}},
		{name: "plain date in the body is ignored", text: body + "2023年度の実績は2024年4月1日に公開\n", want: []ed{}},
		{name: "version in the body is ignored", text: body + "v1.2 を使います\n", want: []ed{}},
		{name: "supplementary provision at the end", text: body + "附則\nこの規程は、令和7年4月1日から施行する。\n",
			want: []ed{{Effective, "2025-04-01"}}},
		{name: "edition in the body", text: body + "令和5年度版を改めた\n", want: []ed{{FiscalYear, "2023年度"}}},
		{name: "english marker", text: "Last updated: 2025-06-02\n", want: []ed{{Revised, "2025-06-02"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := eds(Find(tt.text)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEditionLabel(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string
	}{
		{name: "cover block", text: "# 契約事務研修テキスト（令和6年度版）\n- 版数：第2版\n- 改訂：2024年4月1日", want: "2024年度 第2版 改訂2024-04-01"},
		{name: "latest of revised and effective", text: "改訂：2026年4月1日\n（2025年4月1日施行の改正を反映）", want: "改訂2026-04-01"},
		{name: "enacted when nothing newer", text: "制定：2010年4月1日", want: "制定2010-04-01"},
		{name: "version", text: "手順書 Ver.1.2", want: "v1.2"},
		{name: "highest version", text: "# 手順書 v1.10\n履歴: v1.2, v1.9", want: "v1.10"},
		{name: "year edition", text: "白書 2024年版", want: "2024年版"},
		{name: "plain date only", text: "2024年4月1日", want: "日付2024-04-01"},
		{name: "unknown", text: "電話応対の基本", want: Unknown},
		{name: "minutes mention other editions", text: "# 定例会議 議事録（2026年4月15日）\n- 日時：2026年4月15日\n\n## 1. 契約事務\n- 令和8年度版（第3版）を公開。要領改正（2025年4月施行）\n",
			want: "日付2026-04-15"},
		{name: "mentions in the body only", text: "# 社内FAQ\n\n## 旅費\nA. 旅費規程は2025年7月に改定されています。VPN接続手順（v2.0）を見てください。\n",
			want: Unknown},
		{name: "supplementary provision", text: "# 旅費規程\n\n## 第1条\n本文\n\nこの規程は、2025年7月1日から施行する。\n", want: "施行2025-07-01"},
		{name: "revision history section", text: "# 手順書\n\n## 手順\n本文\n\n## 改訂履歴\n| 第1版 | 2023-04-01 |\n| 第2版 | 2024-05-01 |\n", want: "第2版"},
		{name: "front matter", text: "---\ntitle: チェックリスト\nupdated: 2025-10-01\n---\n# チェックリスト\n", want: "改訂2025-10-01"},
		{name: "fiscal year in cover prose is a time", text: "# パスワード変更手順\n\n令和7年度から定期変更は廃止されました。\n", want: Unknown},
		{name: "fiscal year in the title", text: "# 2024年度 研修計画\n", want: "2024年度"},
		{name: "kosin marker", text: "# パスワード変更手順\n情報システム課　版：v3.1　更新：2025年6月2日\n", want: "v3.1 改訂2025-06-02"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Label(Find(tt.text)); got != tt.want {
				t.Errorf("Label = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTitleKey(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{name: "era fiscal editions", a: "契約事務研修テキスト（令和6年度版）", b: "契約事務研修テキスト（令和8年度版）", same: true},
		{name: "era and gregorian", a: "情報セキュリティ研修 令和7年度", b: "情報セキュリティ研修 2024年度 第2版", same: true},
		{name: "versions", a: "手順書v1.2", b: "手順書 Ver.2.0", same: true},
		{name: "revision dates", a: "規程(2024年4月1日改訂)", b: "規程 令和7年4月1日改訂版", same: true},
		{name: "different subjects", a: "旅費規程 2024年度", b: "経費精算規程 2024年度", same: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ka, kb := TitleKey(tt.a), TitleKey(tt.b)
			if (ka == kb) != tt.same || ka == "" {
				t.Errorf("TitleKey(%q) = %q, TitleKey(%q) = %q, same = %v", tt.a, ka, tt.b, kb, tt.same)
			}
		})
	}
}

// The edition comes from the text alone: touching the file changes nothing.
func TestEditionsIgnoreMtime(t *testing.T) {
	p := filepath.Join(configtest.TempDir(t), "契約事務.md")
	if err := os.WriteFile(p, []byte("# 契約事務（令和6年度版）\n改訂：2024年4月1日\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	label := func() string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return Label(Find(string(b)))
	}
	before := label()
	for _, mt := range []time.Time{time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)} {
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
		if got := label(); got != before {
			t.Errorf("after mtime %v: label %q, want %q", mt, got, before)
		}
	}
}

func TestEditionKindText(t *testing.T) {
	for k := KindUnknown; k <= Date; k++ {
		b, _ := k.MarshalText()
		var back Kind
		if err := back.UnmarshalText(b); err != nil || back != k {
			t.Errorf("round trip of %v: %v, %v", k, back, err)
		}
	}
}

func ExampleFind() {
	text := "# 契約事務研修テキスト（令和６年度版）\n- 版数：第2版\n- 改訂：2024年4月1日\n"
	for _, e := range Find(text) {
		fmt.Printf("%d %s %s %s\n", e.Line, e.Kind, e.Raw, e.Value)
	}
	fmt.Println(Label(Find(text)))
	fmt.Println(Label(Find("電話応対の基本")))
	// Output:
	// 1 fiscal_year 令和６年度版 2024年度
	// 2 edition 第2版 第2版
	// 3 revised 改訂：2024年4月1日 2024-04-01
	// 2024年度 第2版 改訂2024-04-01
	// 版不明
}

func BenchmarkFind(b *testing.B) {
	text := "# 契約事務研修テキスト（令和6年度版）\n- 版数：第2版\n- 改訂：2024年4月1日\n" +
		strings.Repeat("契約事務は、会社のお金を外部に支払う入口です。予定価格が160万円以下であれば随意契約によることができます。\n", 400) +
		"附則\nこの要領は、令和6年4月1日から施行する。\n"
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Find(text)
	}
}

func TestAbolished(t *testing.T) {
	text := "旧 文書保存規程\n\n制定　平成14年4月1日\n改正　平成23年10月1日\n廃止　平成27年3月31日（現行の文書管理規程に統合）\n\n第1条（目的）\n"
	eds := Find(text)
	at, ok := AbolishedAt(eds)
	if !ok || at != "2015-03-31" {
		t.Fatalf("AbolishedAt = %q, %v; editions %+v", at, ok, eds)
	}
	if got := Label(eds); got != "改訂2011-10-01 廃止2015-03-31" {
		t.Errorf("Label = %q", got)
	}
	// A rule that mentions abolishing something else is not abolished.
	if _, ok := AbolishedAt(Find("# 旅費規程\n\n改定 2025年7月1日\n\n## 附則\n日当の定額制は2024年3月31日に廃止した。\n")); ok {
		t.Error("a mention of an abolished allowance made the rule abolished")
	}
}

// TestMayHoldNumber: the lines Find skips hold no numeral of any script.
func TestMayHoldNumber(t *testing.T) {
	for line, want := range map[string]bool{
		"令和６年度版": true, "第三版": true, "令和元年4月1日施行": true, "①版": true, "初版": true, "v1.2": true,
		"この規程は、総務部が管理する。": false, "": false, "## 目的": false,
	} {
		if got := mayHoldNumber(line); got != want {
			t.Errorf("mayHoldNumber(%q) = %v, want %v", line, got, want)
		}
		if !mayHoldNumber(line) && len(lineEditions(line, true)) > 0 {
			t.Errorf("%q holds editions but was skipped", line)
		}
	}
}
