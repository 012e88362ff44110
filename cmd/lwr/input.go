package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// readInput reads the file name, or standard input for "-", of at most
// max bytes. A folder, pipe, device or socket is refused before it is
// opened (opening a FIFO blocks until something writes to it), and the
// read ends when ctx does (an interrupt while standard input stays open).
func readInput(ctx context.Context, stdin io.Reader, name string, max int64) ([]byte, error) {
	if name != "-" {
		st, err := os.Stat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("%s does not exist", name)
		case err != nil:
			return nil, fmt.Errorf("cannot read %s: %v", name, pathless(err))
		case st.IsDir():
			return nil, fmt.Errorf("%s is a folder, not a file", name)
		case !st.Mode().IsRegular():
			return nil, fmt.Errorf("%s is not a regular file (a pipe, device or socket); give a file, or - to read standard input", name)
		case st.Size() > max:
			return nil, fmt.Errorf("%s is %d bytes, more than the %d read", name, st.Size(), max)
		}
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		r := stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				done <- result{err: fmt.Errorf("cannot read %s: %v", name, pathless(err))}
				return
			}
			defer f.Close()
			r = f
		}
		data, err := io.ReadAll(io.LimitReader(r, max+1))
		if err != nil {
			err = fmt.Errorf("cannot read %s: %v", name, pathless(err))
		}
		done <- result{data, err}
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res := <-done:
		if res.err == nil && int64(len(res.data)) > max {
			return nil, fmt.Errorf("%s is more than the %d bytes read", name, max)
		}
		return res.data, res.err
	}
}

// pathless is an I/O error without the path, which the message names
// already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
