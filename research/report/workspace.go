package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"lwr/config"
)

// ErrOutsideWorkspace matches a path that is not in the workspace it must
// be in (a report an MCP tool reads or writes), or leads out of it
// through a symbolic link.
var ErrOutsideWorkspace = errors.New("the path is outside the workspace")

// FindWorkspace returns the workspace of dir: the top of the git work
// tree holding it (the nearest folder with a .git folder or file), else
// dir itself, absolute.
func FindWorkspace(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs, nil
		}
		d = parent
	}
}

// insideWorkspace checks that the folder p, as far as it exists, does not
// lead out of the workspace ws through a symbolic link: a report goes
// where the workspace says, never through a link to elsewhere.
func insideWorkspace(ws, p string) error {
	rws, err := filepath.EvalSymlinks(ws)
	if err != nil {
		return fmt.Errorf("finalize: the workspace %s: %w", ws, err)
	}
	q := p
	for {
		if _, err := os.Lstat(q); err == nil {
			break
		}
		parent := filepath.Dir(q)
		if parent == q {
			return nil
		}
		q = parent
	}
	rq, err := filepath.EvalSymlinks(q)
	if err != nil {
		return fmt.Errorf("finalize: the output folder %s: %w", p, err)
	}
	a, b := rws, rq
	if runtime.GOOS == "windows" {
		a, b = strings.ToLower(a), strings.ToLower(b)
	}
	if rel, err := filepath.Rel(a, b); err != nil || rel != "." && !filepath.IsLocal(rel) {
		return fmt.Errorf("finalize: the output folder %s leads out of the workspace (through a symbolic link to %s); remove the link, or set research.output_dir to a folder inside %s", p, rq, ws)
	}
	return nil
}

// OutsideSourceRoot checks, before anything is done, that the report
// folders of a workspace (OutputDir, config's research.output_dir when "",
// and the schema-version log) are not inside the source root; a refusal is
// a *Failure with ReasonInsideSourceRoot. Finalize checks it too.
func OutsideSourceRoot(workspace, outputDir, sourceRoot string) error {
	if outputDir == "" {
		outputDir = config.DefaultResearch().OutputDir
	}
	for _, d := range []string{filepath.Join(workspace, outputDir), filepath.Join(workspace, LogDir)} {
		if err := outsideSourceRoot(filepath.FromSlash(sourceRoot), d); err != nil {
			return &Failure{Reason: ReasonInsideSourceRoot, Err: err}
		}
	}
	return nil
}

// outsideSourceRoot checks that the folder p (as far as it exists, links
// resolved) is not inside the source root: a report written there would be
// indexed at the next build and found as a source of its own answer.
func outsideSourceRoot(root, p string) error {
	if root == "" {
		return nil
	}
	rroot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil // no source root: nothing to write into
	}
	q, rest := p, ""
	for {
		if _, err := os.Lstat(q); err == nil {
			break
		}
		parent := filepath.Dir(q)
		if parent == q {
			return nil
		}
		rest = filepath.Join(filepath.Base(q), rest)
		q = parent
	}
	rq, err := filepath.EvalSymlinks(q)
	if err != nil {
		return fmt.Errorf("finalize: the output folder %s: %w", p, err)
	}
	a, b := rroot, filepath.Join(rq, rest)
	if runtime.GOOS == "windows" {
		a, b = strings.ToLower(a), strings.ToLower(b)
	}
	if rel, err := filepath.Rel(a, b); err == nil && (rel == "." || filepath.IsLocal(rel)) {
		return fmt.Errorf("finalize: the report folder %s is inside the source root %s, where the next build would index the report as a source; write it to a workspace outside the source root (--workspace)", p, root)
	}
	return nil
}
