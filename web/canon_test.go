package web

import (
	"errors"
	"testing"
)

func TestCanonicalURL(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"https://Example.COM/a", "https://example.com/a"},
		{"HTTPS://example.com/a", "https://example.com/a"},
		{"https://example.com:443/a", "https://example.com/a"},
		{"https://example.com:8443/a", "https://example.com:8443/a"},
		{"https://example.com/a/", "https://example.com/a"},
		{"https://example.com", "https://example.com/"},
		{"https://example.com/", "https://example.com/"},
		{"https://example.com/a#section", "https://example.com/a"},
		{"https://example.com/a?utm_source=x&utm_medium=y&id=3", "https://example.com/a?id=3"},
		{"https://example.com/a?gclid=1&fbclid=2", "https://example.com/a"},
		{"https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2"},
		{"https://example.com/x/../a/./b", "https://example.com/a/b"},
		{"https://example.com./a", "https://example.com/a"},
		{"https://例え.jp/a", "https://xn--r8jz45g.jp/a"},
		{"https://example.com/%7Euser", "https://example.com/~user"},
		{"https://example.com/a%2Fb/", "https://example.com/a%2Fb"},
	}
	for _, tt := range tests {
		got, err := CanonicalURL(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("CanonicalURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"http://example.com/", "ftp://example.com/", "https://user@example.com/", "https:///a", "https://127.0.0.1/", "https://[::1]/", "https://localhost/", "javascript:alert(1)", "https://intranet/"} {
		if got, err := CanonicalURL(bad); !errors.Is(err, errNotHTTPS) {
			t.Errorf("CanonicalURL(%q) = %q, %v; want errNotHTTPS", bad, got, err)
		}
	}
}

func TestCanonicalDisplayKeepsTrailingSlash(t *testing.T) {
	c, err := canonicalize("https://Example.com/docs/?utm_campaign=x#top")
	if err != nil {
		t.Fatal(err)
	}
	if c.display != "https://example.com/docs/" || c.key != "https://example.com/docs" || c.host != "example.com" {
		t.Errorf("got %+v", c)
	}
}
