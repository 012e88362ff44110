package analyzer

import "testing"

func TestJoinWrapped(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{"今号では在宅勤務手当の新設を紹介", "する。在宅勤務手当は月額", "5,000円とし、月10日以", "上の者に支給する。"}, "今号では在宅勤務手当の新設を紹介する。在宅勤務手当は月額5,000円とし、月10日以上の者に支給する。"},
		{[]string{"the quick", "  brown fox"}, "the quick brown fox"},
		{[]string{"VPN を使う", "", "ときは"}, "VPN を使うときは"},
		{[]string{"第1条", "（目的）"}, "第1条（目的）"},
		{[]string{"see", "5 items"}, "see 5 items"},
	} {
		if got := JoinWrapped(c.lines); got != c.want {
			t.Errorf("JoinWrapped(%q) = %q, want %q", c.lines, got, c.want)
		}
	}
}
