package mockserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// crashCopy copies the files of the state file at path, as they are at
// this instant, to a new folder and returns the state file's path there:
// what a SIGKILL now would leave, since a killed process loses nothing it
// wrote to a file. The lock file stays behind, as the kernel lets go of a
// killed process's lock, and so do the temporary files, which a start
// removes.
func crashCopy(t testing.TB, path string) string {
	t.Helper()
	target := resolve(path)
	dir := t.TempDir()
	entries, err := os.ReadDir(filepath.Dir(target))
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(target)
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, base) || name == base+".lock" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(target), name))
		if os.IsNotExist(err) {
			continue // removed meanwhile
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, base)
}

// wantAfterCrash checks account A's first name after a restart on what a
// crash now would leave of the state file; the mock on path goes on.
func wantAfterCrash(t *testing.T, path, want string) {
	t.Helper()
	wantAfterRestart(t, crashCopy(t, path), want)
}
