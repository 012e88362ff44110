package analyzer

// maxTermBytes drops longer terms (hashes, base64 blobs): nobody searches
// for them by word and they bloat the term dictionary.
const maxTermBytes = 96

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
}

func isJoiner(c byte) bool {
	return c == '_' || c == '.' || c == '-'
}

// latinTokens splits a folded ASCII run into words. A compound such as
// snake_case_name, config.yaml or x86-64 is emitted whole and then as its
// parts, all starting at the compound's position, so that both the exact
// identifier and its words are searchable.
func latinTokens(s string, base int, emit func(term string, a, b, pos int)) int {
	pos := base
	i := 0
	for i < len(s) {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		// A compound: word (joiner word)*.
		j := i
		parts := 0
		for {
			k := j
			for k < len(s) && isWordByte(s[k]) {
				k++
			}
			parts++
			j = k
			if j+1 < len(s) && isJoiner(s[j]) && isWordByte(s[j+1]) {
				j++
				continue
			}
			break
		}
		if parts > 1 && j-i <= maxTermBytes {
			emit(s[i:j], i, j, pos)
		}
		for k := i; k < j; {
			if !isWordByte(s[k]) {
				k++
				continue
			}
			e := k
			for e < j && isWordByte(s[e]) {
				e++
			}
			if e-k <= maxTermBytes && !englishStop[s[k:e]] {
				emit(s[k:e], k, e, pos)
			}
			pos++
			k = e
		}
		i = j
	}
	return pos
}
