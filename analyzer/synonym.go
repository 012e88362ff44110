package analyzer

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

//go:embed synonyms.json
var defaultSynonyms []byte

// Synonyms is a synonym dictionary: groups of words that mean the same.
// Each entry of the JSON form {"word": ["synonym", ...]} is one group; a
// query that holds any word of a group gets the others.
type Synonyms struct {
	groups [][]string // folded words
	raw    [][]string // as written
}

// DefaultSynonyms returns the embedded default dictionary.
func DefaultSynonyms() *Synonyms {
	s, err := parseSynonyms(defaultSynonyms)
	if err != nil {
		panic("analyzer: embedded synonym dictionary: " + err.Error())
	}
	return s
}

// LoadSynonyms returns the default dictionary merged with a user one (a
// JSON file of the same form); an empty path means the default alone.
func LoadSynonyms(userFile string) (*Synonyms, error) {
	s := DefaultSynonyms()
	if userFile == "" {
		return s, nil
	}
	data, err := os.ReadFile(userFile)
	if err != nil {
		return nil, fmt.Errorf("read synonym dictionary %s: %w", userFile, err)
	}
	u, err := parseSynonyms(data)
	if err != nil {
		return nil, fmt.Errorf("synonym dictionary %s: %w; it must be a JSON object of word → list of synonyms", userFile, err)
	}
	s.groups = append(s.groups, u.groups...)
	s.raw = append(s.raw, u.raw...)
	return s, nil
}

func parseSynonyms(data []byte) (*Synonyms, error) {
	var m map[string][]string
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := &Synonyms{}
	for _, k := range keys {
		raw := append([]string{k}, m[k]...)
		var g, r []string
		seen := map[string]bool{}
		for _, w := range raw {
			f := strings.TrimSpace(Fold(w))
			if f == "" || seen[f] {
				continue
			}
			seen[f] = true
			g = append(g, f)
			r = append(r, strings.TrimSpace(w))
		}
		if len(g) > 1 {
			s.groups = append(s.groups, g)
			s.raw = append(s.raw, r)
		}
	}
	return s, nil
}

// Expand returns the synonyms of the words of query that are in the
// dictionary, without the words the query already holds. A word matches
// when it occurs in the folded query; an ASCII word must stand alone.
func (s *Synonyms) Expand(query string) []string {
	if s == nil {
		return nil
	}
	q := Fold(query)
	var out []string
	seen := map[string]bool{}
	for gi, g := range s.groups {
		hit := false
		for _, w := range g {
			if containsWord(q, w) {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		for i, w := range g {
			if containsWord(q, w) || seen[w] {
				continue
			}
			seen[w] = true
			out = append(out, s.raw[gi][i])
		}
	}
	return out
}

// containsWord reports whether w occurs in q; when w starts or ends with an
// ASCII letter or digit, the neighbouring characters must not be ones.
func containsWord(q, w string) bool {
	for off := 0; ; {
		i := strings.Index(q[off:], w)
		if i < 0 {
			return false
		}
		i += off
		j := i + len(w)
		okL := i == 0 || !isWordByte(q[i-1]) || !isWordByte(w[0])
		okR := j == len(q) || !isWordByte(q[j]) || !isWordByte(w[len(w)-1])
		if okL && okR {
			return true
		}
		off = i + 1
	}
}
