package replay

import (
	"fmt"
	"io"
)

// A recording is a file a user hands over, from any browser or mock: as
// input it is hostile until read. It is read as it streams, never whole,
// within these bounds, and refused (exit 2) at the first entry past one:

const (
	// maxEntries is the most requests a recording holds: a frontend's
	// session of a few thousand, many times over.
	maxEntries = 20_000
	// maxString is the longest string of a recording kept: a longer one is
	// cut there, as it streams, and its request marked truncated (a body
	// over 1 MiB is no request of the API: the mock refuses it 413).
	maxString = 1 << 20
	// maxEntryJSON is the most JSON one entry of a recording (or any value
	// beside the entries) takes once its strings are cut.
	maxEntryJSON = 8 << 20
	// maxToken is the longest number or other literal of a recording.
	maxToken = 1 << 10
	// maxKept is the most bytes of bodies and answers kept, of the requests
	// that name the API (a path like /v1/users/1); the others keep their
	// method, address, status, type and secrets only (they are listed and
	// skipped, never sent).
	maxKept = 64 << 20
	// readChunk is the most a read of the recording passes on at once, so
	// that the decoder's look-ahead past an entry stays small.
	readChunk = 64 << 10
)

// recordingBounds says the bounds in words, for --help and errors.
var recordingBounds = fmt.Sprintf("%d requests, %d MiB of an entry's JSON, %d MiB of bodies of the API's requests, strings cut at %d MiB",
	maxEntries, maxEntryJSON>>20, maxKept>>20, maxString>>20)

// cutReader passes a JSON text on as it streams, with every string longer
// than maxString cut there (its closing quote kept) and every run of spaces
// made one, so that what a decoder buffers of one value is bounded by its
// structure rather than by the file. It counts what it passed on since
// mark, and fails past maxEntryJSON.
type cutReader struct {
	r   io.Reader
	buf []byte // read, not yet passed on
	off int
	err error

	inString, escape, space bool
	hex                     int   // hex digits of a \u escape still to come
	strLen                  int   // bytes of the current string passed on
	cutting                 bool  // dropping the rest of a string
	cut                     bool  // a string was cut since mark
	tokLen                  int   // bytes of the current literal outside strings
	since                   int64 // bytes passed on since mark
	marked                  bool
}

func newCutReader(r io.Reader) *cutReader {
	return &cutReader{r: r, buf: make([]byte, 0, readChunk)}
}

// mark starts counting the bytes of a value (an entry) from here.
func (c *cutReader) mark() { c.since, c.cut, c.marked = 0, false, true }

// wasCut reports whether a string was cut since mark.
func (c *cutReader) wasCut() bool { return c.cut }

func (c *cutReader) Read(p []byte) (int, error) {
	if len(p) > readChunk {
		p = p[:readChunk]
	}
	n := 0
	for n < len(p) {
		if c.off == len(c.buf) {
			if c.err != nil {
				break
			}
			if n > 0 {
				break // pass on what is ready before reading more
			}
			m, err := c.r.Read(c.buf[:cap(c.buf)])
			c.buf, c.off, c.err = c.buf[:m], 0, err
			continue
		}
		b := c.buf[c.off]
		c.off++
		keep, err := c.step(b)
		if err != nil {
			c.err = err
			return n, err
		}
		if keep {
			p[n] = b
			n++
		}
	}
	if c.marked {
		c.since += int64(n)
		if c.since > maxEntryJSON {
			c.err = fmt.Errorf("an entry of the recording is over %d MiB of JSON once its strings are cut at %d MiB: refused", maxEntryJSON>>20, maxString>>20)
			return n, c.err
		}
	}
	if n == 0 && c.off == len(c.buf) && c.err != nil {
		return 0, c.err
	}
	return n, nil
}

// step follows one byte of JSON, and says whether it is passed on.
func (c *cutReader) step(b byte) (bool, error) {
	if c.inString {
		if c.escape {
			c.escape = false
			if b == 'u' {
				c.hex = 4
			}
			return !c.cutting, nil
		}
		if c.hex > 0 {
			c.hex--
			return !c.cutting, nil
		}
		switch {
		case b == '\\':
			c.escape = true
		case b == '"':
			c.inString, c.cutting = false, false
			return true, nil
		}
		if c.cutting {
			return false, nil
		}
		// A cut falls before an escape or the first byte of a rune, never
		// inside one.
		if c.strLen >= maxString && (b == '\\' || b < 0x80 || b >= 0xC0) {
			c.cutting, c.cut, c.escape = true, true, b == '\\'
			return false, nil
		}
		c.strLen++
		return true, nil
	}
	switch b {
	case ' ', '\t', '\r', '\n':
		c.tokLen = 0
		if c.space {
			return false, nil
		}
		c.space = true
		return true, nil
	case '"':
		c.inString, c.strLen, c.tokLen = true, 0, 0
	case '{', '}', '[', ']', ',', ':':
		c.tokLen = 0
	default:
		if c.tokLen++; c.tokLen > maxToken {
			return false, fmt.Errorf("a number or literal of the recording is over %d KiB: not a recording", maxToken>>10)
		}
	}
	c.space = false
	return true, nil
}
