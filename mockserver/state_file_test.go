package mockserver

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitForFile waits until the file at path holds want, the interval of the
// batched writes being one tenth of a second; it gives up after 10 s.
func waitForFile(t *testing.T, path, want string) []byte {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(b), want) {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s the state file holds %.200q (%v), want %q in it", b, err, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Every change reaches the file, in a batch soon after its answer, and a
// new server loads it.
func TestStateFilePersists(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.json")
	s, err := New(Options{StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the state file exists before any change: %v", err)
	}
	if rec := serve(s, "PUT", "/v1/users/1", putA(s, "Quentin"), asA(s)...); rec.Code != 200 {
		t.Fatalf("PUT: %d %s", rec.Code, rec.Body)
	}
	b := waitForFile(t, path, `"Quentin"`)
	if p := s.Profile(); strings.Contains(string(b), p.Password) || strings.Contains(string(b), p.APIKey) {
		t.Errorf("the state file holds a plain secret: %s", b)
	}
	// A change in another namespace is not persisted.
	serve(s, "POST", "/__admin/reset", "", NamespaceHeader, "other")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 2 || entries[0].Name() != "state.json" || entries[1].Name() != "state.json.key" {
		t.Errorf("files beside the state file (temporary files left?): %v; want state.json and its key file", entries)
	}

	again, err := New(Options{StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := firstName(t, again, ""); got != "Quentin" {
		t.Errorf("after a restart firstName %q, want Quentin", got)
	}
}

// A file that is not a valid state stops New, and is left as it was.
func TestStateFileCorrupt(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"not JSON":      `{"users": [`,
		"empty":         ``,
		"unknown field": `{"people": []}`,
		"bad reference": `{"users":[],"clients":[],"sessions":[],"apps":[{"id":1,"created":"2026-01-01T00:00:00Z","clientId":9,"name":"X","platformId":1,"planId":1,"marketappHash":null,"writeKey":"00000000000000000000000000000000"}]}`,
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "state.json")
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := New(Options{StateFile: path})
			var se *StateFileError
			if !errors.As(err, &se) || se.Path != path || strings.Contains(err.Error(), "\n") {
				t.Fatalf("New: %v, want a one-line StateFileError for %s", err, path)
			}
			if b, _ := os.ReadFile(path); string(b) != content {
				t.Errorf("the corrupt file was changed to %q", b)
			}
		})
	}
}
