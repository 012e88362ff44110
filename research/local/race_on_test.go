//go:build race

package local

// raceEnabled: the race detector is on; the tests that measure relevance
// over the real-document set skip (they take minutes under it and race
// nothing the other tests do not).
const raceEnabled = true
