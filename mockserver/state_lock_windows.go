//go:build windows

package mockserver

import (
	"os"
	"syscall"
)

// errorSharingViolation is ERROR_SHARING_VIOLATION: another handle has the
// file open without sharing it.
const errorSharingViolation = syscall.Errno(32)

// lockFile opens (or makes) the file at path shared with no one: while
// this handle is open no other process can open it, and Windows closes
// the handle when the process ends. errLocked when another holds it.
func lockFile(path string) (*os.File, error) {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, 0, nil,
		syscall.OPEN_ALWAYS, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err == errorSharingViolation {
		return nil, errLocked
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// unlockFile lets go of the file, then removes it (which fails, harmlessly,
// when another mock has opened it meanwhile).
func unlockFile(f *os.File, path string) {
	if f == nil {
		return
	}
	f.Close()
	os.Remove(path)
}
