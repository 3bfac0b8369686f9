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
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// A state file (Options.StateFile) is two files: the snapshot, the JSON
// state document people read, import and export, and beside it a log of
// the changes since the snapshot, one JSON line each (pricing.Changes). A
// request that changes the default namespace is answered only once its
// change is in the log and the log is synced; requests that change state
// together share one sync (group commit). A commit costs what it changed,
// whatever the size of the state; when the log has grown, it is folded
// into a new snapshot in the background, and at Close. On start the
// snapshot is loaded and the logs are replayed over it: a change appears
// in the log whole or not at all (a torn last line was never answered 200).
//
// Compaction renames the log to path.log.old, takes the store's state,
// writes the snapshot and then removes the old log, so that a crash at any
// moment leaves files whose replay (snapshot, old log, log) is the state:
// every change is a record as it stands, and applying one twice changes
// nothing.

// logPath and oldLogPath are the log files of the state file at path.
func logPath(path string) string    { return resolve(path) + ".log" }
func oldLogPath(path string) string { return resolve(path) + ".log.old" }

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
	fileMu     sync.Mutex
	log        *os.File
	logBytes   int64
	compacting bool
	// compactStuck: an old log is left from a failed compaction.
	compactStuck bool
	compacted    chan struct{} // closed when the running compaction ends
	closed       bool
}

// openState loads the state file into store (the snapshot, then the logs),
// folds a replayed log into a new snapshot, and opens the log for the
// changes to come. A file that does not hold a valid state is an error; the
// caller stops, and the files are left as they are.
func openState(path string, store *pricing.Store, logger *slog.Logger) (*persister, error) {
	p := &persister{path: path, store: store, logger: logger, compactAt: defaultCompactAt}
	p.cond = sync.NewCond(&p.mu)
	var st *pricing.State
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		parsed, err := pricing.ParseState(b)
		if err != nil {
			return nil, &StateFileError{path, fmt.Errorf("%v; fix or remove it (it is left as it is)", err)}
		}
		st = &parsed
	case !errors.Is(err, fs.ErrNotExist):
		return nil, &StateFileError{path, err}
	}
	replayed := 0
	for _, lp := range []string{oldLogPath(path), logPath(path)} {
		n, err := replayLog(lp, &st, store)
		if err != nil {
			return nil, &StateFileError{path, err}
		}
		replayed += n
	}
	made := 0
	if st != nil {
		// An export made without the admin token, used as the file.
		if made, err = newWriteKeys(st); err != nil {
			return nil, &StateFileError{path, err}
		}
		if errs := store.Import(*st); len(errs) > 0 {
			msgs := make([]string, 0, len(errs))
			for _, e := range errs[:min(len(errs), 3)] {
				msgs = append(msgs, e.FieldName+": "+e.Message)
			}
			if len(errs) > 3 {
				msgs = append(msgs, fmt.Sprintf("and %d more", len(errs)-3))
			}
			return nil, &StateFileError{path, fmt.Errorf("%s; fix or remove it (it is left as it is)", strings.Join(msgs, "; "))}
		}
	}
	store.TrackChanges()
	store.TakeChanges() // the import is what the files hold already
	// The keys made are written at once: an app's key may not change
	// with the next crash.
	if replayed > 0 || made > 0 {
		if err := p.writeSnapshot(store.Export()); err != nil {
			return nil, &StateFileError{path, err}
		}
		if err := removeLogs(path); err != nil {
			return nil, &StateFileError{path, err}
		}
	}
	if err := p.openLog(); err != nil {
		return nil, &StateFileError{path, err}
	}
	return p, nil
}

// replayLog applies the changes of the log at lp to *st (the store's
// export when there is no snapshot yet). A last line that does not parse
// was cut by a crash before its sync, so before any answer; a bad line
// before the last is an error.
func replayLog(lp string, st **pricing.State, store *pricing.Store) (int, error) {
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
		if len(bytes.TrimSpace(text)) > 0 {
			var ch pricing.Changes
			if jerr := json.Unmarshal(text, &ch); jerr != nil || err != nil && !errors.Is(err, io.EOF) {
				if errors.Is(err, io.EOF) || text[len(text)-1] != '\n' {
					return n, nil // torn: never synced, never answered
				}
				return n, fmt.Errorf("the log %s, line %d: %v; fix or remove it (it is left as it is)", lp, line, jerr)
			}
			if text[len(text)-1] != '\n' {
				return n, nil // the last line, cut before its newline
			}
			if *st == nil {
				exported := store.Export()
				*st = &exported
			}
			(*st).Apply(ch)
			n++
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			return n, err
		}
	}
}

