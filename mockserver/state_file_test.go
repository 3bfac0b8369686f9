package mockserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Every change is on disk when it is answered, and a
// new server loads it.
func TestStateFilePersists(t *testing.T) {
	t.Parallel()
	s, path := newOnStateFile(t)
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the state file exists before any change: %v", err)
	}
	rename(t, s, "", "Quentin")
	// Answered, so on disk: in the log, before any snapshot.
	b, err := os.ReadFile(logPath(path))
	if err != nil || !strings.Contains(string(b), `"Quentin"`) {
		t.Fatalf("the answered change is not in the log: %v %.300s", err, b)
	}
	if p := s.Profile(); strings.Contains(string(b), p.Password) || strings.Contains(string(b), p.APIKey) {
		t.Errorf("the state log holds a plain secret: %s", b)
	}
	// A change in another namespace is not persisted.
	serve(s, "POST", "/__admin/reset", "", NamespaceHeader, "other")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 2 || entries[0].Name() != "state.json" || entries[1].Name() != "state.json.key" {
		t.Errorf("files beside the state file (temporary files or logs left?): %v; want state.json and its key file", entries)
	}
	// Close folded the log into the snapshot people read.
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), `"Quentin"`) {
		t.Errorf("after Close the snapshot does not hold the change: %v %.300s", err, b)
	}

	wantAfterRestart(t, path, "Quentin")
}

// mustNew is New, the test stopped when it fails.
func mustNew(t testing.TB, o Options) *Server {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newOnStateFile starts a server on a state file of its own, closed when
// the test ends (most tests close it sooner, to read what it left), and
// gives the file's path.
func newOnStateFile(t testing.TB) (*Server, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.json")
	s := mustNew(t, Options{StateFile: path})
	t.Cleanup(func() { s.Close() })
	return s, path
}

// wantAfterRestart starts a server on the state file and checks account
// A's first name.
func wantAfterRestart(t *testing.T, path, want string) {
	t.Helper()
	again := mustNew(t, Options{StateFile: path})
	defer again.Close()
	if got := firstName(t, again, ""); got != want {
		t.Errorf("after a restart on %s firstName %q, want %q", path, got, want)
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

// Finding "--state": every change rewrote and synced the whole file, and
// then changes were written in batches after their answer, so a crash lost
// acknowledged ones. Now a change is appended to the log and synced before
// its answer, and changes made together share one sync.
func TestStateFileGroupCommit(t *testing.T) {
	t.Parallel()
	s, path := newOnStateFile(t)
	// A sync as slow as a disk's: on a fast one every commit could end
	// before the next change is asked, and nothing would be shared.
	s.persist.fileMu.Lock()
	s.persist.syncedHook = func() { time.Sleep(time.Millisecond) }
	s.persist.fileMu.Unlock()
	const writers, each = 16, 20
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for range each {
				if r := serve(s, "POST", "/v1/sessions", `{"email":"qa@example.com","password":"qa-password"}`); r.Code != 200 {
					t.Errorf("login: %d %s", r.Code, r.Body)
				}
			}
		})
	}
	wg.Wait()
	s.persist.mu.Lock()
	commits := s.persist.commits
	s.persist.mu.Unlock()
	if commits < 1 || commits >= writers*each {
		t.Errorf("%d concurrent logins made %d syncs; want fewer syncs than changes", writers*each, commits)
	}
	// Each answered change is in the log already, before any snapshot.
	b, err := os.ReadFile(logPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n") - 1; n < 1 || n > commits { // the header aside
		t.Errorf("the log holds %d lines for %d commits", n, commits)
	}
	rename(t, s, "", "Durable")
	if b, _ := os.ReadFile(logPath(path)); !strings.Contains(string(b), `"Durable"`) {
		t.Errorf("an answered change is not in the log: %.300s", b)
	}
}

// Finding "PUT /__admin/state": the 200 came before the file was written.
// Now an import of the default namespace is on disk when it is answered.
func TestStateFileImportIsOnDiskWhenAnswered(t *testing.T) {
	t.Parallel()
	s, path := newOnStateFile(t)
	doc := `{"users":[{"id":7,"created":"2026-01-01T00:00:00Z","passwordLastChanged":"2026-01-01T00:00:00Z",
	  "email":"dev@example.com","password":"dev-password","apiKeys":["dev-key"],"firstName":"Imported","lastName":"Eloper",
	  "phoneCountryId":1,"phoneNumber":"7700900000","phoneExtension":null,"timezone":"UTC","clientIds":[]}],
	 "clients":[],"apps":[],"sessions":[]}`
	if rec := serve(s, "PUT", "/__admin/state", doc); rec.Code != 200 {
		t.Fatalf("PUT /__admin/state: %d %s", rec.Code, rec.Body)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), `"Imported"`) {
		t.Fatalf("when PUT /__admin/state answered, the file held %.100q (%v)", b, err)
	}
}

