// Package glob matches the paths of a source root's documents (relative,
// forward slashes) with lwr's one path-pattern dialect, .gitignore's: the
// dialect of index.exclude, of search's --path and --exclude-path, of the
// MCP tools' paths and exclude_paths and of the policy files' paths.
//
//   - A name without a slash matches a file or folder of that name at any
//     depth: drafts leaves out drafts/, 規程/drafts/ and everything in them;
//     *.bak every .bak file.
//   - A pattern with a slash at its start or in its middle is anchored at
//     the source root: 規程/旧 is that folder only, /drafts the top folder
//     drafts only.
//   - A trailing slash matches folders only: drafts/ leaves out folders
//     named drafts, not a file named drafts.
//   - * and ? match within a name (never a slash), [a-z] and [^a-z] one
//     character of a class; ** as a whole name matches any folders, none
//     included: **/tmp (tmp at any depth), 規程/** (everything in 規程),
//     規程/**/旧*.md.
//   - A pattern that matches a folder matches everything inside it.
//
// Names compare in Unicode NFC, and without case on Windows, where a
// backslash is a separator too. A backslash elsewhere, a
// "." or ".." name, a drive letter, "~" and a leading "!" (.gitignore's
// re-include) are refused with what to write instead.
package glob
