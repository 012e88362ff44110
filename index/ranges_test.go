package index

import (
	"testing"

	"lwr/analyzer"
)

func TestRangeMatch(t *testing.T) {
	tests := []struct {
		q, line string
		want    int
	}{
		{"自転車通勤で家から会社まで6kmくらい。通勤手当はいくら？", "| 5km以上8km未満 | 1日あたり150円 |", 1},
		{"自転車通勤で家から会社まで6kmくらい。通勤手当はいくら？", "| 2km以上5km未満 | 1日あたり100円 |", -1},
		{"自転車通勤で家から会社まで6kmくらい。通勤手当はいくら？", "| 12km以上 | 1日あたり250円 |", -1},
		{"自転車通勤で家から会社まで6kmくらい。通勤手当はいくら？", "公共交通機関を利用する場合は実費を支給する。", 0},
		{"勤続3年だと有給は何日？", "| 2年6か月 | 3年6か月 |", 0},
		{"勤続3年だと有給は何日？", "勤続3年以上5年未満の者は15日とする。", 1},
		{"10万円のPCは備品？", "取得価額が10万円以上のものは備品として管理する。", 1},
		{"10万円のPCは備品？", "5万円未満のものは消耗品とする。", -1},
		{"有給は何日もらえる？", "勤続3年以上5年未満の者は15日とする。", 0},
		{"2022年3月のボーナスは？", "勤続3年以上の者に支給する。", 0},
		{"令和6年の規程では？", "勤続3年以上の者に支給する。", 0},
		// Half years count in months.
		{"入社して半年たったら有給はもらえる？", "入社後6か月以上継続勤務した者に付与する。", 1},
		{"入社して半年たったら有給はもらえる？", "1年6か月以上継続勤務した者に付与する。", -1},
		{"勤続1年半だと何日？", "1年6か月以上継続勤務した者", 1},
		{"勤続1年だと何日？", "6か月以上継続勤務した者", 1},
		{"勤続2年だと休職は？", "勤続1年以上3年未満の者は3か月以内", 1},
		{"勤続1年半だと何日？", "18か月以上継続勤務した者", 1},
		{"年半ばの異動は？", "勤続3年以上の者に支給する。", 0},
		// The question asks beyond its amount: more than 60 hours is not
		// 60 hours or fewer.
		{"1か月60時間を超える時間外労働の割増賃金率は？", "1ヶ月60時間超えの場合 ＝ 割増時間単価×150％", 1},
		{"1か月60時間を超える時間外労働の割増賃金率は？", "1ヶ月60時間以下の場合 ＝ 割増時間単価×125％", -1},
		{"1か月60時間の残業の割増率は？", "1ヶ月60時間以下の場合 ＝ 割増時間単価×125％", 1},
		// Not beyond: 60 hours or fewer.
		{"1か月60時間を超えない残業の割増率は？", "1ヶ月60時間以下の場合 ＝ 割増時間単価×125％", 1},
		{"1か月60時間を超えない残業の割増率は？", "1ヶ月60時間超えの場合 ＝ 割増時間単価×150％", -1},
		{"勤続1年未満で辞めたら退職金は？", "勤続1年以上の者に支給する。", -1},
		{"勤続1年未満で辞めたら退職金は？", "勤続1年未満の者には支給しない。", 1},
	}
	for _, tt := range tests {
		if got, _ := rangeMatch(analyzer.Fold(tt.line), quantitiesOf(analyzer.Fold(tt.q))); got != tt.want {
			t.Errorf("%q over %q = %d, want %d", tt.q, tt.line, got, tt.want)
		}
	}
}

// What a line states besides the range that holds the question's amount:
// the range is blanked, the rest is kept.
func TestRangeMatchLeavesTheRest(t *testing.T) {
	q := quantitiesOf(analyzer.Fold("勤続2年だと休職はどのくらいまで？"))
	for _, tc := range []struct{ line, want string }{
		{"勤続1年以上3年未満 ・・・ 3か月以内", "勤続  ・・・ 3か月以内"},
		{"勤続年数が1年以上の正社員のみを対象とする。", "勤続年数が の正社員のみを対象とする。"},
		{"勤続3年以上 ・・・ 6か月以内", "勤続3年以上 ・・・ 6か月以内"},
	} {
		_, rest := rangeMatch(analyzer.Fold(tc.line), q)
		if rest != analyzer.Fold(tc.want) {
			t.Errorf("%q leaves %q, want %q", tc.line, rest, analyzer.Fold(tc.want))
		}
	}
}

func TestCellHolds(t *testing.T) {
	q := quantitiesOf(analyzer.Fold("週3日のパートで入社して半年たったら、有給は何日もらえる？"))
	for _, tc := range []struct {
		cells []string
		want  bool
	}{
		{[]string{"３日", "121日～168日", "5日"}, true},
		{[]string{"４日", "169日～216日", "7日"}, false},
		{[]string{"日数", "半年", "10日"}, true},
		{[]string{"週3日勤務の者", "5日"}, false},
	} {
		if got := cellHolds(tc.cells, q); got != tc.want {
			t.Errorf("cellHolds(%q) = %v, want %v", tc.cells, got, tc.want)
		}
	}
}
