package mockserver

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// stateNames is what TestStateFileCrashAtEveryStep reads of a state:
// accounts A's and B's first names ("" when the user is gone) and whether
// the imported user 7 is there.
type stateNames struct {
	a, b     string
	imported bool
}

func (n stateNames) String() string {
	return fmt.Sprintf("{A %q, B %q, imported %v}", n.a, n.b, n.imported)
}

// namesAfterRestart starts a mock on the state file at path and reads its
// names.
func namesAfterRestart(path string) (stateNames, error) {
	s, err := New(Options{StateFile: path})
	if err != nil {
		return stateNames{}, err
	}
	defer s.Close()
	var n stateNames
	for _, u := range s.Store().Export().Users {
		switch u.ID {
		case 1:
			n.a = u.FirstName
		case 2:
			n.b = u.FirstName
		case 7:
			n.imported = true
		}
	}
	return n, nil
}

// renameB changes account B's first name through the API.
func renameB(t *testing.T, s *Server, firstName string) {
	t.Helper()
	p := s.Profile()
	body := `{"email":` + strconv.Quote(p.OtherEmail) + `,"firstName":` + strconv.Quote(firstName) + `,"lastName":"Other",` +
		`"timezone":"Europe/London","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"password":null}`
	if rec := serve(s, "PUT", "/v1/users/2", body, "Authorization", "api-key "+p.OtherAPIKey); rec.Code != 200 {
		t.Fatalf("PUT /v1/users/2: %d %s", rec.Code, rec.Body)
	}
}

const importedDoc = `{"users":[{"id":7,"created":"2026-01-01T00:00:00Z","passwordLastChanged":"2026-01-01T00:00:00Z",
  "email":"dev@example.com","password":"dev-password","apiKeys":["dev-key"],"firstName":"Imported","lastName":"Eloper",
  "phoneCountryId":1,"phoneNumber":"7700900000","phoneExtension":null,"timezone":"UTC","clientIds":[]}],
 "clients":[],"apps":[],"sessions":[]}`

// Finding "an import or reset killed right after its snapshot is renamed
// in comes back as a mix of old and new": the log from before the import
// was replayed over the new snapshot. Each case plays a SIGKILL at every
// step of the writes of the files (crashCopy, at each persister.at), and
// every restart must hold one of the states the operation goes through, in
// order, never a mix, and every change answered before the step. The state
// before holds A's change in the snapshot and B's in the log, so that a
// log replayed over a snapshot that replaced it shows.
func TestStateFileCrashAtEveryStep(t *testing.T) {
	t.Parallel()
	plain := mustNew(t, Options{})
	seedA, seedB := firstName(t, plain, ""), plain.Store().Export().Users[1].FirstName
	plain.Close()
	before := stateNames{a: "Folded", b: "Logged"}
	cases := []struct {
		name string
		// op runs the operation; it has been answered when op returns.
		op func(t *testing.T, s *Server)
		// states are those a crash may leave, in the order the operation
		// goes through them; the last is the state once it is answered.
		states []stateNames
		steps  []string // steps the operation must pass
	}{
		{"import", func(t *testing.T, s *Server) {
			if rec := serve(s, "PUT", "/__admin/state", importedDoc); rec.Code != 200 {
				t.Fatalf("PUT /__admin/state: %d %s", rec.Code, rec.Body)
			}
		}, []stateNames{before, {imported: true}}, []string{"snapshot:written", "snapshot:renamed", "logs:removed", "log:created"}},
		{"reset", func(t *testing.T, s *Server) {
			if rec := serve(s, "POST", "/__admin/reset", ""); rec.Code != 200 {
				t.Fatalf("POST /__admin/reset: %d %s", rec.Code, rec.Body)
			}
		}, []stateNames{before, {a: seedA, b: seedB}}, []string{"snapshot:written", "snapshot:renamed", "logs:removed", "log:created"}},
		{"compaction, with a change while it writes", func(t *testing.T, s *Server) {
			s.persist.fileMu.Lock()
			s.persist.compactAt = 1
			s.persist.compactHook = func() { renameB(t, s, "During") }
			s.persist.fileMu.Unlock()
			rename(t, s, "", "Compacted") // its commit starts the compaction
			s.persist.fileMu.Lock()
			s.persist.waitCompactionLocked()
			s.persist.fileMu.Unlock()
		}, []stateNames{before, {a: "Compacted", b: "Logged"}, {a: "Compacted", b: "During"}},
			[]string{"compact:moved", "log:created", "snapshot:written", "snapshot:renamed", "compact:old-removed"}},
		{"close", func(t *testing.T, s *Server) {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}, []stateNames{before}, []string{"snapshot:written", "snapshot:renamed"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := setUpBefore(t)
			var (
				recording atomic.Bool
				mu        sync.Mutex
				steps     []string
				copies    []string
			)
			s, err := New(Options{StateFile: path, stateStep: func(name string) {
				if recording.Load() {
					c := crashCopy(t, path)
					mu.Lock()
					steps, copies = append(steps, name), append(copies, c)
					mu.Unlock()
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			renameB(t, s, "Logged")
			steps, copies = append(steps, "before"), append(copies, crashCopy(t, path))
			recording.Store(true)
			tc.op(t, s)
			recording.Store(false)
			steps, copies = append(steps, "answered"), append(copies, crashCopy(t, path))
			for _, want := range tc.steps {
				if !slices.Contains(steps, want) {
					t.Errorf("the operation did not pass the step %s (steps %v)", want, steps)
				}
			}
			reached := 0
			for i, c := range copies {
				got, err := namesAfterRestart(c)
				if err != nil {
					t.Errorf("killed at %s: the restart failed: %v", steps[i], err)
					continue
				}
				at := slices.Index(tc.states, got)
				switch {
				case at < 0:
					t.Errorf("killed at %s: the restart holds %v, a mix: want one of %v", steps[i], got, tc.states)
				case at < reached:
					t.Errorf("killed at %s: the restart holds %v, a state from before the one a crash before it left (%v)", steps[i], got, tc.states[reached])
				default:
					reached = at
				}
			}
			if reached != len(tc.states)-1 {
				t.Errorf("once answered, a restart holds %v, want %v", tc.states[reached], tc.states[len(tc.states)-1])
			}
			t.Logf("%d steps, each restarted: %v", len(steps), steps)
		})
	}

	// The fold at start: the snapshot and the log of a crash, folded.
	t.Run("start", func(t *testing.T) {
		t.Parallel()
		path := setUpBefore(t)
		s := mustNew(t, Options{StateFile: path})
		renameB(t, s, "Logged")
		crashed := crashCopy(t, path)
		s.Close()
		var steps []string
		again, err := New(Options{StateFile: crashed, stateStep: func(name string) {
			steps = append(steps, name)
			if got, err := namesAfterRestart(crashCopy(t, crashed)); err != nil || got != before {
				t.Errorf("killed at %s of the start: %v %v, want %v", name, got, err, before)
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		again.Close()
		if !slices.Contains(steps, "snapshot:renamed") || !slices.Contains(steps, "log:created") {
			t.Errorf("the start did not fold the log: steps %v", steps)
		}
	})
}

// setUpBefore makes a state file whose snapshot holds account A named
// "Folded" (a mock changed it and stopped), and returns its path.
func setUpBefore(t *testing.T) string {
	t.Helper()
	s, path := newOnStateFile(t)
	rename(t, s, "", "Folded")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
