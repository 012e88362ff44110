//go:build !race

package research

const raceEnabled = false
