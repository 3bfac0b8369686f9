package mockserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// A state file (Options.StateFile) is, beside it, a log of the changes
// since the snapshot: FILE is the snapshot, the JSON state document people
// read, import and export; FILE.wal the log, a header line and then one
// JSON line per commit (pricing.Changes). A request that changes the
// default namespace is answered only once its change is in the log and the
// log is synced; requests that change state together share one sync (group
// commit). A commit costs what it changed, whatever the size of the state;
// when the log has grown, it is folded into a new snapshot in the
// background, and at Close. On start the snapshot is loaded and the logs
// are replayed over it. FILE.lock is the lock the mock holds for its life
// (state_lock.go), FILE.key the secret of its hashes (state_file.go).
//
// Generations. The snapshot names a generation, and every log begins with
// a header naming the generation of the snapshot its changes go onto; a
// log is replayed only over the snapshot of its generation. Whatever
// replaces the log whole (an import, a reset, the whole state written
// after a commit failed, the fold at start and at Close) writes the
// snapshot of the next generation, renames it in (from then on the file
// holds the new state), and only then removes the logs and starts a new
// one of the new generation: a crash at any instant leaves the old
// snapshot with its logs, or the new snapshot, over which those logs are
// never replayed.
//
// Compaction folds the log into a snapshot of the same generation: it
// renames the log to FILE.wal.old, starts a new log, takes the store's
// state, writes the snapshot and then removes the old log, so that a crash
// at any moment leaves files whose replay (snapshot, old log, log) is the
// state: every change is a record as it stands, and applying one twice
// changes nothing.
//
// The header marks a log as the mock's own: a file under its name that
// does not begin with one is the user's, and the start is refused rather
// than the file folded or removed. A start folds every log it finds, so
// that a line a crash cut short (never synced, never answered) is gone
// before the next change is written.

// logPath and oldLogPath are the log files of the state file at path.
func logPath(path string) string    { return resolve(path) + ".wal" }
func oldLogPath(path string) string { return resolve(path) + ".wal.old" }

// legacyLogPaths are where pricing-mock kept its log before the log had a
// header (FILE.log.old, FILE.log), in the order they are replayed. A start
// reads them only when every line is a change of the mock's and the
// snapshot has no generation yet, folds them and removes them; any other
// file of those names is the user's and is left alone.
func legacyLogPaths(path string) []string {
	t := resolve(path)
	return []string{t + ".log.old", t + ".log"}
}

// logMagic is the header's mark of a log of the mock.
const logMagic = "pricing-mock state log"

// logHeader is the first line of every log.
type logHeader struct {
	Log        string `json:"log"`
	Generation int64  `json:"generation"`
}

func headerLine(gen int64) []byte {
	b, _ := json.Marshal(logHeader{Log: logMagic, Generation: gen})
	return append(b, '\n')
}

// maxHeaderLine bounds what is read of a file to tell whether it is a log.
const maxHeaderLine = 4 << 10

// readHeader reads the header of the log at lp: its generation, and false
// when there is no file. A file without a header is not the mock's: an
// error, and the caller changes nothing.
func readHeader(lp string) (int64, bool, error) {
	f, err := os.Open(lp)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, maxHeaderLine).ReadSlice('\n')
	var h logHeader
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		err = dec.Decode(&h)
	}
	if err != nil || h.Log != logMagic {
		return 0, false, fmt.Errorf("%s is not a log of pricing-mock (it does not begin with the log's header), and the mock keeps its log under that name; "+
			"move the file away (it is left as it is)", lp)
	}
	return h.Generation, true, nil
}

// isLegacyLog reports whether the file at lp is a log of an earlier
// pricing-mock: its first line a change, strictly. A first line that is
// not one (an output log sent there, say) is the user's file.
func isLegacyLog(lp string) (bool, error) {
	f, err := os.Open(lp)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 64<<10).ReadSlice('\n')
	if err != nil || !bytes.Contains(line, []byte(`"next":`)) {
		return false, nil
	}
	var ch pricing.Changes
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	return dec.Decode(&ch) == nil, nil
}

// defaultCompactAt is the size of the log past which it is folded into a
// new snapshot: large enough that a snapshot of a big state is rare, small
// enough that a restart replays it in well under a second.
const defaultCompactAt = 16 << 20

