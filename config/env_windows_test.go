package config

import (
	"path/filepath"
	"testing"
)

// On Windows the index goes to %LocalAppData%\lwr and the configuration
// file to %AppData%\lwr, environment names compare without case, and ~\
// expands to %USERPROFILE%.
func TestWindowsEnvironment(t *testing.T) {
	env := NewEnv([]string{`UserProfile=C:\Users\u`, `LocalAppData=C:\Users\u\AppData\Local`, `APPDATA=C:\Users\u\AppData\Roaming`, `lwr_source_root=G:\マイドライブ\資料`})
	if got := Defaults(env).CacheDir; got != `C:\Users\u\AppData\Local\lwr` {
		t.Errorf("cache dir = %s", got)
	}
	if got := env.ConfigHome(); got != `C:\Users\u\AppData\Roaming` {
		t.Errorf("config home = %s", got)
	}
	if got := Defaults(env).SourceRoot; got != filepath.Join(`C:\Users\u`, "skill-source") {
		t.Errorf("source root = %s", got)
	}
	if v, ok := env.Lookup("LWR_SOURCE_ROOT"); !ok || v != `G:\マイドライブ\資料` {
		t.Errorf("LWR_SOURCE_ROOT = %q, %v", v, ok)
	}
	if got := env.ExpandHome(`~\資料`); got != `C:\Users\u\資料` {
		t.Errorf("~ = %s", got)
	}
	cfg, _, err := Load(Options{Environ: []string{`USERPROFILE=C:\Users\u`, `LOCALAPPDATA=C:\Users\u\AppData\Local`, `Lwr_Search_Max_Files=3`}})
	if err != nil || cfg.Search.MaxFiles != 3 || cfg.CacheDir != `C:\Users\u\AppData\Local\lwr` {
		t.Errorf("Load = %+v, %v", cfg.Search, err)
	}
}
