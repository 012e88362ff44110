package research

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"lwr/analyzer"
)

// Tokenizer is what keyword extraction needs of the analyzer;
// analyzer.Default() is one.
type Tokenizer interface {
	Tokens(text string) []analyzer.Token
}

// Limits of the deep-drill's keywords (SPEC §7.3, seed 000 Phase C; the
// limits of its search are Options.DeepLimit).
const (
	// maxCandidates bounds the keywords taken from the web texts, and
	// maxKeywords those searched for.
	maxCandidates = 20
	maxChecked    = 12
	maxKeywords   = 5
)

// genericNouns are words of web titles and snippets that say nothing of
// the topic (まとめ, 解説, 方法, …); they are never keywords alone.
var genericNouns = setOf(strings.Fields("まとめ 基本 基礎 解説 方法 一覧 概要 入門 紹介 ポイント 注意 場合 こと もの ため よう 情報 記事 サイト ページ 最新 比較 導入 利用 対応 確認 必要 可能 詳細 説明 参考 関連 内容 全体 一般 以上 以下 未満 今回 今後 現在 問題 理由 結果 注意点 メリット デメリット 初心者 ガイド"))

func setOf(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// nounPOS are the parts of speech a keyword may have.
var nounPOS = map[string]bool{"名詞,一般": true, "名詞,固有名詞": true, "名詞,サ変接続": true}

func isKatakanaWord(s string) bool {
	n := 0
	for _, r := range s {
		if !(unicode.In(r, unicode.Katakana) || r == 'ー') {
			return false
		}
		n++
	}
	return n >= 2
}

// keywordOf says whether a token may be a keyword, and its surface form.
func keywordOf(text string, t analyzer.Token) (string, bool) {
	surface := strings.TrimSpace(text[t.Start:t.End])
	if surface == "" {
		return "", false
	}
	if t.Kind == analyzer.KindLatin {
		letters := false
		for _, r := range surface {
			if unicode.IsLetter(r) {
				letters = true
			}
		}
		if len(surface) < 3 || !letters || analyzer.IsStopWord(t.Term) {
			return "", false
		}
		return surface, true
	}
	if utf8.RuneCountInString(surface) < 2 || analyzer.IsStopWord(t.Term) || genericNouns[analyzer.Fold(surface)] {
		return "", false
	}
	if nounPOS[t.POS] || (strings.HasPrefix(t.POS, "名詞") && isKatakanaWord(surface)) {
		return surface, true
	}
	return "", false
}

// ExtractKeywords takes keyword candidates from sanitized web titles and
// snippets with the morphological analyzer: common nouns, proper nouns,
// verbal nouns, katakana words and identifiers, plus runs of adjacent
// nouns as compounds (随意 + 契約 → 随意契約). They are ordered by how
// many texts hold them (titles count twice), then by first appearance;
// at most 20.
func ExtractKeywords(tok Tokenizer, titles, snippets []string) []string {
	type cand struct {
		word  string
		score int
		first int
	}
	byKey := map[string]*cand{}
	order := 0
	add := func(w string, weight int, seen map[string]bool) {
		k := analyzer.Fold(w)
		if seen[k] {
			return
		}
		seen[k] = true
		c, ok := byKey[k]
		if !ok {
			c = &cand{word: w, first: order}
			order++
			byKey[k] = c
		}
		c.score += weight
	}
	scan := func(text string, weight int) {
		seen := map[string]bool{}
		toks := tok.Tokens(text)
		var run []analyzer.Token
		// flush adds the compounds of a run of adjacent nouns: every span
		// of two to four of them (電子契約サービス gives 電子契約 too).
		flush := func() {
			for i := 0; i < len(run); i++ {
				for j := i + 2; j <= len(run) && j <= i+4; j++ {
					w := strings.TrimSpace(text[run[i].Start:run[j-1].End])
					if n := utf8.RuneCountInString(w); n >= 3 && n <= 16 {
						add(w, weight, seen)
					}
				}
			}
			run = run[:0]
		}
		for _, t := range toks {
			w, ok := keywordOf(text, t)
			if !ok {
				flush()
				continue
			}
			add(w, weight, seen)
			if t.Kind == analyzer.KindJapanese {
				if len(run) > 0 && run[len(run)-1].End != t.Start {
					flush()
				}
				run = append(run, t)
			} else {
				flush()
			}
		}
		flush()
	}
	for _, t := range titles {
		scan(t, 2)
	}
	for _, s := range snippets {
		scan(s, 1)
	}
	list := make([]*cand, 0, len(byKey))
	for _, c := range byKey {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].first < list[j].first
	})
	// A word that only ever comes inside a compound of the list (電子 in
	// 電子契約, as often) adds nothing of its own.
	out := make([]string, 0, min(len(list), maxCandidates))
	for _, c := range list {
		if len(out) == maxCandidates {
			break
		}
		fc := analyzer.Fold(c.word)
		inside := false
		for _, d := range list {
			if d != c && d.score >= c.score && len(d.word) > len(c.word) && strings.Contains(analyzer.Fold(d.word), fc) {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, c.word)
		}
	}
	return out
}

