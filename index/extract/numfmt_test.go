package extract

import (
	"slices"
	"testing"
)

// TestNumberFormatsAsExcelShows: negative numbers in one-section formats
// carry one minus sign, before the currency (-¥5,000); G/標準 is General
// as Japanese Excel names it (LibreOffice writes g/"標準"); a 0 placeholder
// without a digit shows 0 where it stands (0##-####-####: a phone
// number); each as Excel shows it.
func TestNumberFormatsAsExcelShows(t *testing.T) {
	for _, c := range []struct {
		v    float64
		code string
		want string
	}{
		{-5, "#,##0", "-5"}, {-5, "[Red]#,##0", "-5"}, {-5000, `"¥"#,##0`, "-¥5,000"}, {-5000, `[Red]"¥"#,##0`, "-¥5,000"},
		{-60000, `#,##0"円"`, "-60,000円"}, {-60000, `\¥#,##0;[RED]"-¥"#,##0`, "-¥60,000"}, {60000, `\¥#,##0;[RED]"-¥"#,##0`, "¥60,000"},
		{-1234.5, "0.00", "-1234.50"}, {-0.25, "0%", "-25%"}, {-1500, `"¥"#,##0;[赤]"¥"-#,##0`, "¥-1,500"},
		{60000, `G/標準"円"`, "60000円"}, {12, `G/標準"人"`, "12人"}, {2026, `[$-1B000411]g/"標準"`, "2026"}, {1.5, "G/標準", "1.5"},
		{2026, `[DBNum1][$-411]G/標準`, "二千二十六"}, {-7, `G/標準"件"`, "-7件"},
		{312345678, "0##-####-####", "03-1234-5678"}, {9012345678, "0##-####-####", "090-1234-5678"}, {1000001, `000\-0000`, "100-0001"},
		{5, "0##", "05"}, {12, "###-####", "-12"}, {0, "#", ""},
	} {
		if got := formatNumber(c.v, c.code, false); got != c.want {
			t.Errorf("formatNumber(%v, %q) = %q, want %q (as Excel shows it)", c.v, c.code, got, c.want)
		}
	}
}

// TestXlsxFormatFixtures: the reviewer's sheets of formats (as openpyxl
// and LibreOffice write them), built again: each value as Excel shows it.
func TestXlsxFormatFixtures(t *testing.T) {
	fmts := []struct{ code, v, want string }{
		{`#,##0`, "-5", "-5"}, {`"¥"#,##0`, "-5000", "-¥5,000"}, {`#,##0"円"`, "-60000", "-60,000円"},
		{`\¥#,##0;[RED]&quot;-¥&quot;#,##0`, "-60000", "-¥60,000"}, {`G/標準"円"`, "60000", "60000円"}, {`G/標準"人"`, "12", "12人"},
		{`0##\-####\-####`, "312345678", "03-1234-5678"}, {`[$-1B000411]g/&quot;標準&quot;`, "2026", "2026"},
	}
	styles := `<numFmts count="8">`
	xfs := `<cellXfs count="9"><xf numFmtId="0"/>`
	rows := ""
	for i, f := range fmts {
		id := itoa3(164 + i)
		code := f.code
		if code[0] != '\\' && code[0] != '[' && code[0] != '0' {
			code = escapeQuotes(code)
		}
		styles += `<numFmt numFmtId="` + id + `" formatCode="` + code + `"/>`
		xfs += `<xf numFmtId="` + id + `"/>`
		rows += `<row r="` + itoa3(i+1) + `"><c r="A` + itoa3(i+1) + `" s="` + itoa3(i+1) + `"><v>` + f.v + `</v></c></row>`
	}
	styles += `</numFmts>` + xfs + `</cellXfs>`
	txt := extractBytes(t, "g.xlsx", workbook(t, styles, "", [][3]string{{"G", "", rows}}), Options{})
	var want []string
	for _, f := range fmts {
		want = append(want, f.want)
	}
	if !slices.Equal(txt.Lines, want) {
		t.Errorf("cells %q, want %q", txt.Lines, want)
	}
}

func itoa3(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	if s == "" {
		return "0"
	}
	return s
}

// escapeQuotes writes a format code's quotes as an attribute's.
func escapeQuotes(s string) string {
	out := ""
	for _, r := range s {
		if r == '"' {
			out += "&quot;"
			continue
		}
		out += string(r)
	}
	return out
}
