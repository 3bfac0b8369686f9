//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package mockserver

import (
	"errors"
	"os"
	"syscall"
)

// lockFile opens (or makes) the file at path and takes an exclusive
// flock on it without waiting: errLocked when another process holds it.
func lockFile(path string) (*os.File, error) {
	for range 10 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, errLocked
			}
			return nil, &os.PathError{Op: "flock", Path: path, Err: err}
		}
		// The mock that held it may have removed the file between the
		// open and the lock (unlockFile): the lock must be on the file
		// the path names now, or a third mock would lock another one.
		held, err1 := f.Stat()
		named, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			return f, nil
		}
		f.Close()
	}
	return nil, errLocked
}

// unlockFile removes the lock file while it is still held, then lets go.
func unlockFile(f *os.File, path string) {
	if f == nil {
		return
	}
	os.Remove(path)
	f.Close()
}