// notInQuery drops the candidates the query already holds (and those
// that hold a word of the query), keeping the order.
func notInQuery(cands []string, query string) []string {
	fq := analyzer.Fold(query)
	var words []string
	for _, w := range strings.Fields(fq) {
		if utf8.RuneCountInString(w) >= 2 {
			words = append(words, w)
		}
	}
	var out []string
	for _, c := range cands {
		fc := analyzer.Fold(c)
		if strings.Contains(fq, fc) {
			continue
		}
		holds := false
		for _, w := range words {
			if strings.Contains(fc, w) {
				holds = true
				break
			}
		}
		if !holds {
			out = append(out, c)
		}
	}
	return out
}

// keywordKey is the cache key of a set of web texts.
func keywordKey(titles, snippets []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "lwr-keywords-1\x00%s\x00", analyzer.Version)
	for _, t := range titles {
		fmt.Fprintf(h, "t%d:%s\x00", len(t), t)
	}
	for _, s := range snippets {
		fmt.Fprintf(h, "s%d:%s\x00", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// KeywordCache remembers the keyword candidates of a set of web texts, so
// that a research whose web result comes from the web cache does not load
// the morphological dictionary again. It keeps them as small JSON files in
// a folder of the cache directory (owner only), each for 24 hours; errors
// are not reported (it is a cache).
type KeywordCache struct {
	dir string
	now func() time.Time
}

// keywordTTL is how long candidates are kept.
const keywordTTL = 24 * time.Hour

// NewKeywordCache returns the cache in dir (created when first written).
func NewKeywordCache(dir string, now func() time.Time) *KeywordCache {
	if now == nil {
		now = time.Now
	}
	return &KeywordCache{dir: dir, now: now}
}

type keywordFile struct {
	V        int       `json:"v"`
	At       time.Time `json:"at"`
	Keywords []string  `json:"keywords"`
}

// Get returns the candidates stored under key, when they are fresh.
func (c *KeywordCache) Get(key string) ([]string, bool) {
	p := filepath.Join(c.dir, key+".json")
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	var f keywordFile
	if json.Unmarshal(data, &f) != nil || f.V != 1 {
		return nil, false
	}
	if age := c.now().Sub(f.At); age > keywordTTL || age < -time.Minute {
		return nil, false
	}
	return f.Keywords, true
}

// Put stores candidates under key, atomically, and removes a few entries
// older than the TTL.
func (c *KeywordCache) Put(key string, keywords []string) {
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return
	}
	data, err := json.Marshal(keywordFile{V: 1, At: c.now().UTC(), Keywords: keywords})
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(c.dir, ".kw-*.tmp")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(c.dir, key+".json")) != nil {
		os.Remove(tmp.Name())
		return
	}
	c.cleanup()
}

func (c *KeywordCache) cleanup() {
	entries, err := os.ReadDir(c.dir)
	if err != nil || len(entries) < 64 {
		return
	}
	removed := 0
	for _, e := range entries {
		if removed == 32 {
			return
		}
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if c.now().Sub(info.ModTime()) > keywordTTL {
			if err := os.Remove(filepath.Join(c.dir, e.Name())); err == nil || errors.Is(err, fs.ErrNotExist) {
				removed++
			}
		}
	}
}
