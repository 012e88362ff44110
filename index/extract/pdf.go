package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
)

// PDFInstall says how to install pdftotext, by operating system.
func PDFInstall() string {
	switch runtime.GOOS {
	case "windows":
		return "install Poppler (winget install oschwartz10612.Poppler, or scoop install poppler) and put its bin folder on PATH"
	case "darwin":
		return "install Poppler: brew install poppler"
	}
	return "install Poppler: sudo apt install poppler-utils poppler-data (Debian, Ubuntu), sudo dnf install poppler-utils poppler-data (Fedora)"
}

// pdf reads a PDF with Poppler's pdftotext: the text in reading order,
// pages separated by form feeds, each line located on its page.
// poppler-data gives Japanese CID fonts their characters.
func pdf(ctx context.Context, path string, opts Options) (*Text, error) {
	tool := opts.PDFToText
	if tool == "" {
		p, err := exec.LookPath("pdftotext")
		if err != nil {
			return nil, fmt.Errorf("%w: PDF files are read with pdftotext; %s", ErrToolMissing, PDFInstall())
		}
		tool = p
	}
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, tool, "-enc", "UTF-8", "-eol", "unix", path, "-")
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(errOut.String())
		var ee *exec.ExitError
		switch {
		case strings.Contains(strings.ToLower(msg), "password") || errors.As(err, &ee) && ee.ExitCode() == 3:
			// pdftotext exits 3 on a permission or password error.
			return nil, fmt.Errorf("%w: it is protected by a password", ErrEncrypted)
		case msg != "":
			return nil, fmt.Errorf("%w: pdftotext: %s", ErrBroken, firstLine(msg))
		}
		return nil, fmt.Errorf("%w: pdftotext: %v", ErrBroken, err)
	}
	t := &Text{Format: "pdf"}
	pages := strings.Split(out.String(), "\f")
	for i, page := range pages {
		if i == len(pages)-1 && strings.TrimSpace(page) == "" {
			break // after the last form feed
		}
		for _, l := range strings.Split(strings.TrimRight(page, "\n"), "\n") {
			t.add(l, Locator{Page: i + 1})
		}
	}
	if strings.TrimSpace(out.String()) == "" {
		return nil, fmt.Errorf("%w: the PDF holds no text (a scan without OCR?)", ErrNoText)
	}
	return t, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
