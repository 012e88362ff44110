package policy

import "testing"

func TestNewerCollection(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"owasp/asvs_2025-12/5.0/ja/0x15-V6-Authentication.md", "owasp/asvs_2025-12/4.0/ja/0x11-V2-Authentication.md", 1},
		{"freee/a11y-guidelines_202004.0/source/contrast.rst", "freee/a11y-guidelines_202603.0/ja/source/check-contrast.rst", -1},
		{"ossgate/workshop_2017.4.13.1/tutorial/scenario.md", "ossgate/workshop_2026-08/tutorial/scenario.md", -1},
		// Folders named otherwise, or parting only at the file: no collection.
		{"future/coding-standards_2025-01/a.md", "future/arch-guidelines_2026-08/a.md", 0},
		{"研修/契約事務_2024.md", "研修/契約事務_2026.md", 0},
		{"規程/a.md", "研修/2026/a.md", 0},
		// Numbers that count, not editions.
		{"guide/chapter3/a.md", "guide/chapter1/b.md", 0},
	} {
		if got := NewerCollection(tc.a, tc.b); got != tc.want {
			t.Errorf("NewerCollection(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestComparePaths(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"研修/2025/経費の手引.md", "研修/2024/経費の手引.md", 1},
		{"tis/guide_3.3/a.md", "tis/guide_3.6/a.md", -1},
		{"規程/別表2.md", "規程/別表1.md", 0},
		{"api/v2/a.md", "api/v1/a.md", 0},
	} {
		if got := ComparePaths(tc.a, tc.b); got != tc.want {
			t.Errorf("ComparePaths(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
