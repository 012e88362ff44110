package report

import (
	"fmt"
	"lwr/index"
	"strings"
)

// VSCodeURI is vscode://file/<absolute path>:<line>, the path with forward
// slashes and percent-encoded except '/', unreserved characters and the
// ':' of a drive letter (vscode://file/C:/Users/…/file.md:3).
func VSCodeURI(abs string, line int) string {
	var b strings.Builder
	b.WriteString("vscode://file/")
	p := strings.ReplaceAll(abs, "\\", "/")
	p = strings.TrimPrefix(p, "/")
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '/' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' ||
			c == ':' && i == 1 && isDriveLetter(p[0]) {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	fmt.Fprintf(&b, ":%d", line)
	return b.String()
}

// LinkPath is a file's path (the file system's bytes, forward slashes) as
// a link target and as the JSON comment's source path: readable, with
// "%", control characters and bytes that are not UTF-8 written %XX, which
// a link's reader takes as those bytes (bad%FF.md, new%0Aline.md).
func LinkPath(p string) string { return index.EscapeBytes(p) }

func isDriveLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// Citation is the local citation of SPEC §7.4:
// [<file name>](<absolute path>#L<s>-L<e>) (L<s>-L<e>) [VS Codeで開く](vscode://file/…:<s>).
func Citation(name, abs string, start, end int) string {
	abs = strings.ReplaceAll(abs, "\\", "/")
	return fmt.Sprintf("[%s](%s) (L%d-L%d) [VS Codeで開く](%s)", Text(name), PathTarget(fmt.Sprintf("%s#L%d-L%d", LinkPath(abs), start, end)), start, end, VSCodeURI(abs, start))
}
