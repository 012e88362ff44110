//go:build unix

package local

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/policy"
	"lwr/research/report"
	"lwr/research/researchtest"
)

// TestPolicyFilesThroughLinksAreRefused: a policy file (or the policy
// folder) that is a symbolic link leaving the source root is not read —
// the search fails closed, saying it is a link — and no error shows what
// the link's target holds.
func TestPolicyFilesThroughLinksAreRefused(t *testing.T) {
	outside := researchtest.WriteTree(t, map[string]string{
		"shadow":                        "root:*:20228:0:99999:7:::\n",
		"pol/currentness.json":          `{"version": 1, "checked_at": "2026-10-01", "records": []}`,
		"pol/source-preferences.json":   `{"version": 1, "preferred": []}`,
		"valid/currentness.json":        `{"version": 1, "checked_at": "2026-10-01", "records": []}`,
		"valid/source-preferences.json": `{"version": 1, "preferred": []}`,
	})
	for _, c := range []struct {
		name string
		make func(root string) error
	}{
		{"currentness.json to /etc/shadow's like", func(root string) error {
			os.MkdirAll(filepath.Join(root, policy.Dir), 0o755)
			return os.Symlink(filepath.Join(outside, "shadow"), policy.CurrentnessPath(root))
		}},
		{"the policy folder to another folder", func(root string) error {
			return os.Symlink(filepath.Join(outside, "pol"), filepath.Join(root, policy.Dir))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := researchtest.WriteTree(t, map[string]string{"a.md": "# 規程\n有給休暇の申請。\n"})
			if err := c.make(root); err != nil {
				t.Fatal(err)
			}
			s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}})
			defer s.Close()
			_, err := s.Policies(context.Background(), false)
			if err == nil || !strings.Contains(err.Error(), "symbolic link") {
				t.Fatalf("Policies = %v; want the link refused", err)
			}
			if strings.Contains(err.Error(), "'r'") || strings.Contains(err.Error(), "root:") {
				t.Errorf("the error shows the target's content: %v", err)
			}
			if _, err := report.PoliciesAt(root, false); err == nil || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("PoliciesAt = %v; want the link refused", err)
			}
		})
	}
	// A policy file that is not JSON: its characters are not shown either.
	root := researchtest.WriteTree(t, map[string]string{"a.md": "# 規程\n", ".research-policy/currentness.json": "root:*:20228\n"})
	s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}})
	defer s.Close()
	if _, err := s.Policies(context.Background(), false); err == nil || strings.Contains(err.Error(), "'r'") {
		t.Errorf("Policies of a file that is not JSON = %v; want an error without its characters", err)
	}
}
