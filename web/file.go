package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"lwr/config"
)

// DefaultFileMaxBytes bounds a results file.
const DefaultFileMaxBytes = 8 << 20

// File reads results an agent already fetched: a web_result JSON document
// in a file (lwr research --web-results FILE).
type File struct {
	path     string
	maxBytes int64
	now      func() time.Time
}

// NewFile returns the provider for cfg.Path.
func NewFile(cfg config.File, opts Options) (*File, error) {
	opts = opts.withDefaults()
	if cfg.Path == "" {
		return nil, errors.New("web.file.path is empty; set it to the web_result JSON file an agent wrote")
	}
	return &File{path: cfg.Path, maxBytes: DefaultFileMaxBytes, now: opts.Now}, nil
}

// Name is "file".
func (p *File) Name() string { return "file" }

// Search reads the file; the query does not change what it holds, but a
// query recorded in the file that differs from req.Query is reported.
func (p *File) Search(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	// Stat before opening: opening a FIFO blocks until something writes.
	if st, err := os.Stat(p.path); err == nil && !st.Mode().IsRegular() {
		return Response{}, fmt.Errorf("the web results file %s is not a regular file (a folder, pipe or device); give a JSON file", p.path)
	}
	f, err := os.Open(p.path)
	if err != nil {
		return Response{}, fmt.Errorf("read web results file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, p.maxBytes+1))
	if err != nil {
		return Response{}, fmt.Errorf("read web results file %s: %w", p.path, err)
	}
	if int64(len(data)) > p.maxBytes {
		return Response{}, fmt.Errorf("read web results file %s: over %d bytes: %w", p.path, p.maxBytes, ErrOutputTooLarge)
	}
	resp, err := ParseWebResult(data, p.now())
	if err != nil {
		return Response{}, fmt.Errorf("read web results file %s: %w", p.path, err)
	}
	if resp.Status == "" {
		resp.Status = StatusOK
		if len(resp.Entries) == 0 {
			resp.Status = StatusEmpty
		}
	}
	return resp, nil
}