// openLog opens the log for appending.
func (p *persister) openLog() error {
	f, err := os.OpenFile(logPath(p.path), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	syncDir(filepath.Dir(logPath(p.path)))
	p.log, p.logBytes = f, fi.Size()
	return nil
}

// removeLogs deletes both logs, once a snapshot holds what they held.
func removeLogs(path string) error {
	for _, lp := range []string{logPath(path), oldLogPath(path)} {
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

// writeSnapshot writes st as the snapshot, atomically.
func (p *persister) writeSnapshot(st pricing.State) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(resolve(p.path), append(b, '\n'))
}

// commit returns once every change made to the store before it was called
// is on disk: it writes them itself, or waits for the commit under way and,
// if that began before this one was asked, for the next.
func (p *persister) commit() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked++
	my := p.asked
	for p.synced < my {
		if p.failed >= my {
			return p.failErr
		}
		if p.leading {
			p.cond.Wait()
			continue
		}
		p.leading = true
		target := p.asked
		p.mu.Unlock()
		err := p.writeChanges()
		p.mu.Lock()
		p.leading = false
		if err != nil {
			p.failed, p.failErr = target, err
			// What it took is not on disk: the next commit writes it all.
			p.store.ForgetTaken()
		} else {
			p.synced = target
		}
		p.commits++
		p.cond.Broadcast()
	}
	return nil
}

// writeChanges appends what changed to the log and syncs it, or writes a
// new snapshot when the store was replaced.
func (p *persister) writeChanges() error {
	p.fileMu.Lock()
	defer p.fileMu.Unlock()
	if p.closed {
		return errors.New("the mock is stopping")
	}
	ch := p.store.TakeChanges()
	if ch.Full {
		// A compaction under way writes an older snapshot: were it to land
		// after this one, the logs removed below would take the import
		// (or reset) with them.
		p.waitCompactionLocked()
		if err := p.writeSnapshot(p.store.Export()); err != nil {
			return fmt.Errorf("state file %s: %w", p.path, err)
		}
		return p.truncateLogsLocked()
	}
	if ch.Empty() {
		return nil
	}
	line, err := json.Marshal(ch)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if _, err := p.log.Write(line); err != nil {
		return fmt.Errorf("state file %s: %w", logPath(p.path), err)
	}
	if err := p.log.Sync(); err != nil {
		return fmt.Errorf("state file %s: %w", logPath(p.path), err)
	}
	p.logBytes += int64(len(line))
	if p.logBytes > p.compactAt && !p.compacting {
		p.startCompaction()
	}
	return nil
}

// truncateLogsLocked empties the log after a snapshot that holds it all;
// the caller holds fileMu and no compaction runs.
func (p *persister) truncateLogsLocked() error {
	p.waitCompactionLocked()
	p.log.Close()
	if err := removeLogs(p.path); err != nil {
		return err
	}
	p.compactStuck = false
	return p.openLog()
}

// waitCompactionLocked waits for a compaction under way to finish, letting
// go of fileMu meanwhile.
func (p *persister) waitCompactionLocked() {
	for p.compacting {
		done := p.compacted
		p.fileMu.Unlock()
		<-done
		p.fileMu.Lock()
	}
}

// startCompaction moves the log aside and, in the background, writes the
// store's state as the snapshot and removes the old log; the caller holds
// fileMu. Commits go on meanwhile, into a new log.
func (p *persister) startCompaction() {
	if p.compactStuck {
		return
	}
	if _, err := os.Stat(oldLogPath(p.path)); err == nil {
		// A compaction failed and its old log holds changes no snapshot
		// has: moving the log over it would lose them. The log grows
		// until Close writes the snapshot (a start replays both).
		if !p.compactStuck {
			p.compactStuck = true
			p.logError("the state log is not compacted until the mock stops",
				fmt.Errorf("%s is left from a compaction that failed", oldLogPath(p.path)))
		}
		return
	}
	p.log.Close()
	if err := os.Rename(logPath(p.path), oldLogPath(p.path)); err != nil {
		p.logError("the state log could not be moved aside for compaction", err)
		if err := p.openLog(); err != nil {
			p.logError("the state log could not be reopened", err)
		}
		return
	}
	if err := p.openLog(); err != nil {
		p.logError("the state log could not be reopened", err)
		return
	}
	st := p.store.Export()
	p.compacting, p.compacted = true, make(chan struct{})
	hook := p.compactHook
	go func() {
		if hook != nil {
			hook()
		}
		err := p.writeSnapshot(st)
		if err == nil {
			if rerr := os.Remove(oldLogPath(p.path)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				err = rerr
			}
			syncDir(filepath.Dir(resolve(p.path)))
		}
		if err != nil {
			p.logError("the state snapshot was not written; the logs keep every change", err)
		}
		p.fileMu.Lock()
		p.compacting = false
		close(p.compacted)
		p.fileMu.Unlock()
	}()
}

func (p *persister) logError(msg string, err error) {
	if p.logger != nil {
		p.logger.Error(msg, slog.String("error", err.Error()))
	}
}

// close commits what is left and folds the log into the snapshot, so that
// the file people read holds everything; a mock that changed nothing
// leaves no file behind.
func (p *persister) close() error {
	err := p.commit()
	p.fileMu.Lock()
	defer p.fileMu.Unlock()
	p.waitCompactionLocked()
	if p.closed {
		return err
	}
	p.closed = true
	p.log.Close()
	if err != nil {
		return err // the log keeps what was written; the next start replays it
	}
	_, serr := os.Stat(p.path)
	_, oerr := os.Stat(oldLogPath(p.path)) // left by a compaction that failed
	if p.logBytes > 0 || oerr == nil || errors.Is(serr, fs.ErrNotExist) && !p.store.Pristine() {
		if err := p.writeSnapshot(p.store.Export()); err != nil {
			return err
		}
	}
	return removeLogs(p.path)
}

// persistChanges holds the answer of a request that may change the default
// namespace's store until its change is on disk: a 200 is never sent for a
// change a crash could lose. A change that cannot be written is answered
// 503 instead. Reads pass straight through.
func (s *Server) persistChanges(c *gin.Context) {
	if s.persist == nil || s.nsFor(c) != s.spaces.def || c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead {
		c.Next()
		return
	}
	before := s.persist.store.Generation()
	held := &heldWriter{ResponseWriter: c.Writer, status: http.StatusOK}
	c.Writer = held
	c.Next()
	c.Writer = held.ResponseWriter
	if s.persist.store.Generation() != before {
		if err := s.persist.commit(); err != nil {
			s.log("a change could not be written to the state file", slog.String("error", err.Error()))
			for k := range c.Writer.Header() {
				c.Writer.Header().Del(k)
			}
			writeErrors(c, pricing.CodeUnavailable.Status(), []pricing.FieldError{{Error: pricing.CodeUnavailable,
				Message: "The change was made but could not be saved to the state file (" + err.Error() + "); it may be lost when the mock stops."}})
			return
		}
	}
	held.release()
}

// heldWriter keeps an answer until release.
type heldWriter struct {
	gin.ResponseWriter
	status  int
	written bool
	body    bytes.Buffer
}

func (w *heldWriter) WriteHeader(code int) {
	if !w.written {
		w.status = code
	}
}
func (w *heldWriter) WriteHeaderNow()             { w.written = true }
func (w *heldWriter) Write(b []byte) (int, error) { w.written = true; return w.body.Write(b) }
func (w *heldWriter) WriteString(s string) (int, error) {
	w.written = true
	return w.body.WriteString(s)
}
func (w *heldWriter) Status() int                 { return w.status }
func (w *heldWriter) Size() int                   { return w.body.Len() }
func (w *heldWriter) Written() bool               { return w.written }
func (w *heldWriter) Flush()                      {}
func (w *heldWriter) Pusher() http.Pusher         { return nil }
func (w *heldWriter) CloseNotify() <-chan bool    { return make(chan bool) }
func (w *heldWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
func (w *heldWriter) ReadFrom(r io.Reader) (int64, error) {
	w.written = true
	return w.body.ReadFrom(r)
}

// release sends the held answer.
func (w *heldWriter) release() {
	w.ResponseWriter.WriteHeader(w.status)
	w.ResponseWriter.WriteHeaderNow()
	if w.body.Len() > 0 {
		w.ResponseWriter.Write(w.body.Bytes())
	}
}
