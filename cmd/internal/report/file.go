package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The files the commands write (reports, coverage, reproducers, replay
// outputs, the profile init writes) could hold what a target answered and,
// were a mask to miss one, a secret. Every one of them is written here, the
// same way:
//
//   - mode 0600, through a temporary file in the same folder renamed over
//     the path at the end: never half written, and never written through
//     a link;
//   - a symbolic link at the path is refused, --force or not: it could
//     point anywhere, a file of another user's included;
//   - an existing file is replaced only when it is one the tools wrote
//     (its Kind's mark in its first KiB: an earlier run's report, say),
//     or empty, or with --force; any other is refused, so that a typo in
//     --report never eats a file. A Kind without a mark (init's profile)
//     replaces no file without --force.

// Kind is a kind of file the tools write, and how one is recognised.
type Kind struct {
	Name string // for messages: "HTML report"
	// Mark is text every file of the kind holds in its first KiB; ""
	// for a kind whose existing files are replaced only with --force.
	Mark string
}

// The kinds of files the commands write.
var (
	HTMLReport    = Kind{"HTML report", `<meta name="generator" content="pricing-contract">`}
	JUnitReport   = Kind{"JUnit report", `<testsuites name="pricing-contract"`}
	CoverageJSON  = Kind{"coverage JSON", `"endpoints": [`}
	ExploreJSON   = Kind{"explorer's coverage JSON", `"cells": `}
	Reproducer    = Kind{"reproducer", "# Written by pricing-contract "}
	ProfileOfInit = Kind{"profile", ""}
)

// headSize is how much of an existing file is read for its Kind's mark.
const headSize = 1 << 10

// Output is a file a command writes at Path.
type Output struct {
	Path  string
	Kind  Kind
	Force bool // --force: replace an existing file of another kind
}

// Check says whether Write can write the file, before a run starts, so
// that a bad path fails in a second rather than after the run. It writes
// nothing at the path.
func (o Output) Check() error {
	if err := o.replaceable(); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(o.Path), "."+filepath.Base(o.Path)+".*.tmp")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// replaceable refuses a path that is a link, no regular file, or a file
// of someone else's.
func (o Output) replaceable() error {
	fi, err := os.Lstat(o.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: refused, a link is never followed (remove it, or give another path)", o.Path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s exists and is no regular file: refused", o.Path)
	case o.Force || fi.Size() == 0:
		return nil
	}
	if o.Kind.Mark != "" {
		f, err := os.Open(o.Path)
		if err != nil {
			return err
		}
		head := make([]byte, headSize)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if bytes.Contains(head[:n], []byte(o.Kind.Mark)) {
			return nil // an earlier run's
		}
		return fmt.Errorf("%s exists and is no %s these tools wrote: refused (--force replaces it)", o.Path, o.Kind.Name)
	}
	return fmt.Errorf("%s exists: refused (--force replaces it)", o.Path)
}

// Write writes the file with write, mode 0600, through a temporary file
// renamed over the path.
func (o Output) Write(write func(io.Writer) error) error {
	if err := o.replaceable(); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(o.Path), "."+filepath.Base(o.Path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o600) // CreateTemp's mode already; said, not assumed
	}
	if err == nil {
		err = os.Rename(tmp, o.Path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// WriteBytes writes b as the file.
func (o Output) WriteBytes(b []byte) error {
	return o.Write(func(w io.Writer) error { _, err := w.Write(b); return err })
}

// In is the file name in dir, refused unless it is one plain name: no
// folder, no "..", no leading dot. The names of reproducers are made from
// what a target answered or a recording held, and must not leave dir.
func In(dir, name string) (string, error) {
	if name == "" || name != filepath.Base(name) || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") || filepath.IsAbs(name) {
		return "", fmt.Errorf("%q is no plain file name: refused, it could leave %s", name, dir)
	}
	return filepath.Join(dir, name), nil
}

// The folders the explorer and the replay write their reproducers to by
// default: a reports folder, which .gitignore lists.
const (
	ExploreDir = "reports/explore"
	ReplayDir  = "reports/replay"
)

// WriteReproducer writes a reproducer's text as the file name in dir
// (created if need be), and returns its path: In refuses a name that would
// leave dir, Output a link or a file of another kind there (unless force).
func WriteReproducer(dir, name, text string, force bool) (string, error) {
	path, err := In(dir, name)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return path, Output{Path: path, Kind: Reproducer, Force: force}.WriteBytes([]byte(text))
}
