package mockserver

import (
	"io"
	"sync"
	"time"
)

// LogWriter buffers the request log on its way to w: what is written goes
// out within interval, or at once past 64 KiB, so that a line per request
// costs no system call of its own. Flush writes out what is buffered; the
// command calls it before it exits. Safe for concurrent use.
type LogWriter struct {
	w        io.Writer
	interval time.Duration

	mu    sync.Mutex
	buf   []byte
	armed bool // a flush is due within interval
}

// logFlushSize is how much LogWriter buffers before it writes at once.
const logFlushSize = 64 << 10

// NewLogWriter returns a LogWriter to w.
func NewLogWriter(w io.Writer, interval time.Duration) *LogWriter {
	return &LogWriter{w: w, interval: interval}
}

func (l *LogWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	if len(l.buf) >= logFlushSize {
		return len(p), l.flushLocked()
	}
	if !l.armed {
		l.armed = true
		time.AfterFunc(l.interval, func() { l.Flush() })
	}
	return len(p), nil
}

// Flush writes out what is buffered.
func (l *LogWriter) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.armed = false
	return l.flushLocked()
}

func (l *LogWriter) flushLocked() error {
	if len(l.buf) == 0 {
		return nil
	}
	_, err := l.w.Write(l.buf)
	l.buf = l.buf[:0]
	return err
}
