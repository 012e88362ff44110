package web

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"path"
	"sort"
	"strings"

	"golang.org/x/net/idna"
)

// canonical is a checked https URL in two forms.
type canonical struct {
	// display is what results show: scheme and host lower-case, the host
	// in punycode, no default port, no fragment, no tracking parameters,
	// the remaining parameters sorted, an empty path as "/".
	display string
	// key merges duplicates: display without a trailing slash.
	key  string
	host string
}

// CanonicalURL returns the form of an https URL that results are merged
// by: scheme and host case folded, default port, fragment and tracking
// parameters (utm_*, gclid, fbclid, …) removed, query parameters sorted,
// the trailing slash of a non-root path removed. It fails for anything
// but an https URL to a public host without user information.
func CanonicalURL(raw string) (string, error) {
	c, err := canonicalize(raw)
	if err != nil {
		return "", err
	}
	return c.key, nil
}

var errNotHTTPS = errors.New("not an https URL to a public host")

func canonicalize(raw string) (canonical, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return canonical{}, fmt.Errorf("canonicalize %q: %w", firstRunes(raw, 80), err)
	}
	if u.Scheme != "https" || u.Opaque != "" || u.User != nil || u.Host == "" {
		return canonical{}, fmt.Errorf("canonicalize %q: %w", firstRunes(raw, 80), errNotHTTPS)
	}
	host, err := asciiHost(u.Hostname())
	if err != nil || !publicHost(host) {
		return canonical{}, fmt.Errorf("canonicalize %q: %w", firstRunes(raw, 80), errNotHTTPS)
	}
	hostport := host
	if strings.Contains(host, ":") {
		hostport = "[" + host + "]"
	}
	if p := u.Port(); p != "" && p != "443" {
		hostport += ":" + p
	}
	u.Host = hostport
	u.Fragment, u.RawFragment = "", ""

	// Path: resolve dot segments, keep a trailing slash for display.
	p := u.Path
	if p == "" {
		p = "/"
	}
	trailing := strings.HasSuffix(p, "/")
	p = path.Clean(p)
	if trailing && p != "/" {
		p += "/"
	}
	keepRaw := strings.Contains(strings.ToLower(u.RawPath), "%2f")
	u.Path = p
	if !keepRaw {
		u.RawPath = ""
	}

	if u.RawQuery != "" {
		q, err := url.ParseQuery(u.RawQuery)
		if err != nil {
			q = url.Values{}
			for part := range strings.SplitSeq(u.RawQuery, "&") {
				k, v, _ := strings.Cut(part, "=")
				q.Add(k, v)
			}
		}
		for k := range q {
			if isTrackingParam(k) {
				delete(q, k)
			}
		}
		u.RawQuery = encodeSorted(q)
	}
	u.ForceQuery = false
	display := u.String()

	keyURL := *u
	if len(keyURL.Path) > 1 {
		keyURL.Path = strings.TrimSuffix(keyURL.Path, "/")
		if keyURL.RawPath != "" {
			keyURL.RawPath = strings.TrimSuffix(keyURL.RawPath, "/")
		}
	}
	return canonical{display: display, key: keyURL.String(), host: host}, nil
}

// encodeSorted is url.Values.Encode (which sorts by key) keeping the order
// of repeated values.
func encodeSorted(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, v := range q[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(url.QueryEscape(k))
			if v != "" {
				b.WriteByte('=')
				b.WriteString(url.QueryEscape(v))
			}
		}
	}
	return b.String()
}

// trackingParams are query parameters that only say where a click came from.
var trackingParams = map[string]bool{
	"gclid": true, "gclsrc": true, "dclid": true, "gbraid": true, "wbraid": true, "fbclid": true, "msclkid": true,
	"yclid": true, "ysclid": true, "twclid": true, "ttclid": true, "li_fat_id": true, "igshid": true, "igsh": true,
	"mc_cid": true, "mc_eid": true, "_ga": true, "_gl": true, "_hsenc": true, "_hsmi": true, "mkt_tok": true,
	"srsltid": true, "ref_src": true, "ref_url": true, "spm": true, "scid": true, "vero_id": true, "oly_anon_id": true,
	"oly_enc_id": true, "rb_clickid": true, "s_cid": true, "wt_mc": true, "wt.mc_id": true, "cmpid": true,
}

func isTrackingParam(k string) bool {
	k = strings.ToLower(k)
	return strings.HasPrefix(k, "utm_") || strings.HasPrefix(k, "pk_") || strings.HasPrefix(k, "mtm_") || trackingParams[k]
}

// sanitizeURL checks and cleans a result URL. It returns the URL to show
// and true, or "" and false when the result must be dropped; it counts
// FilteredUnsafeURLs and records dangerous schemes as a pattern.
func sanitizeURL(raw string, f *Flags) (string, bool) {
	s := strings.TrimSpace(strings.ToValidUTF8(raw, ""))
	s = removeInvisible(s, f)
	s = nfkc(s)
	drop := func(dangerous bool) (string, bool) {
		f.FilteredUnsafeURLs++
		if dangerous {
			f.addPattern(PatternUnsafeURLScheme)
		}
		return "", false
	}
	if s == "" {
		return drop(false)
	}
	scheme := ""
	if i := strings.IndexByte(s, ':'); i > 0 {
		scheme = strings.ToLower(strings.Join(strings.Fields(s[:i]), ""))
	}
	switch scheme {
	case "https":
	case "http", "ftp", "":
		return drop(false)
	default:
		return drop(true)
	}
	c, err := canonicalize(s)
	if err != nil {
		return drop(false)
	}
	return c.display, true
}

// publicHost reports whether a host name may appear in a result: not
// localhost, not an IP address of a private, loopback or link-local network.
func publicHost(host string) bool {
	if host == "" || host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".internal") {
		return false
	}
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return a.IsGlobalUnicast() && !a.IsPrivate()
	}
	return strings.Contains(host, ".") && validHostname(host)
}

// validHostname reports a name of dot-separated labels of letters,
// digits, hyphens and underscores, none empty (not ".<a", "a..b").
func validHostname(host string) bool {
	for _, l := range strings.Split(host, ".") {
		if l == "" || len(l) > 63 {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// asciiHost lower-cases a host and turns an internationalized name into
// its punycode form, so look-alike letters show.
func asciiHost(host string) (string, error) {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if isASCII(host) {
		return host, nil
	}
	return idna.Lookup.ToASCII(host)
}
