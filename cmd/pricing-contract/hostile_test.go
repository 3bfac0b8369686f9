package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// The client tools against a hostile target: one that answers every
// request with what no correct server gives. Each command (the suite and
// its preflight, init, explore, replay) must end with its exit status and
// one line that says what the target did, within --timeout, and within a
// bound of memory whatever the target sends: the growth of the heap in use
// while the command runs, sampled every 2 ms, stays under hostileHeap.
// Without the client's bounds an endless answer grows it by what the
// target sends in --timeout, gigabytes on loopback.

// hostileHeap bounds the growth of the heap in use while a command runs
// against a hostile target: a few answers of target.MaxAnswer (4 MiB)
// being read at once, and the command's own data, with room to spare.
const hostileHeap = 64 << 20

// hostileTimeout is the --timeout of the commands against a target that
// never ends an answer.
const hostileTimeout = "500ms"

// hostileCommand is one command of the binary against a target.
type hostileCommand struct {
	name string
	args func(base, dir string) []string
}

// hostileCommands are the commands, each with the flags that point it at
// base and its outputs into dir.
var hostileCommands = []hostileCommand{
	{"suite", func(base, dir string) []string {
		return []string{"--base-url", base, "--timeout", hostileTimeout, "--godog.format", "progress"}
	}},
	{"init", func(base, dir string) []string {
		return []string{"init", "--base-url", base, "--timeout", hostileTimeout, "--output", filepath.Join(dir, "target.profile")}
	}},
	{"explore", func(base, dir string) []string {
		return []string{"explore", "--base-url", base, "--timeout", hostileTimeout, "--runs", "2", "--budget", "0", "--out", dir}
	}},
	{"replay", func(base, dir string) []string {
		return []string{"replay", "--base-url", base, "--timeout", hostileTimeout, "--out", dir, writeRecording(dir)}
	}},
}

// hostileEnv gives the commands two accounts (a target other than the
// default mock has no defaults), the default seed's.
var hostileEnv = map[string]string{
	"PRICING_EMAIL": "qa@example.com", "PRICING_PASSWORD": "qa-password", "PRICING_API_KEY": "qa-api-key",
	"PRICING_OTHER_EMAIL": "other@example.com", "PRICING_OTHER_PASSWORD": "other-password", "PRICING_OTHER_API_KEY": "other-api-key",
}

// writeRecording writes a journal of one login to dir, for replay.
func writeRecording(dir string) string {
	path := filepath.Join(dir, "recording.json")
	journal := `[{"id":1,"time":"2026-11-26T10:00:00Z","method":"POST","path":"/v1/sessions","query":"","headers":{"Content-Type":"application/json"},` +
		`"status":200,"requestBody":{"email":"qa@example.com","password":"***"},"responseBody":{"userId":1,"clientId":1,"token":"***"}}]`
	if err := os.WriteFile(path, []byte(journal), 0o600); err != nil {
		panic(err)
	}
	return path
}

// hostileCase is a target's behaviour and what each command must say of it.
type hostileCase struct {
	answer http.HandlerFunc
	// want matches the line each command ends with; by command name,
	// "" for every command not named.
	want map[string]*regexp.Regexp
	// status is the exit status of every command.
	status int
}

// runHostile runs every command against a target answering as hc says,
// and checks its exit status, its line and the heap's growth.
func runHostile(t *testing.T, hc hostileCase) {
	t.Helper()
	testenv.SkipShort(t, "runs every command against a hostile target, some until their timeout")
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The request, read whole, as a target would; then the answer.
		io.Copy(io.Discard, r.Body)
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		go func() {
			select {
			case <-stop:
				cancel()
			case <-ctx.Done():
			}
		}()
		hc.answer(w, r.WithContext(ctx))
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) })
	for _, c := range hostileCommands {
		t.Run(c.name, func(t *testing.T) {
			// Not parallel: the heap is the process's.
			dir := t.TempDir()
			var r result
			grew := testenv.PeakHeap(func() { r = runMain(hostileEnv, c.args(srv.URL+"/v1", dir)...) })
			t.Logf("%s: exit %d in the heap's growth of %.1f MiB", c.name, r.code, float64(grew)/(1<<20))
			if r.code != hc.status {
				t.Errorf("exit %d, want %d\n%s", r.code, hc.status, r)
			}
			want := hc.want[c.name]
			if want == nil {
				want = hc.want[""]
			}
			if !want.MatchString(r.stderr) {
				t.Errorf("stderr has no line matching %s:\n%s", want, r.stderr)
			}
			if grew > hostileHeap {
				t.Errorf("the heap in use grew by %d MiB, over %d MiB", grew>>20, hostileHeap>>20)
			}
		})
	}
}

