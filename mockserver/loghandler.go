package mockserver

import (
	"context"
	"encoding"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// logHandler is the slog.Handler of the command's log: one line per record,
// the time (RFC 3339, milliseconds, UTC), the level, the message and the
// attributes as key=value, a value quoted when it needs to be. It writes
// what slog.TextHandler writes for the mock's records, at a fraction of
// the cost: there is one of them per request.
type logHandler struct {
	w     io.Writer
	mu    *sync.Mutex
	level slog.Leveler
	attrs []byte // formatted by WithAttrs, each with a leading space
	group string // prefix of the keys, "a.b." for WithGroup("a").WithGroup("b")
}

// NewLogHandler returns a handler that writes records of level or above
// to w (nil level: Info).
func NewLogHandler(w io.Writer, level slog.Leveler) slog.Handler {
	if level == nil {
		level = slog.LevelInfo
	}
	return &logHandler{w: w, mu: &sync.Mutex{}, level: level}
}

func (h *logHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level.Level() }

var logBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

func (h *logHandler) Handle(_ context.Context, r slog.Record) error {
	bp := logBuffers.Get().(*[]byte)
	b := (*bp)[:0]
	if !r.Time.IsZero() {
		b = append(b, "time="...)
		b = r.Time.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
		b = append(b, ' ')
	}
	b = append(b, "level="...)
	b = append(b, r.Level.String()...)
	b = append(b, " msg="...)
	b = appendLogString(b, r.Message)
	b = append(b, h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		b = appendLogAttr(b, h.group, a)
		return true
	})
	b = append(b, '\n')
	h.mu.Lock()
	_, err := h.w.Write(b)
	h.mu.Unlock()
	*bp = b
	logBuffers.Put(bp)
	return err
}

func (h *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append([]byte(nil), h.attrs...)
	for _, a := range attrs {
		c.attrs = appendLogAttr(c.attrs, h.group, a)
	}
	return &c
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.group = h.group + name + "."
	return &c
}

// appendLogAttr appends " key=value"; a group's attributes get its name
// as a prefix, and an empty attribute nothing.
func appendLogAttr(b []byte, prefix string, a slog.Attr) []byte {
	v := a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return b
	}
	if v.Kind() == slog.KindGroup {
		if a.Key != "" {
			prefix += a.Key + "."
		}
		for _, g := range v.Group() {
			b = appendLogAttr(b, prefix, g)
		}
		return b
	}
	b = append(b, ' ')
	b = appendLogString(b, prefix+a.Key)
	b = append(b, '=')
	switch v.Kind() {
	case slog.KindString:
		return appendLogString(b, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool())
	case slog.KindFloat64:
		return strconv.AppendFloat(b, v.Float64(), 'g', -1, 64)
	case slog.KindDuration:
		return append(b, v.Duration().String()...)
	case slog.KindTime:
		return v.Time().AppendFormat(b, time.RFC3339Nano)
	}
	switch x := v.Any().(type) {
	case encoding.TextMarshaler:
		if t, err := x.MarshalText(); err == nil {
			return appendLogString(b, string(t))
		}
	case error:
		return appendLogString(b, x.Error())
	}
	return appendLogString(b, fmt.Sprintf("%+v", v.Any()))
}

// appendLogString appends s, quoted when it is empty or holds a space, a
// quote, an equals sign or anything unprintable, as slog.TextHandler does.
func appendLogString(b []byte, s string) []byte {
	if s == "" {
		return append(b, `""`...)
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == '"' || c == '=' || c == 0x7f {
				return strconv.AppendQuote(b, s)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.AppendQuote(b, s)
		}
		i += n
	}
	return append(b, s...)
}