// Finding "--state in a missing directory": the mock started and persisted
// nothing. Now New refuses the folder with one line.
func TestStateFileFolderChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "missing", "state.json"): "does not exist",
		filepath.Join(file, "state.json"):           "is not a folder",
		dir:                                         "is a folder",
	} {
		_, err := New(Options{StateFile: path})
		var se *StateFileError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("New with --state %s: %v, want a one-line StateFileError saying %q", path, err, want)
		}
	}
}

// A temporary file a crash left beside the state file is removed at start;
// a symlinked state file is written through, and stays a link.
func TestStateFileTemporaryAndSymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "real", "state.json")
	if err := os.Mkdir(filepath.Dir(target), 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "state.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(filepath.Dir(target), ".state.json.tmp-123456")
	if err := os.WriteFile(stale, []byte("half a state"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := mustNew(t, Options{StateFile: link})
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	rename(t, s, "", "Linked")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the state file is no longer a link: %v %v", fi, err)
	}
	if b, err := os.ReadFile(target); err != nil || !strings.Contains(string(b), `"Linked"`) {
		t.Errorf("the link's target holds %.100q (%v), want the change", b, err)
	}
	wantAfterRestart(t, link, "Linked")
}

// Finding "stored secrets": API keys were unsalted SHA-256 in the file and
// the export. Now neither holds a password, key or token, plain or hashed
// without a key; the secret of the hashes is in a key file of its own,
// readable by its owner only.
func TestStateFileHoldsNoSecret(t *testing.T) {
	t.Parallel()
	s, path := newOnStateFile(t)
	p := s.Profile()
	rec := serve(s, "POST", "/v1/sessions", `{"email":"`+p.Email+`","password":"`+p.Password+`"}`)
	var sess struct{ Token string }
	if err := json.Unmarshal(rec.Body.Bytes(), &sess); rec.Code != 200 || err != nil {
		t.Fatalf("POST /v1/sessions: %d %s", rec.Code, rec.Body)
	}
	export := serve(s, "GET", "/__admin/state", "").Body.String()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Users []struct {
			PasswordSalt string `json:"passwordSalt"`
		} `json:"users"`
	}
	if err := json.Unmarshal(file, &st); err != nil || len(st.Users) == 0 {
		t.Fatalf("the state file: %v", err)
	}
	salt, _ := hex.DecodeString(st.Users[0].PasswordSalt)
	for _, secret := range []string{p.Password, p.APIKey, p.OtherPassword, p.OtherAPIKey, sess.Token} {
		plain := sha256.Sum256([]byte(secret))
		salted := sha256.Sum256(append(slices.Clone(salt), secret...))
		for _, form := range []string{secret, hex.EncodeToString(plain[:]), hex.EncodeToString(salted[:])} {
			for what, doc := range map[string]string{"the state file": string(file), "the export": export} {
				if strings.Contains(doc, form) {
					t.Errorf("%s holds %q (a form of %q)", what, form, secret)
				}
			}
		}
	}
	key, err := os.ReadFile(path + ".key")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(file), strings.TrimSpace(string(key))) || strings.Contains(export, strings.TrimSpace(string(key))) {
		t.Error("the state holds the secret of its hashes")
	}
	if fi, _ := os.Stat(path + ".key"); fi.Mode().Perm() != 0o600 {
		t.Errorf("the key file is %v, want -rw-------", fi.Mode().Perm())
	}
}

// A reset of the --state namespace, like an import, is answered only once
// the file holds it: persistChanges holds admin calls too, or a crash would
// bring the old data back. The mock is not closed here, as a SIGKILL would
// not close it; a new one reads the files.
func TestStateFileResetIsOnDiskWhenAnswered(t *testing.T) {
	t.Parallel()
	plain := mustNew(t, Options{})
	seeded := firstName(t, plain, "")
	plain.Close()

	s, path := newOnStateFile(t)
	rename(t, s, "", "BeforeReset")
	if rec := serve(s, "POST", "/__admin/reset", ""); rec.Code != 200 {
		t.Fatalf("POST /__admin/reset: %d %s", rec.Code, rec.Body)
	}
	wantAfterCrash(t, path, seeded)
	s.Close()
}

