package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// redirecting serves a target on 127.0.0.1 that answers every request 307
// Temporary Redirect to the same path and query on rec.
func redirecting(t *testing.T, rec *mocktest.Recorder) string {
	t.Helper()
	srv := httptest.NewServer(rec.Redirect())
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// No command carries a credential to another host or port: a target that
// redirects every request there (307, which Go's client follows by
// re-sending the body, the login's password included) gets its 3xx
// reported with its Location, and the other listener receives 0 bytes.
// The secrets are the accounts' of hostileEnv, a HAR's recorded ones for
// replay.
func TestRedirectingTargetGetsNoSecret(t *testing.T) {
	testenv.SkipShort(t, "runs every command against a redirecting target")
	secrets := []string{"qa-password", "qa-api-key", "other-password", "other-api-key", "recorded-password-1", "recorded-key-1"}
	commands := append(hostileCommands[:len(hostileCommands):len(hostileCommands)],
		hostileCommand{"suite without the preflight", func(base, dir string) []string {
			return []string{"--base-url", base, "--no-preflight", "--godog.tags", "@s5", "--godog.format", "progress", "--godog.concurrency", "4"}
		}},
		hostileCommand{"replay of a HAR with secrets", func(base, dir string) []string {
			return []string{"replay", "--base-url", base, "--out", dir, writeHAR(dir)}
		}})
	for _, other := range []struct{ name, host string }{{"another host", "127.0.0.2"}, {"another port", "127.0.0.1"}} {
		t.Run(other.name, func(t *testing.T) {
			for _, c := range commands {
				t.Run(c.name, func(t *testing.T) {
					rec := mocktest.StartRecorder(t, other.host)
					base := redirecting(t, rec)
					r := runMain(hostileEnv, c.args(base, t.TempDir())...)
					got := rec.Received()
					t.Logf("%s: exit %d; %d bytes reached %s", c.name, r.code, len(got), rec.URL)
					if len(got) > 0 {
						t.Errorf("%d bytes reached the other listener:\n%.2000s", len(got), got)
					}
					for _, s := range secrets {
						if strings.Contains(string(got), s) {
							t.Errorf("the secret %q reached the other listener", s)
						}
					}
					if r.code == 0 {
						t.Errorf("exit 0 against a target that only redirects\n%s", r)
					}
					says := regexp.MustCompile(`answered 307, a redirect to "` + regexp.QuoteMeta(rec.URL) + `/v1/[a-z]+"` +
						`|Location: ` + regexp.QuoteMeta(rec.URL) + `/v1/[a-z]+ \(not followed`)
					if !says.MatchString(r.stderr + r.stdout) {
						t.Errorf("the output does not report the redirect and its Location:\n%s", r)
					}
				})
			}
		})
	}
}

// writeHAR writes a HAR of a login and a PUT with recorded secrets in
// clear, for replay.
func writeHAR(dir string) string {
	path := filepath.Join(dir, "session.har")
	har := `{"log":{"version":"1.2","entries":[` +
		`{"startedDateTime":"2026-11-26T10:00:00Z","request":{"method":"POST","url":"https://app.example/v1/sessions","headers":[{"name":"Content-Type","value":"application/json"}],` +
		`"postData":{"mimeType":"application/json","text":"{\"email\":\"qa@example.com\",\"password\":\"recorded-password-1\"}"}},` +
		`"response":{"status":200,"headers":[],"content":{"mimeType":"application/json","text":"{\"userId\":1,\"clientId\":1,\"token\":\"recorded-token-1\"}"}}},` +
		`{"startedDateTime":"2026-11-26T10:00:01Z","request":{"method":"PUT","url":"https://app.example/v1/users/1","headers":[{"name":"Authorization","value":"api-key recorded-key-1"},{"name":"Content-Type","value":"application/json"}],` +
		`"postData":{"mimeType":"application/json","text":"{\"firstName\":\"\"}"}},` +
		`"response":{"status":400,"headers":[],"content":{"mimeType":"application/json","text":"[{\"fieldName\":\"firstName\",\"error\":\"Required\"}]"}}}]}}`
	if err := os.WriteFile(path, []byte(har), 0o600); err != nil {
		panic(err)
	}
	return path
}

// A target that starts redirecting in the middle of a run (a proxy
// reconfigured, say) once its preflight passed: from the third login on,
// every request of the mock is answered 307 to the other listener, which
// still receives 0 bytes, from the explorer's and the replay's own
// requests and the scenarios' alike.
func TestTargetRedirectingMidRunGetsNoSecret(t *testing.T) {
	testenv.SkipShort(t, "runs commands against a mock that starts redirecting")
	for _, c := range []hostileCommand{
		{"suite", func(base, dir string) []string {
			return []string{"--base-url", base, "--godog.tags", "@s5", "--godog.format", "progress", "--godog.concurrency", "4"}
		}},
		{"explore", func(base, dir string) []string {
			return []string{"explore", "--base-url", base, "--runs", "4", "--budget", "0", "--out", dir}
		}},
		{"replay", func(base, dir string) []string {
			return []string{"replay", "--base-url", base, "--out", dir, writeHAR(dir)}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := mocktest.StartRecorder(t, "127.0.0.2")
			var mu sync.Mutex
			logins := 0
			m := mocktest.MustStart(t, mocktest.Options{Wrap: func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					mu.Lock()
					if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") {
						logins++
					}
					redirect := logins > 2
					mu.Unlock()
					if redirect {
						rec.Redirect().ServeHTTP(w, r)
						return
					}
					h.ServeHTTP(w, r)
				})
			}})
			r := runMain(nil, c.args(m.URL, t.TempDir())...)
			got := rec.Received()
			mu.Lock()
			t.Logf("%s: exit %d after %d logins; %d bytes reached %s", c.name, r.code, logins, len(got), rec.URL)
			if logins < 3 {
				t.Errorf("the target never redirected (%d logins)\n%s", logins, r)
			}
			mu.Unlock()
			if len(got) > 0 {
				t.Errorf("%d bytes reached the other listener:\n%.2000s", len(got), got)
			}
			if r.code == 0 {
				t.Errorf("exit 0 against a target that redirects\n%s", r)
			}
		})
	}
}