// persister keeps a state file in step with a store.
type persister struct {
	path      string
	store     *pricing.Store
	logger    *slog.Logger
	compactAt int64 // Options.StateCompactBytes
	// compactHook, for the tests, runs in a compaction before it writes
	// the snapshot.
	compactHook func()
	// syncedHook, for the tests, runs after a commit synced the log: a
	// slow disk, so that changes made meanwhile wait to share the next.
	syncedHook func()
	// step, for the tests, is called at each step of the writes of the
	// files, with its name (see at): Options.stateStep.
	step func(name string)

	// Group commit: asked counts the commits requested, synced those on
	// disk; one committer at a time (leading) writes everything changed
	// so far, and the others wait for it.
	mu      sync.Mutex
	cond    *sync.Cond
	asked   uint64
	synced  uint64
	leading bool
	failed  uint64 // commits up to this one failed with failErr
	failErr error
	commits int // syncs of the log or snapshot writes, for the tests

	// fileMu orders the writes of the log and the snapshot.
	fileMu sync.Mutex
	gen    int64    // the generation of the snapshot and of the log
	log    *os.File // nil when it could not be made: the next commit writes the whole state
	// logBytes are the bytes of changes in the log, its header aside.
	logBytes   int64
	compacting bool
	// compactStuck: an old log is left from a failed compaction.
	compactStuck bool
	compacted    chan struct{} // closed when the running compaction ends
	closed       bool
}

// at marks a step of the writes for the tests: "snapshot:written" (the
// new snapshot synced, not yet renamed in), "snapshot:renamed",
// "logs:removed", "log:created", "compact:moved" (the log renamed aside)
// and "compact:old-removed".
func (p *persister) at(name string) {
	if p.step != nil {
		p.step(name)
	}
}

// openState loads the state file into store (the snapshot, then the logs
// of its generation), folds the logs it finds into a new snapshot, and
// starts the log of the changes to come. A file that does not hold a valid
// state, or a file of the user's under the log's name, is an error; the
// caller stops, and the files are left as they are.
func openState(path string, store *pricing.Store, logger *slog.Logger, step func(string)) (*persister, error) {
	p := &persister{path: path, store: store, logger: logger, compactAt: defaultCompactAt, step: step}
	p.cond = sync.NewCond(&p.mu)
	st, err := readSnapshot(path)
	if err != nil {
		return nil, err
	}
	if st != nil {
		p.gen = st.Generation
	}
	// Every log is looked at before anything is replayed or removed.
	replay, legacy, found, err := findLogs(path, p.gen)
	if err != nil {
		return nil, &StateFileError{path, err}
	}
	replayed := 0
	for _, l := range replay {
		n, err := replayLog(l.path, l.header, &st, store)
		if err != nil {
			return nil, &StateFileError{path, err}
		}
		replayed += n
	}
	made, err := importState(path, st, store)
	if err != nil {
		return nil, err
	}
	store.TrackChanges()
	store.TakeChanges() // the import is what the files hold already
	// What the logs held goes into a snapshot of the next generation, and
	// so do the keys made: an app's key may not change with the next
	// crash. A log with nothing to add (a line cut short, a generation
	// superseded) is removed all the same, so that the next change
	// starts a clean log.
	if replayed > 0 || made > 0 {
		if err := p.writeSnapshot(store.Export(), p.gen+1); err != nil {
			return nil, &StateFileError{path, err}
		}
		p.gen++
	}
	if found {
		if err := removeLogs(path, legacy...); err != nil {
			return nil, &StateFileError{path, err}
		}
	}
	if err := p.createLog(); err != nil {
		return nil, &StateFileError{path, err}
	}
	return p, nil
}

// readSnapshot reads the snapshot at path: nil when there is none.
func readSnapshot(path string) (*pricing.State, error) {
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, &StateFileError{path, err}
	}
	st, err := pricing.ParseState(b)
	if err != nil {
		return nil, &StateFileError{path, fmt.Errorf("%v; fix or remove it (it is left as it is)", err)}
	}
	return &st, nil
}

// logFile is a log to replay, and whether it begins with a header.
type logFile struct {
	path   string
	header bool
}

