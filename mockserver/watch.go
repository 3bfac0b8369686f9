package mockserver

import (
	"context"
	"io/fs"
	"log/slog"
	"maps"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// fixtureStamp is what the watcher compares between two polls: each file's
// size and modification time. Polling needs no dependency and works on any
// fs.FS (on the embedded seed nothing ever changes).
type fixtureStamp map[string]struct {
	size int64
	mod  time.Time
}

func stampFixtures(fsys fs.FS) fixtureStamp {
	st := fixtureStamp{}
	// A file that vanishes between the listing and its Info is left out:
	// the next poll sees the difference.
	_ = fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			st[path] = struct {
				size int64
				mod  time.Time
			}{info.Size(), info.ModTime()}
		}
		return nil
	})
	return st
}

// startWatch polls the fixtures until Close.
func (s *Server) startWatch() {
	last := stampFixtures(s.opts.Fixtures)
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		t := time.NewTicker(s.opts.WatchInterval)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				last = s.pollFixtures(last)
			}
		}
	}()
}

// pollFixtures reloads the seed when the fixtures differ from last, and
// returns their new stamp. A change that does not load is logged and
// ignored until the next change.
func (s *Server) pollFixtures(last fixtureStamp) fixtureStamp {
	now := stampFixtures(s.opts.Fixtures)
	if maps.EqualFunc(now, last, func(a, b struct {
		size int64
		mod  time.Time
	}) bool {
		return a.size == b.size && a.mod.Equal(b.mod)
	}) {
		return last
	}
	s.reloadSeed()
	return now
}

// reloadSeed loads the fixtures again. On success it becomes the seed of
// resets and of new namespaces, and every namespace still holding the old
// seed untouched gets the new one. It reports whether the seed loaded.
func (s *Server) reloadSeed() bool {
	seed, err := pricing.LoadSeed(s.opts.Fixtures)
	if err != nil {
		s.log("the changed fixtures do not load; the seed stays as it was", slog.String("error", err.Error()))
		return false
	}
	s.seedMu.Lock()
	s.seed = seed
	s.seedMu.Unlock()
	s.setSeedKind(seed)
	n := 0
	for _, ns := range s.spaces.all() {
		if ns.store.ResetIfPristine(seed) {
			n++
		}
	}
	s.log("fixtures reloaded", slog.Int("namespacesReset", n))
	return true
}

func (s *Server) log(msg string, attrs ...slog.Attr) {
	if s.logger != nil {
		s.logger.LogAttrs(context.Background(), slog.LevelInfo, msg, attrs...)
	}
}
