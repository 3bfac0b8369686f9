package mockserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A mock holds an OS lock on its state file for its life (lockState): a
// second mock on the same file would serve the same data beside it, hand
// out the same ids and fold or delete the first one's log. The lock is
// taken on FILE.lock, a file of its own, since the snapshot is replaced by
// renames; it is taken before anything of the state file is read, folded
// or deleted, and the kernel lets go of it when the process ends, however
// it ends. The lock file is never written, so a file of that name is never
// harmed; it is removed when the mock stops.

// lockPath is the lock file of the state file at path.
func lockPath(path string) string { return resolve(path) + ".lock" }

// errLocked is the error of a lock another process holds.
var errLocked = errors.New("locked")

// stateLock is the lock of a state file, held until release.
type stateLock struct {
	path string
	f    *os.File // nil where the platform has no lock (lockFile)
}

// lockState checks that the state file's folder exists, then takes the
// lock of the state file, or fails with a StateFileError saying what holds
// it.
func lockState(path string) (*stateLock, error) {
	target := resolve(path)
	dir := filepath.Dir(target)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &StateFileError{path, fmt.Errorf("the folder %s does not exist", dir)}
	case err != nil:
		return nil, &StateFileError{path, err}
	case !fi.IsDir():
		return nil, &StateFileError{path, fmt.Errorf("%s is not a folder", dir)}
	}
	if fi, err := os.Stat(target); err == nil && fi.IsDir() {
		return nil, &StateFileError{path, errors.New("it is a folder, not a file")}
	}
	lp := lockPath(path)
	f, err := lockFile(lp)
	switch {
	case errors.Is(err, errLocked):
		return nil, &StateFileError{path, fmt.Errorf("another pricing-mock serves it (it holds the lock %s); stop that one, or give this one another file", lp)}
	case err != nil:
		return nil, &StateFileError{path, fmt.Errorf("the folder %s does not take new files: %v", dir, unwrapPath(err))}
	}
	return &stateLock{path: lp, f: f}, nil
}

// unwrapPath is an error without the path an *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// release removes the lock file and lets go of the lock; nil-safe.
func (l *stateLock) release() {
	if l != nil {
		unlockFile(l.f, l.path)
		l.f = nil
	}
}
