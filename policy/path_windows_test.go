package policy

import "testing"

// On Windows, policy paths and patterns name documents whatever their case.
func TestWindowsPolicyPathsIgnoreCase(t *testing.T) {
	prefs, err := ParsePreferences("source-preferences.json", []byte(`{"version": 1, "preferred": [
		{"path": "研修/2026/Keiyaku.md", "supersedes": ["研修/2024/*.MD"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := prefs.Lookup("研修/2026/keiyaku.md"); !ok {
		t.Error("the preferred document is not found in another case")
	}
	if got := prefs.SupersededBy("研修/2024/keiyaku.md"); len(got) != 1 {
		t.Errorf("SupersededBy = %v; the pattern does not match in another case", got)
	}
	c := NewCorpus(map[string]string{"研修/2026/KEIYAKU.md": "契約事務"})
	if p := c.Path("研修/2026/Keiyaku.md"); p != "研修/2026/KEIYAKU.md" {
		t.Errorf("Corpus.Path = %q, want the indexed spelling", p)
	}
}