var regexpWriteKey = regexp.MustCompile(`^[0-9a-f]{32}$`)

// An export made without the admin token has no write keys; used as the
// state file, it loads, each app gets a key, and the key is on disk before
// the first request: a crash does not change it.
func TestStateFileFromAnExportWithoutWriteKeys(t *testing.T) {
	t.Parallel()
	// The export of a mock on the same key file, whose hashes it takes.
	exporter, path := newOnStateFile(t)
	export := serve(exporter, "GET", "/__admin/state", "")
	exporter.Close()
	if export.Code != 200 || !strings.Contains(export.Body.String(), `"writeKey":""`) {
		t.Fatalf("GET /__admin/state without a token: %d %.300s, want empty write keys", export.Code, export.Body)
	}
	if err := os.WriteFile(path, export.Body.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	keys := func(s *Server) []string {
		var out []string
		for _, a := range s.Store().Export().Apps {
			if !regexpWriteKey.MatchString(a.WriteKey) {
				t.Errorf("app %d has the writeKey %q", a.ID, a.WriteKey)
			}
			out = append(out, a.WriteKey)
		}
		return out
	}
	first, err := New(Options{StateFile: path})
	if err != nil {
		t.Fatalf("an export without write keys as the state file: %v", err)
	}
	made := keys(first)
	// As after a SIGKILL: another mock reads what the files hold.
	again := mustNew(t, Options{StateFile: crashCopy(t, path)})
	if after := keys(again); len(made) == 0 || !slices.Equal(made, after) {
		t.Errorf("write keys %v before a crash, %v after", made, after)
	}
	again.Close()
	first.Close()
}

// An import (or a reset) writes the whole state as the snapshot and empties
// the logs. It once did so while a compaction was writing its older
// snapshot: the compaction's could land last, the logs were then removed,
// and the import, answered 200, was gone with every change since the
// compaction began. Now the import waits for the compaction.
func TestStateFileImportDuringCompaction(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.json")
	s := mustNew(t, Options{StateFile: path, StateCompactBytes: 1})
	defer s.Close()
	started, release := make(chan struct{}), make(chan struct{})
	s.persist.fileMu.Lock()
	s.persist.compactHook = func() {
		close(started)
		<-release
	}
	s.persist.fileMu.Unlock()
	rename(t, s, "", "BeforeImport") // past 1 byte: a compaction starts
	<-started

	doc := `{"users":[{"id":7,"created":"2026-01-01T00:00:00Z","passwordLastChanged":"2026-01-01T00:00:00Z",
	  "email":"dev@example.com","password":"dev-password","apiKeys":["dev-key"],"firstName":"Imported","lastName":"Eloper",
	  "phoneCountryId":1,"phoneNumber":"7700900000","phoneExtension":null,"timezone":"UTC","clientIds":[]}],
	 "clients":[],"apps":[],"sessions":[]}`
	imported := make(chan int)
	go func() { imported <- serve(s, "PUT", "/__admin/state", doc).Code }()
	time.Sleep(50 * time.Millisecond) // the import reaches the state file
	close(release)
	if code := <-imported; code != 200 {
		t.Fatalf("PUT /__admin/state: %d", code)
	}
	// As after a SIGKILL: another mock reads the files.
	again := mustNew(t, Options{StateFile: crashCopy(t, path)})
	defer again.Close()
	st := again.Store().Export()
	if len(st.Users) != 1 || st.Users[0].FirstName != "Imported" {
		t.Errorf("after a crash the state holds %d users, the first %+v; want the import's one", len(st.Users), st.Users[:min(1, len(st.Users))])
	}
}

// failedCompaction returns a mock on the state file at path, which holds a
// snapshot with account A named "Round0", after a compaction that failed
// (its snapshot could not be renamed over the file): the change that
// started it, account A named "Round1", is in the old log only.
func failedCompaction(t *testing.T, path string) *Server {
	t.Helper()
	first := mustNew(t, Options{StateFile: path})
	rename(t, first, "", "Round0")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	s := mustNew(t, Options{StateFile: path, StateCompactBytes: 1})
	calls := 0
	s.persist.fileMu.Lock()
	s.persist.compactHook = func() {
		if calls++; calls > 1 {
			t.Error("a second compaction started while the old log of the failed one was there")
			return
		}
		// A folder where the snapshot goes: its rename fails.
		if err := os.Rename(path, path+".aside"); err != nil {
			t.Error(err)
		}
		if err := os.Mkdir(path, 0o700); err != nil {
			t.Error(err)
		}
	}
	s.persist.fileMu.Unlock()
	rename(t, s, "", "Round1")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		s.persist.fileMu.Lock()
		compacting := s.persist.compacting
		s.persist.fileMu.Unlock()
		if !compacting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the compaction did not end in 10 s")
		}
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".aside", path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(oldLogPath(path)); err != nil {
		t.Fatalf("the failed compaction left no old log: %v", err)
	}
	return s
}

