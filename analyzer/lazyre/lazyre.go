// Package lazyre owns regular expressions compiled at their first use, so
// that a process pays for the patterns of passage choosing, report checks
// and deep research only when it runs them: every lwr process runs every
// linked package's init before main, and a search the daemon answers is
// mostly that (cmd/lwr's startup test bounds it).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled when it is first used; a bad
// expression panics then, as regexp.MustCompile does.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New is a Regexp of expr, not compiled yet.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Get compiles the expression once and returns it.
func (l *Regexp) Get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

func (l *Regexp) MatchString(s string) bool              { return l.Get().MatchString(s) }
func (l *Regexp) FindString(s string) string             { return l.Get().FindString(s) }
func (l *Regexp) FindStringIndex(s string) []int         { return l.Get().FindStringIndex(s) }
func (l *Regexp) FindStringSubmatch(s string) []string   { return l.Get().FindStringSubmatch(s) }
func (l *Regexp) FindAllString(s string, n int) []string { return l.Get().FindAllString(s, n) }
func (l *Regexp) ReplaceAllString(s, repl string) string { return l.Get().ReplaceAllString(s, repl) }
func (l *Regexp) Split(s string, n int) []string         { return l.Get().Split(s, n) }
func (l *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return l.Get().FindAllStringIndex(s, n)
}
func (l *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.Get().FindAllStringSubmatch(s, n)
}
func (l *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.Get().FindAllStringSubmatchIndex(s, n)
}
func (l *Regexp) FindStringSubmatchIndex(s string) []int { return l.Get().FindStringSubmatchIndex(s) }
func (l *Regexp) ReplaceAllStringFunc(s string, f func(string) string) string {
	return l.Get().ReplaceAllStringFunc(s, f)
}
func (l *Regexp) FindSubmatch(b []byte) [][]byte { return l.Get().FindSubmatch(b) }
func (l *Regexp) Match(b []byte) bool            { return l.Get().Match(b) }
func (l *Regexp) ReplaceAllLiteralString(s, repl string) string {
	return l.Get().ReplaceAllLiteralString(s, repl)
}
func (l *Regexp) FindIndex(b []byte) []int { return l.Get().FindIndex(b) }
