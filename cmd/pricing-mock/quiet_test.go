package main

import (
	"net/http"
	"strings"
	"testing"
)

// --quiet keeps the request log off stderr, so that a mock started in the
// background of a terminal does not write over what the developer types;
// without it every request has its line.
func TestRunQuiet(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		logs bool
	}{
		{[]string{"--addr", "127.0.0.1:0"}, true},
		{[]string{"--addr", "127.0.0.1:0", "--quiet"}, false},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			stderr := &syncBuffer{}
			m, exit, cancel := launch(t, tc.args, env(nil), stderr)
			defer cancel()
			res, err := http.Get(m[1] + "/v1/platforms")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			cancel()
			if code := <-exit; code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr.String())
			}
			if got := strings.Contains(stderr.String(), "path=/v1/platforms"); got != tc.logs {
				t.Errorf("request logged: %v, want %v; stderr %q", got, tc.logs, stderr.String())
			}
		})
	}
}
