package policy

import "strings"

// foldPath is how paths compare on Windows, where file names are case
// insensitive: in lower case.
func foldPath(p string) string { return strings.ToLower(p) }