// line is a regexp of one line of stderr, the command's prefix and then re.
func line(re string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^pricing-contract[a-z ]*: ` + re + `$`)
}

// atPreflight is what the commands say of a target whose answer the
// preflight refuses: the suite and the explorer after their prefix, init
// on its own line.
func atPreflight(why string) map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"":     line(`target or profile not usable.*` + why),
		"init": line(why),
	}
}

// platforms is the preflight's first request, as an error names it.
const platforms = `GET http://127\.0\.0\.1:[0-9]+/v1/platforms: `

// endless writes an answer that never ends, as fast as the connection
// takes it, until the client goes.
func endless(w http.ResponseWriter, r *http.Request, first string, chunk []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, first)
	for r.Context().Err() == nil {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// An answer that never ends, as fast as loopback carries it: read up to
// target.MaxAnswer and refused.
func TestHostileTargetEndlessAnswer(t *testing.T) {
	chunk := []byte(strings.Repeat("0,", 32<<10))
	runHostile(t, hostileCase{
		answer: func(w http.ResponseWriter, r *http.Request) { endless(w, r, "[", chunk) },
		status: 3,
		want:   atPreflight(platforms + `answer refused: its body is over 4 MiB \(the most any answer is read\)`),
	})
}

// An answer whose body trickles a byte at a time and never ends: it ends
// at --timeout, which covers the body.
func TestHostileTargetTricklingAnswer(t *testing.T) {
	runHostile(t, hostileCase{
		answer: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			for {
				select {
				case <-r.Context().Done():
					return
				case <-time.After(20 * time.Millisecond):
					io.WriteString(w, " ")
					w.(http.Flusher).Flush()
				}
			}
		},
		status: 3,
		want:   atPreflight(`the target does not answer: ` + platforms + `.*(deadline exceeded|Timeout).*`),
	})
}

// A target that takes the request and never answers: it ends at --timeout.
func TestHostileTargetSilentTarget(t *testing.T) {
	runHostile(t, hostileCase{
		answer: func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
		status: 3,
		want:   atPreflight(`the target does not answer: ` + platforms + `.*(deadline exceeded|Timeout).*`),
	})
}

// A head of endless headers: refused past target.MaxAnswerHead.
func TestHostileTargetEndlessHead(t *testing.T) {
	runHostile(t, hostileCase{
		answer: func(w http.ResponseWriter, r *http.Request) {
			for i := range 4096 {
				w.Header().Add("X-Filler", strings.Repeat("h", 1000)+string(rune('a'+i%26)))
			}
			w.WriteHeader(http.StatusOK)
		},
		status: 3,
		want:   atPreflight(`the target does not answer: ` + platforms + `.*headers exceeded 65536 bytes.*`),
	})
}

// JSON nested a million deep: refused past target.MaxNesting, before any
// parser (gjson's validation recurses once a level) sees it.
func TestHostileTargetDeepJSON(t *testing.T) {
	body := strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20)
	runHostile(t, hostileCase{
		answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, body)
		},
		status: 3,
		want:   atPreflight(platforms + `answer refused: its JSON nests deeper than 64 arrays and objects`),
	})
}

// JSON that is not JSON, in a 200 to every request: the login's answer
// is no session.
func TestHostileTargetInvalidJSON(t *testing.T) {
	runHostile(t, hostileCase{
		answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"platforms":[{"id":1,"name":"Android"},`)
		},
		status: 3,
		want: map[string]*regexp.Regexp{
			"":     line(`target or profile not usable.*account A logged in, but the session has no string token`),
			"init": line(`POST /sessions answered 200 to qa@example\.com's json body, but its userId is absent, not a number \(spec 2\.4\): the target breaks the contract`),
		},
	})
}

// JSON whose strings are not UTF-8: refused as it is read.
func TestHostileTargetInvalidUTF8(t *testing.T) {
	runHostile(t, hostileCase{
		answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"userId":1,"clientId":1,"token":"`+"\xff\xfe\xc3("+`","platforms":[]}`)
		},
		status: 3,
		want:   atPreflight(platforms + `answer refused: its JSON is not valid UTF-8`),
	})
}

// The bounds the tests hold the client to are the ones the help states.
func TestHelpStatesTheClientsBounds(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--help"}, {"init", "--help"}, {"explore", "--help"}, {"replay", "--help"}} {
		r := runMain(nil, args...)
		out := strings.Join(strings.Fields(r.stdout+r.stderr), " ")
		if !strings.Contains(out, strings.Join(strings.Fields(target.BoundsText), " ")) {
			t.Errorf("%q does not state the client's bounds (%q):\n%s", args, target.BoundsText, out)
		}
	}
}
