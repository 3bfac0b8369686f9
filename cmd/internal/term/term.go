// Package term tells the commands whether they write to a terminal.
package term

import (
	"io"
	"os"
)

// Is reports whether w is a character device (a terminal), not a pipe, a
// file or a buffer.
func Is(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