// A compaction that fails leaves its old log, the only place its changes
// are. The next one moved the log over it; now none starts until the mock
// stops, and a start replays both logs.
func TestStateFileFailedCompactionKeepsItsLog(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.json")
	s := failedCompaction(t, path)
	defer s.Close()
	// Another change, past the threshold again.
	if rec := serve(s, "POST", "/v1/sessions", `{"email":"qa@example.com","password":"qa-password"}`); rec.Code != 200 {
		t.Fatalf("login: %d %s", rec.Code, rec.Body)
	}
	wantAfterCrash(t, path, "Round1")
}

// Close after a compaction that failed, with nothing written since: the
// snapshot is written, not left older than the old log it then removes.
func TestStateFileCloseAfterAFailedCompaction(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.json")
	s := failedCompaction(t, path)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wantAfterRestart(t, path, "Round1")
}

// A crash leaves the snapshot and the logs; a start replays them: an old
// log and a log after a compaction that did not finish, and a last line cut
// before its newline (never synced, never answered). A bad line before the
// last is an error, and the files are left as they are.
func TestStateLogReplay(t *testing.T) {
	t.Parallel()
	s, path := newOnStateFile(t)
	s.persist.fileMu.Lock()
	s.persist.compactAt = 2 << 10 // a compaction every few changes
	s.persist.fileMu.Unlock()
	for i := range 40 {
		rename(t, s, "", fmt.Sprintf("Name%02d", i))
	}
	// No Close: the process is gone. What the disk holds must give the
	// last name answered.
	s.persist.fileMu.Lock()
	s.persist.waitCompactionLocked()
	s.persist.fileMu.Unlock()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no snapshot after %d compactions' worth of changes: %v", 40, err)
	}
	crashed := crashCopy(t, path)
	// A write cut by the crash, after the last answered one.
	f, err := os.OpenFile(logPath(crashed), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"users":[{"id":1,"firstName":"Torn`)
	f.Close()
	wantAfterRestart(t, crashed, "Name39")
	if _, err := os.Stat(logPath(crashed)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the replayed log was not folded into the snapshot at start: %v", err)
	}

	bad := filepath.Join(t.TempDir(), "state.json")
	badLog := string(headerLine(0)) + "{not json}\n{\"next\":{}}\n"
	if err := os.WriteFile(logPath(bad), []byte(badLog), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{StateFile: bad}); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a bad line before the last: %v, want an error naming the line", err)
	}
	if b, _ := os.ReadFile(logPath(bad)); string(b) != badLog {
		t.Errorf("the bad log was changed: %q", b)
	}
	s.Close()
}

// filesOf reads every file beside the state file at path (the lock file
// aside), by name.
func filesOf(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == filepath.Base(lockPath(path)) || !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(path), e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// Finding "no lock on the state file": two mocks on one file both served
// it, and a second start folded and deleted the first one's log. Now the
// first holds a lock for its life, and a second start on the file stops
// with one line before it reads, folds or deletes anything.
func TestStateFileLocked(t *testing.T) {
	t.Parallel()
	first, path := newOnStateFile(t)
	rename(t, first, "", "First")
	files := filesOf(t, path)
	link := filepath.Join(filepath.Dir(path), "link.json") // the same file by another name
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, link} {
		second, err := New(Options{StateFile: p})
		var se *StateFileError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "another pricing-mock serves it") || strings.Contains(err.Error(), "\n") {
			if second != nil {
				second.Close()
			}
			t.Fatalf("a second mock on %s: %v, want a one-line StateFileError saying another mock serves it", p, err)
		}
	}
	if after := filesOf(t, path); !maps.Equal(after, files) {
		t.Errorf("the second start changed the files beside the state file:\n%v\nwant\n%v", after, files)
	}
	rename(t, first, "", "StillFirst")
	wantAfterCrash(t, path, "StillFirst")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lockPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file is left after Close: %v", err)
	}
	wantAfterRestart(t, path, "StillFirst") // the lock is free again
}

