package mockserver

import (
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

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The writes of a state file once it is open (state_log.go): a commit
// appends what changed to the log, the requests that change state together
// sharing one sync; a compaction folds a grown log into the snapshot in
// the background; Close folds what is left. persistChanges holds the
// answer of a change until it is on disk.

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
// new snapshot when the store was replaced (or the log could not be made).
func (p *persister) writeChanges() error {
	p.fileMu.Lock()
	defer p.fileMu.Unlock()
	if p.closed {
		return errors.New("the mock is stopping")
	}
	ch := p.store.TakeChanges()
	if ch.Full || p.log == nil {
		// A compaction under way writes an older snapshot: were it to land
		// after this one, the state would go back to before the import.
		p.waitCompactionLocked()
		return p.replaceLocked()
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
	if p.syncedHook != nil {
		p.syncedHook()
	}
	p.logBytes += int64(len(line))
	if p.logBytes > p.compactAt && !p.compacting {
		p.startCompaction()
	}
	return nil
}

// replaceLocked writes the store's whole state as the snapshot of the next
// generation, then removes the logs, which from the rename on are never
// replayed, and starts a new one. The caller holds fileMu and no
// compaction runs. On an error the log is left closed (nil), so that no
// change goes into a log the snapshot may have superseded: the next commit
// tries again.
func (p *persister) replaceLocked() error {
	if p.log != nil {
		p.log.Close()
		p.log = nil
	}
	if err := p.writeSnapshot(p.store.Export(), p.gen+1); err != nil {
		return fmt.Errorf("state file %s: %w", p.path, err)
	}
	p.gen++
	if err := removeLogs(p.path); err != nil {
		return fmt.Errorf("state file %s: %w", p.path, err)
	}
	p.at("logs:removed")
	p.compactStuck = false
	if err := p.createLog(); err != nil {
		return fmt.Errorf("state file %s: %w", logPath(p.path), err)
	}
	return nil
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
// store's state as the snapshot (of the same generation) and removes the
// old log; the caller holds fileMu. Commits go on meanwhile, into a new
// log.
func (p *persister) startCompaction() {
	if p.compactStuck {
		return
	}
	if _, err := os.Stat(oldLogPath(p.path)); err == nil {
		// A compaction failed and its old log holds changes no snapshot
		// has: moving the log over it would lose them. The log grows
		// until Close writes the snapshot (a start replays both).
		p.compactStuck = true
		p.logError("the state log is not compacted until the mock stops",
			fmt.Errorf("%s is left from a compaction that failed", oldLogPath(p.path)))
		return
	}
	p.log.Close()
	p.log = nil
	if err := os.Rename(logPath(p.path), oldLogPath(p.path)); err != nil {
		p.logError("the state log could not be moved aside for compaction", err)
		if f, err := os.OpenFile(logPath(p.path), os.O_WRONLY|os.O_APPEND, 0); err != nil {
			p.logError("the state log could not be reopened; the next change writes the whole state", err)
		} else {
			p.log = f
		}
		return
	}
	p.at("compact:moved")
	if err := p.createLog(); err != nil {
		// The next commit writes the whole state (replaceLocked).
		p.logError("the state log could not be made; the next change writes the whole state", err)
		return
	}
	st, gen := p.store.Export(), p.gen
	p.compacting, p.compacted = true, make(chan struct{})
	hook := p.compactHook
	go func() {
		if hook != nil {
			hook()
		}
		err := p.writeSnapshot(st, gen)
		if err == nil {
			if rerr := os.Remove(oldLogPath(p.path)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				err = rerr
			}
			syncDir(filepath.Dir(resolve(p.path)))
			p.at("compact:old-removed")
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
// leaves no state file behind.
func (p *persister) close() error {
	err := p.commit()
	p.fileMu.Lock()
	defer p.fileMu.Unlock()
	p.waitCompactionLocked()
	if p.closed {
		return err
	}
	p.closed = true
	if p.log != nil {
		p.log.Close()
		p.log = nil
	}
	if err != nil {
		return err // the log keeps what was written; the next start replays it
	}
	_, serr := os.Stat(p.path)
	_, oerr := os.Stat(oldLogPath(p.path)) // left by a compaction that failed
	if p.logBytes > 0 || oerr == nil || errors.Is(serr, fs.ErrNotExist) && !p.store.Pristine() {
		if err := p.writeSnapshot(p.store.Export(), p.gen+1); err != nil {
			return err
		}
		p.gen++
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
