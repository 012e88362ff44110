package local_test

import (
	"testing"

	"lwr/index"
	"lwr/research/local"
	"lwr/research/local/localtest"
)

// TestSessionConformance: the session passes the tests every Searcher
// passes.
func TestSessionConformance(t *testing.T) {
	open := func(t *testing.T, root, dir string) local.Searcher {
		return local.NewSession(local.Options{Index: index.Options{Root: root, Dir: dir}})
	}
	localtest.Suite(t, open)
	t.Run("invalid policies", func(t *testing.T) { localtest.InvalidPolicies(t, open) })
}
