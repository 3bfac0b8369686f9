package mockserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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

// prepareStateDir checks that the state file's folder takes files, and
// removes the temporary files a crash left there; lockState has checked
// that the folder exists, and holds the lock, so no other mock is writing
// them.
func prepareStateDir(path string) error {
	target := resolve(path)
	dir := filepath.Dir(target)
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
// The caller holds the state file's lock.
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
	if err := writeFileAtomic(kf, append(text, '\n'), nil); err != nil {
		return nil, &StateFileError{path, fmt.Errorf("the key file %s: %v", kf, err)}
	}
	return secret, nil
}

// writeFileAtomic writes a file through a temporary file in its folder,
// synced and renamed over it, then syncs the folder: a crash leaves the old
// file or the new one, never half of one, and a written file survives a
// power cut. The file is readable by its owner only. beforeRename, when
// set, runs once the temporary file is synced (a step for the tests).
func writeFileAtomic(path string, b []byte, beforeRename func()) error {
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
	if err == nil && beforeRename != nil {
		beforeRename()
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
