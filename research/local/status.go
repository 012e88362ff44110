package local

import (
	"time"

	"lwr/index"
)

// IndexState is what can be done with an index now.
type IndexState string

// The states of an index.
const (
	StateReady        IndexState = "ready"
	StateNotIndexed   IndexState = "not indexed"
	StateNeedsRebuild IndexState = "must be rebuilt"
	StateBusy         IndexState = "in use"
	StateSyncing      IndexState = "syncing" // the daemon builds it
)

// Status describes the index of a source root and its daemon.
type Status struct {
	Root  string     `json:"root"`
	Dir   string     `json:"dir"`
	State IndexState `json:"state"`
	// Problem says why the index must be rebuilt.
	Problem string `json:"problem,omitempty"`
	// Holder is the process that holds a busy index.
	Holder index.Holder `json:"holder"`
	// Index is the index's own report, when it could be read.
	Index *index.Status `json:"index,omitempty"`
	// Changed counts the files changed since the last sync (a build
	// would read or remove them); -1 when it is not known.
	Changed int `json:"changed"`
	// Daemon is the daemon serving the index, nil when none answers.
	Daemon *DaemonStatus `json:"daemon,omitempty"`
}

// DaemonStatus is what a running daemon says of itself.
type DaemonStatus struct {
	PID     int              `json:"pid"`
	Started time.Time        `json:"started"`
	Root    string           `json:"root"`
	Dir     string           `json:"dir"`
	Index   index.Status     `json:"index"`
	Watch   index.WatchState `json:"watch"`
}
