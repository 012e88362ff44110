package deep

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"lwr/analyzer/lazyre"
)

// Lengths of the parts of names (in characters).
const (
	slugTopicMax    = 40
	findingsNameMax = 60
)

// kebab is the seed's kebab(): the text NFKC-folded and lower-cased,
// every run of characters other than letters, marks and digits (spaces,
// punctuation, symbols, < > : " / \ | ? * and control characters among
// them) replaced by one "-", "-" trimmed at both ends, cut to n
// characters. Japanese stays as it is.
func kebab(s string, n int) string {
	// Invalid bytes become spaces first: NFKC leaves the letters after
	// one as they are (\xf4ʱ), which the slug would keep and a second
	// reading would fold (ɦ). Lower case may unfold a letter again.
	s = norm.NFKC.String(strings.ToLower(norm.NFKC.String(strings.ToValidUTF8(s, " "))))
	var b strings.Builder
	dash := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	out := []rune(b.String())
	if len(out) > n {
		out = out[:n]
	}
	return strings.Trim(string(out), "-")
}

// NewSlug is the slug of a topic started at now: kebab(topic)[:40], the
// date YYYYMMDD (UTC) and 4 random hex digits, e.g.
// 出張旅費の規程-20260601-3fa9. A topic of symbols only is "topic".
func NewSlug(topic string, now time.Time, rnd io.Reader) (string, error) {
	k := kebab(topic, slugTopicMax)
	if k == "" {
		k = "topic"
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	var b [2]byte
	if _, err := io.ReadFull(rnd, b[:]); err != nil {
		return "", fmt.Errorf("make the topic's slug: %w", err)
	}
	return fmt.Sprintf("%s-%s-%s", k, now.UTC().Format("20060102"), hex.EncodeToString(b[:])), nil
}

var slugTail = lazyre.New(`-[0-9]{8}-[0-9a-f]{4}$`)

// CheckSlug accepts what NewSlug makes and nothing else: so a slug from
// the command line or an agent names a folder of the deep research
// folder, never a path.
func CheckSlug(s string) error {
	loc := slugTail.FindStringIndex(s)
	if loc == nil || loc[0] == 0 || kebab(s[:loc[0]], slugTopicMax) != s[:loc[0]] || !SafeName(s) {
		return errorf(ErrInput, "%q is not a topic's slug; give it as lwr deep start printed it (<topic>-YYYYMMDD-<4 hex>), or see lwr deep status", cut(s, 80))
	}
	return nil
}

// reserved are the names Windows gives devices, in any case and with any
// extension.
var reserved = lazyre.New(`(?i)^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$`)

// SafeName reports whether a file name is safe on Windows as on the other
// systems: not empty, none of < > : " / \ | ? * or control characters,
// not ending with a dot or a space, not a device name (CON, NUL, COM1 …,
// also with an extension), at most 255 UTF-16 units.
func SafeName(s string) bool {
	if s == "" || s == "." || s == ".." || strings.HasSuffix(s, ".") || strings.HasSuffix(s, " ") || reserved.MatchString(s) {
		return false
	}
	units := 0
	for _, r := range s {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`<>:"/\|?*`, r) {
			return false
		}
		units++
		if r > 0xFFFF {
			units++
		}
	}
	return units <= 255
}

// findingsName is the file of a subtopic's findings: NN-<kebab of its
// name, 60 characters at most>.md, or _followup.md.
func findingsName(i int, name string) string {
	if name == Followup {
		return Followup + ".md"
	}
	k := kebab(name, findingsNameMax)
	if k == "" {
		k = "subtopic"
	}
	return fmt.Sprintf("%02d-%s.md", i+1, k)
}

// cut shortens text to n characters for a message.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
