package extract

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkExtract reads every document of one format of the generated
// office corpus (LWR_BENCH_OFFICE, written by scripts/make-office-corpus.py):
// MB/s of file bytes, per format.
func BenchmarkExtract(b *testing.B) {
	dir := os.Getenv("LWR_BENCH_OFFICE")
	if dir == "" {
		b.Skip("LWR_BENCH_OFFICE is not set (make bench sets it)")
	}
	for _, ext := range []string{".docx", ".xlsx", ".pptx", ".pdf"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
		if len(files) == 0 {
			continue
		}
		var data [][]byte
		var total int64
		for _, f := range files {
			d, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			data = append(data, d)
			total += int64(len(d))
		}
		b.Run(ext[1:], func(b *testing.B) {
			b.SetBytes(total)
			for b.Loop() {
				for i, f := range files {
					if _, err := Extract(context.Background(), f, f, data[i], Options{}); err != nil {
						b.Fatalf("%s: %v", f, err)
					}
				}
			}
		})
	}
}

// BenchmarkPageLines puts pages in reading order: tables of 200 rows of
// 10 and of 3 cells (every cell gap a band the rows share) and 60 lines of
// prose with a text box beside five of them.
func BenchmarkPageLines(b *testing.B) {
	var table, table3, prose []pdfWord
	for r := range 200 {
		y := 40 + 12*float64(r)
		for c := range 10 {
			x := 40 + 52*float64(c)
			table = append(table, pdfWord{x0: x, y0: y, x1: x + 42, y1: y + 10.5, text: "一般従業員", line: r})
		}
		for c := range 3 {
			x := 40 + 170*float64(c)
			table3 = append(table3, pdfWord{x0: x, y0: y, x1: x + 160, y1: y + 10.5, text: "一般従業員の宿泊料の上限額は一泊", line: r})
		}
	}
	for r := range 60 {
		y := 40 + 12*float64(r)
		x1 := 540.0
		if r >= 10 && r < 15 {
			x1 = 360
			prose = append(prose, pdfWord{x0: 370, y0: y + 1 + 0.5*float64(r-10), x1: 540, y1: y + 11.5 + 0.5*float64(r-10), text: "注意：海外出張は別規程による。", line: r})
		}
		prose = append(prose, pdfWord{x0: 40, y0: y, x1: x1, y1: y + 10.5, text: "この規程は従業員が業務のため国内に出張する場合の旅費の支給に関し", line: r})
	}
	for _, c := range []struct {
		name  string
		words []pdfWord
	}{{"table", table}, {"table3", table3}, {"prose", prose}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				pageLines(c.words)
			}
		})
	}
}
