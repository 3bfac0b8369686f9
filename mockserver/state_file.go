package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// StateFileError is an error of Options.StateFile at start: its folder is
// not one the mock can write to, or the file (or its key file) exists but
// does not hold what the mock can load.
type StateFileError struct {
	Path string
	Err  error
}

func (e *StateFileError) Error() string { return "state file " + e.Path + ": " + e.Err.Error() }
func (e *StateFileError) Unwrap() error { return e.Err }

// stateWriteInterval is how long changes gather before the state file is
// written: one write for all of them (group commit), so that a burst of
// requests costs one write, not one each.
const stateWriteInterval = 100 * time.Millisecond

// persister keeps a state file in step with a store (Options.StateFile):
// a change pokes it, and a goroutine writes the newest data once per
// interval at most.
type persister struct {
	path   string
	store  *pricing.Store
	logger *slog.Logger
	poke   chan struct{} // buffered 1: a change since the last write

	mu       sync.Mutex // one write at a time, each of the newest data
	written  uint64     // the store generation last written
	writes   int        // how many times the file was written
	lastTook time.Duration
}

// resolve follows a symlinked state file to the file it names, so that a
// write replaces the target and the link stays a link. A link to a file
// not yet made resolves to where it points.
func resolve(path string) string {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path
	}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		return target
	}
	target, err := os.Readlink(path)
	if err != nil {
		return path
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return target
}

// tempPattern is the name of a state file's temporary files (os.CreateTemp).
func tempPattern(target string) string { return "." + filepath.Base(target) + ".tmp-*" }

// prepareStateDir checks that the state file's folder exists and takes
// files, and removes the temporary files a crash left there.
func prepareStateDir(path string) error {
	target := resolve(path)
	dir := filepath.Dir(target)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &StateFileError{path, fmt.Errorf("the folder %s does not exist", dir)}
	case err != nil:
		return &StateFileError{path, err}
	case !fi.IsDir():
		return &StateFileError{path, fmt.Errorf("%s is not a folder", dir)}
	}
	if fi, err := os.Stat(target); err == nil && fi.IsDir() {
		return &StateFileError{path, errors.New("it is a folder, not a file")}
	}
	probe, err := os.CreateTemp(dir, tempPattern(target))
	if err != nil {
		return &StateFileError{path, fmt.Errorf("the folder %s does not take new files: %v", dir, errors.Unwrap(err))}
	}
	probe.Close()
	os.Remove(probe.Name())
	stale, _ := filepath.Glob(filepath.Join(dir, tempPattern(target)))
	for _, f := range stale {
		os.Remove(f)
	}
	return nil
}

// keyFile is where the secret of a state file's hashes is kept: beside the
// file, never in it, so that the state alone gives no credential away.
func keyFile(path string) string { return resolve(path) + ".key" }

// openSecret checks the state file's folder, then reads the secret of its
// hashes, or makes one (readable by the owner only) when there is none.
func openSecret(path string) (*pricing.Secret, error) {
	if err := prepareStateDir(path); err != nil {
		return nil, err
	}
	kf := keyFile(path)
	b, err := os.ReadFile(kf)
	switch {
	case err == nil:
		secret, err := pricing.ParseSecret([]byte(strings.TrimSpace(string(b))))
		if err != nil {
			return nil, &StateFileError{path, fmt.Errorf("the key file %s: %v", kf, err)}
		}
		return secret, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, &StateFileError{path, fmt.Errorf("the key file %s: %v", kf, errors.Unwrap(err))}
	}
	secret := pricing.NewSecret()
	text, _ := secret.MarshalText()
	if err := writeFileAtomic(kf, append(text, '\n')); err != nil {
		return nil, &StateFileError{path, fmt.Errorf("the key file %s: %v", kf, err)}
	}
	return secret, nil
}

// writeFileAtomic writes a file through a temporary file in its folder,
// synced and renamed over it, then syncs the folder: a crash leaves the old
// file or the new one, never half of one, and a written file survives a
// power cut. The file is readable by its owner only.
func writeFileAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPattern(path))
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// openState loads path into store when the file exists. A file that does not
// hold a valid state is an error; the caller stops, so it is never
// overwritten.
func openState(path string, store *pricing.Store, logger *slog.Logger) (*persister, error) {
	p := &persister{path: path, store: store, logger: logger, poke: make(chan struct{}, 1)}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Written on the first change, or at Close.
		p.written = store.Generation()
		return p, nil
	case err != nil:
		return nil, &StateFileError{path, err}
	}
	st, err := pricing.ParseState(b)
	if err != nil {
		return nil, &StateFileError{path, fmt.Errorf("%v; fix or remove it (it is left as it is)", err)}
	}
	if errs := store.Import(st); len(errs) > 0 {
		msgs := make([]string, 0, len(errs))
		for _, e := range errs[:min(len(errs), 3)] {
			msgs = append(msgs, e.FieldName+": "+e.Message)
		}
		if len(errs) > 3 {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(errs)-3))
		}
		return nil, &StateFileError{path, fmt.Errorf("%s; fix or remove it (it is left as it is)", strings.Join(msgs, "; "))}
	}
	p.written = store.Generation()
	return p, nil
}

// start writes the file after changes until stop is closed: the first
// change after a write waits stateWriteInterval (or twice as long as the
// last write took, for a large file) for others to join it.
func (p *persister) start(stop <-chan struct{}, wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-p.poke:
			}
			p.mu.Lock()
			wait := max(stateWriteInterval, 2*p.lastTook)
			p.mu.Unlock()
			t := time.NewTimer(wait)
			select {
			case <-stop:
				t.Stop()
				return
			case <-t.C:
			}
			if err := p.write(); err != nil && p.logger != nil {
				p.logger.Error("the state file was not written; the next change tries again", slog.String("error", err.Error()))
			}
		}
	}()
}

// changed tells the persister the store changed; it never waits.
func (p *persister) changed() {
	select {
	case p.poke <- struct{}{}:
	default:
	}
}

// flush writes the file now, when the store changed since the last write.
func (p *persister) flush() error { return p.write() }

// write saves the store when it changed since the last write (or the file
// is gone).
func (p *persister) write() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	gen := p.store.Generation()
	if gen == p.written {
		if _, err := os.Stat(p.path); err == nil {
			return nil
		}
	}
	start := time.Now()
	b, err := json.MarshalIndent(p.store.Export(), "", "  ")
	if err != nil {
		return fmt.Errorf("state file %s: %w", p.path, err)
	}
	if err := writeFileAtomic(resolve(p.path), append(b, '\n')); err != nil {
		return fmt.Errorf("state file %s: %w", p.path, err)
	}
	p.written = gen
	p.writes++
	p.lastTook = time.Since(start)
	return nil
}

// persistChanges tells the persister about a request that changed the
// default namespace's store. The file is written soon after, in a batch;
// PUT /__admin/state alone waits for it (adminPutState).
func (s *Server) persistChanges(c *gin.Context) {
	if s.persist == nil || s.nsFor(c) != s.spaces.def {
		c.Next()
		return
	}
	before := s.persist.store.Generation()
	c.Next()
	if s.persist.store.Generation() != before {
		s.persist.changed()
	}
}
