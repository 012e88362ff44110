//go:build !windows && !linux && !darwin

package index

// volumeOf knows nothing of volumes here: events are trusted.
func volumeOf(string) volume { return volume{} }
