//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows)

package mockserver

import "os"

// lockFile takes no lock where the platform has no flock nor exclusive
// open the mock knows (plan9, wasm, solaris, aix): two mocks on one state
// file are not kept apart there.
func lockFile(string) (*os.File, error) { return nil, nil }

func unlockFile(*os.File, string) {}
