package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set by make dist (-ldflags "-X main.version=v1.2.3"); else
// the module's version from the build information (go install
// lwr/cmd/lwr@v1.2.3), else "(devel)".
var version string

// versionString is what lwr --version prints after "lwr": the version,
// the commit it was built from, and the Go toolchain and platform.
func versionString() string {
	v, commit, date, dirty := version, "", "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				date = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	s := v
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		s += " (commit " + commit
		if dirty {
			s += ", modified"
		}
		if len(date) >= 10 {
			s += ", " + date[:10]
		}
		s += ")"
	}
	return fmt.Sprintf("%s %s %s/%s", s, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
