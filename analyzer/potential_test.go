package analyzer

import "testing"

func TestPotentialBase(t *testing.T) {
	for _, c := range []struct {
		term, want string
	}{
		{"休める", "休む"},
		{"帰れる", "帰る"},
		{"使える", "使う"},
		{"もらえる", "もらう"},
		{"持ち帰れる", "持ち帰る"},
		{"決める", ""}, // no 決む
		{"見る", ""},
		{"る", ""},
		{"める", ""},
		{"申請", ""},
	} {
		got, ok := PotentialBase(c.term)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("PotentialBase(%q) = %q, %v; want %q", c.term, got, ok, c.want)
		}
	}
}
