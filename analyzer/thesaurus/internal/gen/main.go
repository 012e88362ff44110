// Command gen turns SudachiDict's synonym groups (the npm package
// sudachi-synonyms-dictionary, pinned by version and SHA-256) into the
// thesaurus's embedded file: one line per usable word with its group, its
// lexeme within the group, whether it may trigger an expansion, whether
// it is a predicate, and its analyzed terms. It runs `npm pack` in a
// temporary folder; go generate ./analyzer/thesaurus runs it.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"lwr/analyzer"
)

const (
	pkg = "sudachi-synonyms-dictionary"
	// The version and the SHA-256 of its tarball; change both together.
	version = "18.0.0"
	sum     = "f59fdcfdffac935a5ae6c73baa112f2d22f3220c958f6327e8fa304e1f5e6dec"
)

type item struct {
	TaigenYogen      string `json:"taigenYogen"`
	ExpandControl    int    `json:"expandControl"`
	VocabularyNumber int    `json:"vocabularyNumber"`
	Midashi          string `json:"midashi"`
}

type group struct {
	ID    string `json:"id"`
	Items []item `json:"items"`
}

func main() {
	out := flag.String("out", "sudachi.tsv.gz", "the embedded file to write")
	license := flag.String("license", "SUDACHI-LICENSE", "where the dictionary's license goes")
	tarball := flag.String("tarball", "", "a downloaded "+pkg+"-"+version+".tgz (default: npm pack it)")
	flag.Parse()
	log.SetFlags(0)
	data, err := fetch(*tarball)
	if err != nil {
		log.Fatal(err)
	}
	if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != sum {
		log.Fatalf("%s-%s.tgz has SHA-256 %x, want %s", pkg, version, got, sum)
	}
	files, err := untar(data, "package/"+pkg+".json", "package/LICENSE")
	if err != nil {
		log.Fatal(err)
	}
	var groups []group
	if err := json.Unmarshal(files["package/"+pkg+".json"], &groups); err != nil {
		log.Fatalf("%s.json: %v", pkg, err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# SudachiDict synonyms (%s %s, Apache-2.0; see SUDACHI-LICENSE)\n", pkg, version)
	fmt.Fprintf(&b, "# group\tlexeme\ttrigger\tpredicate\tword\tterms (analyzer %s)\n", analyzer.Version)
	a := analyzer.Default()
	words, kept := 0, 0
	for _, g := range groups {
		var lines []string
		for _, it := range g.Items {
			w := strings.TrimSpace(it.Midashi)
			if it.ExpandControl == 2 || w == "" || strings.ContainsAny(w, "\t\n") {
				continue // never used for expansion
			}
			var terms []string
			for _, t := range a.Tokens(w) {
				terms = append(terms, t.Term)
			}
			if len(terms) == 0 {
				continue
			}
			trigger, pred := "1", "0"
			if it.ExpandControl == 1 {
				trigger = "0"
			}
			if it.TaigenYogen == "用言" {
				pred = "1"
			}
			lines = append(lines, fmt.Sprintf("%s\t%d\t%s\t%s\t%s\t%s\n", g.ID, it.VocabularyNumber, trigger, pred, w, strings.Join(terms, " ")))
		}
		if len(lines) < 2 {
			continue
		}
		kept++
		words += len(lines)
		for _, l := range lines {
			b.WriteString(l)
		}
	}
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write(b.Bytes())
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, z.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*license, files["package/LICENSE"], 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d groups, %d words (%d bytes, %d gzipped)", *out, kept, words, b.Len(), z.Len())
}

// fetch reads the tarball, packing it with npm when none is given.
func fetch(tarball string) ([]byte, error) {
	if tarball != "" {
		return os.ReadFile(tarball)
	}
	dir, err := os.MkdirTemp("", "gen-sudachi-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("npm", "pack", "--silent", pkg+"@"+version)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("npm pack %s@%s: %w (pass -tarball FILE to use a downloaded one)", pkg, version, err)
	}
	return os.ReadFile(filepath.Join(dir, pkg+"-"+version+".tgz"))
}

// untar returns the named files of a gzipped tarball.
func untar(data []byte, names ...string) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	out := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if h.Name == n {
				if out[n], err = io.ReadAll(tr); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, n := range names {
		if _, ok := out[n]; !ok {
			return nil, fmt.Errorf("the tarball has no %s", n)
		}
	}
	return out, nil
}
