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

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// StateFileError is an error of Options.StateFile at start: the file
// exists but does not hold a state the mock can load.
type StateFileError struct {
	Path string
	Err  error
}

func (e *StateFileError) Error() string { return "state file " + e.Path + ": " + e.Err.Error() }
func (e *StateFileError) Unwrap() error { return e.Err }

// persister keeps a state file in step with a store (Options.StateFile).
type persister struct {
	path   string
	store  *pricing.Store
	logger *slog.Logger

	mu      sync.Mutex // one write at a time, each of the newest data
	written uint64     // the store generation last written
}

// openState loads path into store when the file exists. A file that does not
// hold a valid state is an error; the caller stops, so it is never
// overwritten.
func openState(path string, store *pricing.Store, logger *slog.Logger) (*persister, error) {
	p := &persister{path: path, store: store, logger: logger}
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

// write saves the store when it changed since the last write: a temporary
// file in the same folder, renamed over the old one, so that a crash leaves
// the old file or the new one, never half of one.
func (p *persister) write() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	gen := p.store.Generation()
	if gen == p.written {
		if _, err := os.Stat(p.path); err == nil {
			return nil
		}
	}
	b, err := json.MarshalIndent(p.store.Export(), "", "  ")
	if err != nil {
		return fmt.Errorf("state file %s: %w", p.path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p.path), "."+filepath.Base(p.path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("state file %s: %w", p.path, err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("state file %s: %w", p.path, err)
	}
	p.written = gen
	return nil
}

// persistChanges writes the state file after a request that changed the
// default namespace's store, before the answer leaves: when a client has
// its answer, the change is on disk.
func (s *Server) persistChanges(c *gin.Context) {
	if s.persist == nil || s.nsFor(c) != s.spaces.def {
		c.Next()
		return
	}
	before := s.persist.store.Generation()
	c.Next()
	if s.persist.store.Generation() == before {
		return
	}
	if err := s.persist.write(); err != nil && s.logger != nil {
		s.logger.Error("the state file was not written", slog.String("error", err.Error()))
	}
}
