package policy

import "os"

// The policy files of a root as the tests read them: the folder's files
// through os.DirFS (lwr passes index.SourceFS, which this package cannot
// import).
func LoadPreferences(root string) (*Preferences, error) {
	return Loader{Root: root, FS: os.DirFS(root)}.Preferences()
}

func LoadCurrentness(root string) (*Currentness, error) {
	return Loader{Root: root, FS: os.DirFS(root)}.Currentness()
}
