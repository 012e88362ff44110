package edition

import "testing"

func TestCompare(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want int
	}{
		{name: "fiscal years", a: "# 契約事務（令和8年度版）\n", b: "# 契約事務（令和6年度版）\n", want: 1},
		{name: "revision date wins over year", a: "# 規程 2024年度版\n\n改訂：2025年4月1日\n", b: "# 規程 2025年度版\n\n改訂：2024年4月1日\n", want: 1},
		{name: "edition numbers by value", a: "# 手順 第2版\n", b: "# 手順 第10版\n", want: -1},
		{name: "versions part by part", a: "# 手順 v1.10\n", b: "# 手順 v1.9\n", want: 1},
		{name: "same edition", a: "# 手順 第3版\n", b: "# 手順書 第3版\n", want: 0},
		{name: "one side states nothing", a: "# 手順 第3版\n", b: "# 手順\n\n本文\n", want: 0},
		{name: "mentions do not count", a: "# 規程\n\n## 本文\n旧規程（令和2年度版）を廃止する。\n", b: "# 規程 令和1年度版\n", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Compare(Find(tt.a), Find(tt.b)); got != tt.want {
				t.Errorf("Compare = %d, want %d (editions %v / %v)", got, tt.want, Find(tt.a), Find(tt.b))
			}
			if got := Compare(Find(tt.b), Find(tt.a)); got != -tt.want {
				t.Errorf("Compare reversed = %d, want %d", got, -tt.want)
			}
		})
	}
}
