package main

import (
	"bytes"
	"context"
	"encoding/json"
	"lwr/config/configtest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// lwrBin is the lwr binary built for the process tests.
var lwrBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lwr-bin-")
	if err != nil {
		panic(err)
	}
	lwrBin = filepath.Join(dir, "lwr")
	if out, err := exec.Command("go", "build", "-o", lwrBin, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run executes lwr in-process with its own environment and streams.
func run(t testing.TB, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	g := &globalOptions{stdout: &out, stderr: &errb, environ: env}
	cmd := newRootCommand(g)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	code = exitCode(err, &errb)
	return out.String(), errb.String(), code
}

// testEnv is an environment with its own home, cache and config folders.
func testEnv(t testing.TB, extra ...string) []string { return configtest.Env(t, extra...) }

// agentSchema compiles the agent output schema of the research skill.
func agentSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	s, err := c.Compile(filepath.Join("..", "..", "testdata", "schema", "agent-output-schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validateJSON(t testing.TB, s *jsonschema.Schema, data string) map[string]any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(data)))
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, data)
	}
	if err := s.Validate(v); err != nil {
		t.Fatalf("output does not validate: %v\n%s", err, data)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