// findLogs finds the logs beside the state file at path, whose snapshot is
// of generation gen: those to replay over it, in order; an earlier mock's
// logs (legacy), replayed and removed with the fold; and whether any log
// of the mock is there (found), to be folded and removed.
func findLogs(path string, gen int64) (replay []logFile, legacy []string, found bool, err error) {
	if gen == 0 {
		for _, lp := range legacyLogPaths(path) {
			ours, err := isLegacyLog(lp)
			if err != nil {
				return nil, nil, false, err
			}
			if ours {
				replay, legacy, found = append(replay, logFile{lp, false}), append(legacy, lp), true
			}
		}
	}
	for _, lp := range []string{oldLogPath(path), logPath(path)} {
		g, ok, err := readHeader(lp)
		if err != nil {
			return nil, nil, false, err
		}
		if ok {
			found = true
			if g == gen { // an older one was superseded by the snapshot
				replay = append(replay, logFile{lp, true})
			}
		}
	}
	return replay, legacy, found, nil
}

// importState imports st, the state of the files (nil: none), into store,
// with a write key made for each app of an export made without the admin
// token used as the file: how many were made.
func importState(path string, st *pricing.State, store *pricing.Store) (int, error) {
	if st == nil {
		return 0, nil
	}
	made, err := newWriteKeys(st)
	if err != nil {
		return 0, &StateFileError{path, err}
	}
	if errs := store.Import(*st); len(errs) > 0 {
		msgs := make([]string, 0, len(errs))
		for _, e := range errs[:min(len(errs), 3)] {
			msgs = append(msgs, e.FieldName+": "+e.Message)
		}
		if len(errs) > 3 {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(errs)-3))
		}
		return 0, &StateFileError{path, fmt.Errorf("%s; fix or remove it (it is left as it is)", strings.Join(msgs, "; "))}
	}
	return made, nil
}

// replayLog applies the changes of the log at lp (after its header line,
// when it has one) to *st (the store's export when there is no snapshot
// yet). A last line that does not end in a newline was cut by a crash
// before its sync, so before any answer; a bad line before the last is an
// error.
func replayLog(lp string, header bool, st **pricing.State, store *pricing.Store) (int, error) {
	f, err := os.Open(lp)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	n := 0
	for line := 1; ; line++ {
		text, err := r.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return n, err
		}
		if len(text) > 0 && text[len(text)-1] != '\n' {
			return n, nil // the last line, cut before its newline: torn
		}
		if line == 1 && header {
			continue
		}
		if len(bytes.TrimSpace(text)) > 0 {
			var ch pricing.Changes
			if jerr := json.Unmarshal(text, &ch); jerr != nil {
				return n, fmt.Errorf("the log %s, line %d: %v; fix or remove it (it is left as it is)", lp, line, jerr)
			}
			if *st == nil {
				exported := store.Export()
				*st = &exported
			}
			(*st).Apply(ch)
			n++
		}
		if err != nil {
			return n, nil // io.EOF
		}
	}
}

// createLog starts an empty log of the current generation: its header is
// written to a temporary file, synced and renamed in, so that a log of the
// mock never exists without one.
func (p *persister) createLog() error {
	lp := logPath(p.path)
	if err := writeFileAtomic(lp, headerLine(p.gen), nil); err != nil {
		return err
	}
	f, err := os.OpenFile(lp, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	p.log, p.logBytes = f, 0
	p.at("log:created")
	return nil
}

// removeLogs deletes the logs (and the earlier mock's ones named in
// legacy), once a snapshot holds what they held or supersedes them.
func removeLogs(path string, legacy ...string) error {
	for _, lp := range append([]string{logPath(path), oldLogPath(path)}, legacy...) {
		if err := os.Remove(lp); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	syncDir(filepath.Dir(resolve(path)))
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// writeSnapshot writes st as the snapshot of generation gen, atomically.
func (p *persister) writeSnapshot(st pricing.State, gen int64) error {
	st.Generation = gen
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(resolve(p.path), append(b, '\n'), func() { p.at("snapshot:written") }); err != nil {
		return err
	}
	p.at("snapshot:renamed")
	return nil
}
