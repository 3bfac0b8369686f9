package mockserver

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/fixtures"
)

// firstName reads account A's first name in a namespace through the API.
func firstName(t *testing.T, s *Server, ns string) string {
	t.Helper()
	rec := serve(s, "GET", "/v1/users/1", "", append(asA(s), NamespaceHeader, ns)...)
	var u struct{ FirstName string }
	if err := json.Unmarshal(rec.Body.Bytes(), &u); err != nil || rec.Code != 200 {
		t.Fatalf("GET /v1/users/1 in %q: %d %s", ns, rec.Code, rec.Body)
	}
	return u.FirstName
}

func editFixture(t *testing.T, dir, name, old, new string) {
	t.Helper()
	p := filepath.Join(dir, name)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s does not contain %q", name, old)
	}
	if err := os.WriteFile(p, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A change to the fixtures reloads the seed: untouched namespaces get it,
// changed ones keep their data; a broken change is logged and ignored.
func TestWatchReloadsTheSeed(t *testing.T) {
	t.Parallel()
	dir := seedCopy(t)
	var logs bytes.Buffer
	s := mustNew(t, Options{Fixtures: os.DirFS(dir), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	stamp := stampFixtures(s.opts.Fixtures)
	firstName(t, s, "untouched") // created from the old seed
	if rec := serve(s, "PUT", "/v1/users/1", putA(s, "Mine"), append(asA(s), NamespaceHeader, "changed")...); rec.Code != 200 {
		t.Fatalf("PUT in namespace changed: %d %s", rec.Code, rec.Body)
	}
	if got := s.pollFixtures(stamp); len(got) != len(stamp) {
		t.Fatalf("no change yet, but the stamp changed: %v", got)
	}

	editFixture(t, dir, "users.json", `"Quinn"`, `"Quentin"`)
	stamp = s.pollFixtures(stamp)
	for ns, want := range map[string]string{"": "Quentin", "untouched": "Quentin", "changed": "Mine", "new": "Quentin"} {
		if got := firstName(t, s, ns); got != want {
			t.Errorf("namespace %q after the reload: firstName %q, want %q", ns, got, want)
		}
	}

	editFixture(t, dir, "users.json", `"Quentin"`, `"Quentin`) // no longer JSON
	stamp = s.pollFixtures(stamp)
	if !strings.Contains(logs.String(), "users.json") {
		t.Errorf("the broken fixture is not logged: %s", logs.String())
	}
	if got := firstName(t, s, ""); got != "Quentin" {
		t.Errorf("after a broken change: firstName %q, want Quentin kept", got)
	}
	serve(s, "POST", "/__admin/reset", "")
	if got := firstName(t, s, ""); got != "Quentin" {
		t.Errorf("a reset after a broken change: firstName %q, want the last good seed's Quentin", got)
	}

	editFixture(t, dir, "users.json", `"Quentin`, `"Quincy"`)
	s.pollFixtures(stamp)
	if got := firstName(t, s, ""); got != "Quincy" {
		t.Errorf("after the fix: firstName %q, want Quincy", got)
	}
}

// With Watch, Close stops the poller (the race detector and the test's end
// would report a goroutine touching a finished test's server).
func TestWatchStopsOnClose(t *testing.T) {
	t.Parallel()
	dir := seedCopy(t)
	s := mustNew(t, Options{Fixtures: os.DirFS(dir), Watch: true})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

// The catalogue answers, encoded once per seed, follow a reload: a store on
// the new seed answers the new catalogues, one that kept the old seed the
// old ones, each as often as asked.
func TestCatalogueAnswersFollowTheSeed(t *testing.T) {
	t.Parallel()
	dir := seedCopy(t)
	s := mustNew(t, Options{Fixtures: os.DirFS(dir)})
	platforms := func(ns string) string {
		t.Helper()
		rec := serve(s, "GET", "/v1/platforms", "", NamespaceHeader, ns)
		if rec.Code != 200 {
			t.Fatalf("GET /v1/platforms in %q: %d %s", ns, rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	old := platforms("")
	rename(t, s, "changed", "Kept")
	editFixture(t, dir, "platforms.json", `"2024-01-01T00:00:00Z"`, `"2025-06-01T00:00:00Z"`)
	if !s.reloadSeed() {
		t.Fatal("the edited fixtures did not load")
	}
	for range 2 {
		if got := platforms(""); got == old || !strings.Contains(got, "2025-06-01T00:00:00Z") {
			t.Errorf("the default namespace after the reload answers %s", got)
		}
		if got := platforms("changed"); got != old {
			t.Errorf("a namespace that kept the old seed answers %s, want %s", got, old)
		}
	}
}

// seedCopy is a folder of the test's own that holds a copy of the default
// seed.
func seedCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, fixtures.Seed()); err != nil {
		t.Fatal(err)
	}
	return dir
}