// Finding "FILE.log is taken to be the mock's own": with --state dev.json
// >> dev.json.log, the user's output log was deleted at shutdown and the
// next start after a crash was refused. The log now has a name and a
// header of its own; a file of the user's under the old name is left
// alone, and one under the new name stops the start, untouched.
func TestStateFileLeavesTheUsersFiles(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.json")
	const output = "pricing-mock listening on http://127.0.0.1:8080 (seed: embedded)\npricing-mock: data kept in state.json\n"
	userLog := resolve(path) + ".log"
	if err := os.WriteFile(userLog, []byte(output), 0o600); err != nil {
		t.Fatal(err)
	}
	s := mustNew(t, Options{StateFile: path})
	rename(t, s, "", "Crashed")
	wantAfterCrash(t, path, "Crashed")
	rename(t, s, "", "Stopped")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wantAfterRestart(t, path, "Stopped")
	if b, err := os.ReadFile(userLog); err != nil || string(b) != output {
		t.Errorf("the user's %s became %q (%v)", userLog, b, err)
	}

	for _, name := range []string{logPath(path), oldLogPath(path)} {
		if err := os.WriteFile(name, []byte(output), 0o600); err != nil {
			t.Fatal(err)
		}
		files := filesOf(t, path)
		_, err := New(Options{StateFile: path})
		if err == nil || !strings.Contains(err.Error(), "is not a log of pricing-mock") || strings.Contains(err.Error(), "\n") {
			t.Errorf("a file of the user's at %s: %v, want a one-line refusal", name, err)
		}
		if after := filesOf(t, path); !maps.Equal(after, files) {
			t.Errorf("the refused start changed the files:\n%v\nwant\n%v", after, files)
		}
		os.Remove(name)
	}
}

// A log an earlier pricing-mock left under FILE.log after a crash (lines
// of changes, no header) is replayed, folded and removed, so that an
// upgrade loses no acknowledged write.
func TestStateFileReadsAnEarlierLog(t *testing.T) {
	t.Parallel()
	s, path := newOnStateFile(t)
	rename(t, s, "", "Earlier")
	crashed := crashCopy(t, path)
	s.Close()
	// The log as an earlier mock wrote it: its lines without the header.
	b, err := os.ReadFile(logPath(crashed))
	if err != nil {
		t.Fatal(err)
	}
	_, lines, _ := strings.Cut(string(b), "\n")
	os.Remove(logPath(crashed))
	if err := os.WriteFile(resolve(crashed)+".log", []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	wantAfterRestart(t, crashed, "Earlier")
	if _, err := os.Stat(resolve(crashed) + ".log"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the earlier log was not removed once folded: %v", err)
	}
}

// Finding "a torn line that is the log's only line survives the next
// start": the next write was glued to it, and after the next crash the
// start was refused (line 1: invalid character). Now a start folds every
// log it finds, so the next write starts a clean log, and a torn last line
// never stops a start.
func TestStateLogTornOnlyLine(t *testing.T) {
	t.Parallel()
	for _, after := range []string{"a start", "an import"} {
		t.Run(after, func(t *testing.T) {
			t.Parallel()
			s, path := newOnStateFile(t)
			want := firstName(t, s, "")
			if after == "an import" {
				export, _ := json.Marshal(s.Store().Export())
				if rec := serve(s, "PUT", "/__admin/state", string(export)); rec.Code != 200 {
					t.Fatalf("PUT /__admin/state: %d %s", rec.Code, rec.Body)
				}
			}
			rename(t, s, "", "Torn") // the first commit of the log, cut below
			crashed := crashCopy(t, path)
			s.Close()
			b, err := os.ReadFile(logPath(crashed))
			if err != nil {
				t.Fatal(err)
			}
			cut := strings.LastIndex(strings.TrimSuffix(string(b), "\n"), "\n") + 1 // where the last line begins
			if !strings.Contains(string(b[cut:]), `"Torn"`) {
				t.Fatalf("the log's last line is not the change: %q", b)
			}
			if err := os.WriteFile(logPath(crashed), b[:cut+(len(b)-cut)/2], 0o600); err != nil {
				t.Fatal(err)
			}
			// The torn change was never answered; the next one is.
			again, err := New(Options{StateFile: crashed})
			if err != nil {
				t.Fatalf("a start on a log whose only line is torn: %v", err)
			}
			if got := firstName(t, again, ""); got != want {
				t.Errorf("after the torn change, firstName %q, want %q", got, want)
			}
			rename(t, again, "", "Acknowledged")
			wantAfterCrash(t, crashed, "Acknowledged")
			again.Close()
		})
	}
}
