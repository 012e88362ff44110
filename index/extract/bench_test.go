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
