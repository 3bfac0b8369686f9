package mockserver

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// The command's log handler writes what slog.TextHandler writes (but for
// the time, which it writes in UTC): the same records give the same lines.
func TestLogHandlerWritesAsTextHandler(t *testing.T) {
	t.Parallel()
	records := []func(*slog.Logger){
		func(l *slog.Logger) {
			l.Info("request", "method", "GET", "path", "/v1/platforms", "status", 200, "duration", 55*time.Microsecond)
		},
		func(l *slog.Logger) {
			l.Warn("odd values", "empty", "", "space", "a b", "quote", `a"b`, "eq", "a=b", "ctl", "a\nb", "é", "ünï")
		},
		func(l *slog.Logger) {
			l.Error("kinds", "t", true, "f", 1.5, "u", uint64(7), "err", errors.New("disk full"))
		},
		func(l *slog.Logger) {
			l.With("fixed", 1).WithGroup("g").Info("grouped", "a", 1, slog.Group("h", "b", 2))
		},
		func(l *slog.Logger) { l.Info("any", "v", struct{ A int }{1}, "skip", slog.Attr{}) },
		func(l *slog.Logger) { l.Debug("not written") },
	}
	for i, rec := range records {
		var got, want bytes.Buffer
		rec(slog.New(withoutTime{NewLogHandler(&got, nil)}))
		rec(slog.New(withoutTime{slog.NewTextHandler(&want, nil)}))
		if got.String() != want.String() {
			t.Errorf("record %d:\n got %q\nwant %q", i, got.String(), want.String())
		}
	}
	var b bytes.Buffer
	slog.New(NewLogHandler(&b, nil)).Info("timed")
	if line := b.String(); !strings.HasPrefix(line, "time=") || !strings.Contains(line, "Z level=INFO msg=timed\n") {
		t.Errorf("a timed line %q", line)
	}
}

// withoutTime hands records to h with no time, so that lines compare.
type withoutTime struct{ slog.Handler }

func (w withoutTime) Handle(ctx context.Context, r slog.Record) error {
	r.Time = time.Time{}
	return w.Handler.Handle(ctx, r)
}
func (w withoutTime) WithAttrs(a []slog.Attr) slog.Handler {
	return withoutTime{w.Handler.WithAttrs(a)}
}
func (w withoutTime) WithGroup(n string) slog.Handler { return withoutTime{w.Handler.WithGroup(n)} }
