package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

// seed is the default seed's profile: the accounts and ids --print-env
// prints and the tests log in with.
var seed = func() pricing.Profile {
	d, err := pricing.LoadSeed(fixtures.Seed())
	if err != nil {
		panic("the default seed: " + err.Error())
	}
	return d.Profile()
}()

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func ptr(n int64) *int64 { return &n }

func TestParseFlags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		want    config
		wantErr string // substring; "" means success
	}{
		{name: "defaults", want: config{addr: "127.0.0.1:8080"}},
		{name: "addr from the environment", env: map[string]string{"PRICING_MOCK_ADDR": "127.0.0.1:9000"},
			want: config{addr: "127.0.0.1:9000"}},
		{name: "empty environment value keeps the default", env: map[string]string{"PRICING_MOCK_ADDR": ""},
			want: config{addr: "127.0.0.1:8080"}},
		{name: "the flag wins over the environment", args: []string{"--addr", "127.0.0.1:9001"},
			env: map[string]string{"PRICING_MOCK_ADDR": "127.0.0.1:9000"}, want: config{addr: "127.0.0.1:9001"}},
		{name: "single-dash addr with =", args: []string{"-addr=127.0.0.1:0"}, want: config{addr: "127.0.0.1:0"}},
		{name: "fixtures", args: []string{"--fixtures", "some/dir"}, want: config{addr: "127.0.0.1:8080", fixtures: "some/dir"}},
		{name: "seed", args: []string{"--seed", "42"}, want: config{addr: "127.0.0.1:8080", seed: ptr(42)}},
		{name: "negative seed", args: []string{"--seed=-7"}, want: config{addr: "127.0.0.1:8080", seed: ptr(-7)}},
		{name: "seed 0 is a seed", args: []string{"--seed", "0"}, want: config{addr: "127.0.0.1:8080", seed: ptr(0)}},
		{name: "print-env", args: []string{"--print-env"}, want: config{addr: "127.0.0.1:8080", printEnv: true}},
		{name: "everything", args: []string{"--addr", "127.0.0.1:1", "--fixtures", "d", "--seed", "1", "--print-env"},
			want: config{addr: "127.0.0.1:1", fixtures: "d", seed: ptr(1), printEnv: true}},
		{name: "seed not a number", args: []string{"--seed", "x"}, wantErr: `invalid value "x" for flag -seed`},
		{name: "seed beyond int64", args: []string{"--seed", "9223372036854775808"}, wantErr: "-seed"},
		{name: "unknown flag", args: []string{"--port", "80"}, wantErr: "flag provided but not defined: -port"},
		{name: "flag without its value", args: []string{"--addr"}, wantErr: "flag needs an argument: -addr"},
		{name: "positional argument", args: []string{"serve"}, wantErr: `unexpected argument "serve"`},
		{name: "empty addr", args: []string{"--addr", ""}, wantErr: "--addr is empty"},
		{name: "help", args: []string{"-h"}, wantErr: flag.ErrHelp.Error()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseFlags(tc.args, env(tc.env))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if got.addr != tc.want.addr || got.fixtures != tc.want.fixtures || got.printEnv != tc.want.printEnv ||
				(got.seed == nil) != (tc.want.seed == nil) || (got.seed != nil && *got.seed != *tc.want.seed) {
				t.Errorf("config %+v (seed %v), want %+v (seed %v)", got, deref(got.seed), tc.want, deref(tc.want.seed))
			}
		})
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// syncBuffer is a bytes.Buffer safe to write from the server's goroutines
// while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var listening = regexp.MustCompile(`^pricing-mock listening on (http://127\.0\.0\.1:[0-9]+) \(seed: (.+)\)\n$`)

// The server starts on a free port, serves the API, logs each request to
// stderr and exits 0 when its context ends.
func TestRunServesAndShutsDown(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		args     []string
		seedName string
	}{
		{"embedded seed", []string{"--addr", "127.0.0.1:0"}, "embedded"},
		{"seed folder and a seed", []string{"--addr", "127.0.0.1:0", "--fixtures", "../../fixtures/seed", "--seed", "3"}, "../../fixtures/seed"},
		{"address from the environment", nil, "embedded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stderr := &syncBuffer{}
			m, exit, cancel := launch(t, tc.args, env(map[string]string{"PRICING_MOCK_ADDR": "127.0.0.1:0"}), stderr)
			defer cancel()
			if m[2] != tc.seedName {
				t.Errorf("seed %q in %q, want %q", m[2], m[0], tc.seedName)
			}

			res, err := http.Get(m[1] + "/v1/platforms?sessionToken=not-logged")
			if err != nil {
				t.Fatalf("GET /v1/platforms: %v", err)
			}
			var body struct {
				Platforms []struct {
					ID   int64  `json:"id"`
					Name string `json:"name"`
				} `json:"platforms"`
			}
			err = json.NewDecoder(res.Body).Decode(&body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK || err != nil || len(body.Platforms) != 2 || body.Platforms[0].Name != "Android" {
				t.Fatalf("GET /v1/platforms: status %d, decode error %v, body %+v", res.StatusCode, err, body)
			}

			cancel()
			select {
			case code := <-exit:
				if code != 0 {
					t.Fatalf("exit %d after the context ended, want 0; stderr %q", code, stderr.String())
				}
			case <-time.After(2 * shutdownGrace):
				// A safety net against a hang, not a timing assertion.
				t.Fatal("run did not return after the context ended")
			}
			logs := stderr.String()
			if !strings.Contains(logs, "/v1/platforms") || !strings.Contains(logs, "200") {
				t.Errorf("stderr has no request line for GET /v1/platforms: %q", logs)
			}
			if strings.Contains(logs, "not-logged") {
				t.Errorf("stderr logs the query's session token: %q", logs)
			}
		})
	}
}

// A bad command line or seed folder: exit 2 and exactly one line on stderr.
func TestRunRefuses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want string // substring of the one stderr line
	}{
		{"unknown flag", []string{"--nope"}, nil, "flag provided but not defined: -nope"},
		{"bad seed", []string{"--seed", "ten"}, nil, "-seed"},
		{"positional argument", []string{"now"}, nil, `unexpected argument "now"`},
		{"broken seed file", []string{"--fixtures", "testdata/broken"}, nil, "users.json"},
		{"missing seed folder", []string{"--fixtures", "testdata/no-such-dir"}, nil, "testdata/no-such-dir"},
		{"seed folder is a file", []string{"--fixtures", "main.go"}, nil, "main.go"},
		{"empty seed folder", []string{"--fixtures", "testdata"}, nil, "testdata"},
		{"broken seed with print-env", []string{"--fixtures", "testdata/broken", "--print-env"}, nil, "users.json"},
		{"unknown fault", []string{"--fault", "no-such-fault"}, nil, "--fault no-such-fault: no such fault"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, env(tc.env), &stdout, &stderr)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
			got := stderr.String()
			if !strings.HasPrefix(got, "pricing-mock: ") || !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") != 1 {
				t.Errorf("stderr %q, want one line starting with \"pricing-mock: \"", got)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("stderr %q does not mention %q", got, tc.want)
			}
		})
	}
}

func TestRunBadFlagPointsToHelp(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--nope"}, env(nil), &stdout, &stderr); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), "-h") {
		t.Errorf("stderr %q gives no hint to -h", stderr.String())
	}
}

func TestRunHelp(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"-h", "--help"} {
		t.Run(arg, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), []string{arg}, env(nil), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d, want 0", code)
			}
			if stderr.Len() != 0 {
				t.Errorf("stderr %q, want nothing", stderr.String())
			}
			for _, want := range []string{"Usage: pricing-mock", "-addr", "PRICING_MOCK_ADDR", "127.0.0.1:8080", "-fixtures", "-seed", "-print-env"} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("usage does not mention %q:\n%s", want, stdout.String())
				}
			}
		})
	}
}

func TestRunPrintEnv(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		baseURL string
	}{
		{"default address", []string{"--print-env"}, nil, "http://127.0.0.1:8080/v1"},
		{"address flag", []string{"--print-env", "--addr", "127.0.0.1:9999"}, nil, "http://127.0.0.1:9999/v1"},
		{"address from the environment", []string{"--print-env"}, map[string]string{"PRICING_MOCK_ADDR": "127.0.0.1:7000"}, "http://127.0.0.1:7000/v1"},
		{"seed folder", []string{"--print-env", "--fixtures", "../../fixtures/seed"}, nil, "http://127.0.0.1:8080/v1"},
	}
	want := []string{
		"export PRICING_BASE_URL='%s'",
		"export PRICING_EMAIL='" + seed.Email + "'",
		"export PRICING_PASSWORD='" + seed.Password + "'",
		"export PRICING_API_KEY='" + seed.APIKey + "'",
		"export PRICING_OTHER_EMAIL='" + seed.OtherEmail + "'",
		"export PRICING_OTHER_PASSWORD='" + seed.OtherPassword + "'",
		"export PRICING_OTHER_API_KEY='" + seed.OtherAPIKey + "'",
		fmt.Sprintf("export PRICING_CURRENCY_ID='%d'", seed.CurrencyID),
		fmt.Sprintf("export PRICING_PLAN_ID='%d'", seed.PlanID),
		fmt.Sprintf("export PRICING_PLATFORM_ID='%d'", seed.PlatformID),
		fmt.Sprintf("export PRICING_PHONE_COUNTRY_ID='%d'", seed.PhoneCountryID),
		"export PRICING_MARKETAPP_HASH='" + seed.MarketappHash + "'",
		"export PRICING_FIRST_NAME='" + seed.A.FirstName + "'",
		"export PRICING_LAST_NAME='" + seed.A.LastName + "'",
		"export PRICING_TIMEZONE='" + seed.A.Timezone + "'",
		"export PRICING_OTHER_FIRST_NAME='" + seed.B.FirstName + "'",
		"export PRICING_OTHER_LAST_NAME='" + seed.B.LastName + "'",
		"export PRICING_OTHER_TIMEZONE='" + seed.B.Timezone + "'",
		"export PRICING_PHONE_NUMBER='" + seed.A.PhoneNumber + "'",
		"export PRICING_PHONE_EXTENSION='" + seed.A.PhoneExtension + "'",
		fmt.Sprintf("export PRICING_OTHER_PHONE_COUNTRY_ID='%d'", seed.B.PhoneCountryID),
		"export PRICING_OTHER_PHONE_NUMBER='" + seed.B.PhoneNumber + "'",
		"export PRICING_OTHER_PHONE_EXTENSION='" + seed.B.PhoneExtension + "'",
		"export PRICING_CURRENCIES='" + seed.Currencies + "'",
		"export PRICING_PLANS='" + seed.Plans + "'",
		"export PRICING_PLATFORMS='" + seed.Platforms + "'",
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tc.args, env(tc.env), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d, want 0; stderr %q", code, stderr.String())
			}
			if stderr.Len() != 0 {
				t.Errorf("stderr %q, want nothing", stderr.String())
			}
			lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			if len(lines) != len(want) {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), stdout.String())
			}
			for i, w := range want {
				if i == 0 {
					w = strings.Replace(w, "%s", tc.baseURL, 1)
				}
				if lines[i] != w {
					t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
				}
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"", "''"},
		{"plain", "'plain'"},
		{"it's", `'it'\''s'`},
		{"$HOME `x` \"y\"", "'$HOME `x` \"y\"'"},
	}
	for _, tc := range cases {
		if got := shellQuote(tc.in); got != tc.want {
			t.Errorf("shellQuote(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A port already taken is no usage error: exit 1 with one line.
func TestRunAddressInUse(t *testing.T) {
	t.Parallel()
	m, exit, cancel := launch(t, []string{"--addr", "127.0.0.1:0"}, env(nil), &syncBuffer{})
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"--addr", strings.TrimPrefix(m[1], "http://")}, env(nil), &stdout, &stderr)
	if code != 1 || strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), "pricing-mock: ") {
		t.Errorf("exit %d, stderr %q; want 1 and one line", code, stderr.String())
	}
	cancel()
	if code := <-exit; code != 0 {
		t.Errorf("first server exited %d", code)
	}
}

// --list-faults lists every fault of the mock, one a line, and exits 0.
func TestRunListFaults(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--list-faults"}, env(nil), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, want 0; stderr %q", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	faults := catalogue.Wrong()
	if len(lines) != len(faults)+1 {
		t.Fatalf("%d lines, want a header and %d faults:\n%s", len(lines), len(faults), stdout.String())
	}
	for i, f := range faults {
		if fields := strings.Fields(lines[i+1]); len(fields) < 3 || fields[0] != f.Name || fields[1] != strings.ReplaceAll(f.Rule, " ", "") {
			t.Errorf("line %d = %q, want fault %s in section %s", i+2, lines[i+1], f.Name, f.Rule)
		}
	}
}

// A fault given with --fault is served: with forbidden-as-404, account A
// changing account B's user gets 404 instead of the spec's 403.
func TestRunServesAFault(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"--addr", "127.0.0.1:0"}, http.StatusForbidden},
		{[]string{"--addr", "127.0.0.1:0", "--fault", "forbidden-as-404"}, http.StatusNotFound},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			m, exit, cancel := launch(t, tc.args, env(nil), &syncBuffer{})
			defer func() { cancel(); <-exit }()
			req, _ := http.NewRequest(http.MethodPut, m[1]+"/v1/users/2", strings.NewReader(`{}`))
			req.Header.Set("Authorization", "api-key "+seed.APIKey)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("PUT /v1/users/2: %v", err)
			}
			res.Body.Close()
			if res.StatusCode != tc.want {
				t.Errorf("PUT /v1/users/2 as account A: status %d, want %d", res.StatusCode, tc.want)
			}
		})
	}
}

// The flags of issue 5 reach the config; bad values are usage errors.
func TestParseFlagsFrontend(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		args    []string
		check   func(config) bool
		wantErr string
	}{
		{name: "no-admin", args: []string{"--no-admin"}, check: func(c config) bool { return c.noAdmin }},
		{name: "latency and jitter", args: []string{"--latency", "150ms", "--latency-jitter", "50ms"},
			check: func(c config) bool { return c.latency == 150*time.Millisecond && c.jitter == 50*time.Millisecond }},
		{name: "cors origins", args: []string{"--cors-origins", "http://localhost:3000, http://127.0.0.1:5173,"},
			check: func(c config) bool {
				return len(c.corsOrigins) == 2 && c.corsOrigins[0] == "http://localhost:3000" && c.corsOrigins[1] == "http://127.0.0.1:5173"
			}},
		{name: "state", args: []string{"--state", "dev.json"}, check: func(c config) bool { return c.state == "dev.json" }},
		{name: "watch", args: []string{"--fixtures", "d", "--watch"}, check: func(c config) bool { return c.watch && c.fixtures == "d" }},
		{name: "watch without fixtures", args: []string{"--watch"}, wantErr: "--watch needs --fixtures"},
		{name: "latency not a duration", args: []string{"--latency", "slow"}, wantErr: "-latency"},
		{name: "too much latency", args: []string{"--latency", "50s", "--latency-jitter", "11s"}, wantErr: "at most 1m0s"},
		{name: "negative latency", args: []string{"--latency", "-1s"}, wantErr: "must be positive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseFlags(tc.args, env(nil))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !tc.check(got) {
				t.Errorf("config %+v, error %v", got, err)
			}
		})
	}
}

// launch runs the program with args, getenv and stderr until cancel: the
// match of its listening line (listening: the base URL, the seed), the
// channel of its exit status, and cancel. A run that does not say it
// listens fails the test.
func launch(t *testing.T, args []string, getenv func(string) string, stderr *syncBuffer) (m []string, exit <-chan int, cancel context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	ch := make(chan int, 1)
	go func() {
		ch <- run(ctx, args, getenv, outW, stderr)
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("reading the listening line: %v (stderr %q)", err, stderr.String())
	}
	go io.Copy(io.Discard, outR) // run must never block on stdout
	m = listening.FindStringSubmatch(line)
	if m == nil {
		cancel()
		t.Fatalf("first stdout line %q does not match %s", line, listening)
	}
	return m, ch, cancel
}

// startRun runs the program until the test ends and returns its base URL and
// a stop function that ends it and returns the exit status.
func startRun(t *testing.T, args ...string) (string, func() int) {
	t.Helper()
	m, exit, cancel := launch(t, append([]string{"--addr", "127.0.0.1:0"}, args...), env(nil), &syncBuffer{})
	stopped := false
	stop := func() int {
		if stopped {
			return 0
		}
		stopped = true
		cancel()
		return <-exit
	}
	t.Cleanup(func() { stop() })
	return m[1], stop
}

func request(t *testing.T, method, url, body string, headers ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

var putQuentin = `{"email":` + fmt.Sprintf("%q", seed.Email) + `,"firstName":"Quentin","lastName":"Assurance","timezone":"Europe/London",
	"subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"password":null}`

// startQuentin starts the program on a new --state file and renames user 1
// Quentin (putQuentin): a change that a restart on the file must keep.
func startQuentin(t *testing.T) (path, base string, stop func() int) {
	t.Helper()
	path = t.TempDir() + "/state.json"
	base, stop = startRun(t, "--state", path)
	if code, body := request(t, "PUT", base+"/v1/users/1", putQuentin, "Authorization", "api-key "+seed.APIKey); code != 200 {
		t.Fatalf("PUT /v1/users/1: %d %s", code, body)
	}
	return path, base, stop
}

// --state keeps a change and a session across a restart of the program.
func TestRunStatePersistsAcrossRestart(t *testing.T) {
	t.Parallel()
	path, base, stop := startQuentin(t)
	code, body := request(t, "POST", base+"/v1/sessions", fmt.Sprintf(`{"email":%q,"password":%q}`, seed.Email, seed.Password))
	var sess struct{ Token string }
	if err := json.Unmarshal([]byte(body), &sess); code != 200 || err != nil || sess.Token == "" {
		t.Fatalf("POST /v1/sessions: %d %s", code, body)
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit %d", code)
	}

	base, _ = startRun(t, "--state", path)
	code, body = request(t, "GET", base+"/v1/users/1", "", "session-token", sess.Token)
	if code != 200 || !strings.Contains(body, `"firstName":"Quentin"`) {
		t.Errorf("after the restart, GET /v1/users/1 with the old session: %d %s, want 200 with Quentin", code, body)
	}
}

// A corrupt state file stops the start with one line and exit 2, and is
// left as it was.
func TestRunRefusesCorruptState(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/state.json"
	const corrupt = `{"users": [{"id": "one"}]`
	if err := os.WriteFile(path, []byte(corrupt), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--state", path}, env(nil), &stdout, &stderr)
	got := stderr.String()
	if code != 2 || strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "pricing-mock: --state "+path+": ") {
		t.Errorf("exit %d, stderr %q; want 2 and one line naming --state %s", code, got, path)
	}
	if b, _ := os.ReadFile(path); string(b) != corrupt {
		t.Errorf("the corrupt file became %q", b)
	}
}

// The admin API, CORS wiring and --no-admin through the real program.
func TestRunAdminSwitch(t *testing.T) {
	t.Parallel()
	base, _ := startRun(t)
	if code, body := request(t, "GET", base+"/__admin/requests", ""); code != 200 || !strings.Contains(body, `"requests"`) {
		t.Errorf("GET /__admin/requests: %d %s", code, body)
	}
	if code, _ := request(t, "GET", base+"/v1/plans", "", "X-Mock-Status", "503"); code != 503 {
		t.Errorf("X-Mock-Status 503 answered %d", code)
	}
	off, _ := startRun(t, "--no-admin")
	if code, _ := request(t, "GET", off+"/__admin/requests", ""); code != 404 {
		t.Errorf("--no-admin: GET /__admin/requests answered %d, want 404", code)
	}
	if code, _ := request(t, "GET", off+"/v1/plans", "", "X-Mock-Status", "503"); code != 200 {
		t.Errorf("--no-admin: X-Mock-Status 503 answered %d, want 200", code)
	}
}

// --accounts N serves N pairs of accounts: --print-env prints pairs 2 to N
// after the seed's profile, and every one of them logs in; a number outside
// 1 to 64 is a usage error.
func TestRunAccounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args    []string
		want    int
		wantErr string
	}{
		{nil, 1, ""},
		{[]string{"--accounts", "8"}, 8, ""},
		{[]string{"--accounts", "64"}, 64, ""},
		{[]string{"--accounts", "0"}, 0, "--accounts must be from 1 to 64"},
		{[]string{"--accounts", "65"}, 0, "--accounts must be from 1 to 64"},
		{[]string{"--accounts", "x"}, 0, "-accounts"},
	} {
		got, err := parseFlags(tc.args, env(nil))
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: error %v, want one containing %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got.accounts != tc.want {
			t.Errorf("%q: accounts %d, error %v; want %d", tc.args, got.accounts, err, tc.want)
		}
	}

	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--print-env", "--accounts", "3"}, env(nil), &stdout, &stderr); code != 0 {
		t.Fatalf("--print-env --accounts 3: exit %d, stderr %q", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	wantPairs := []string{
		"export PRICING_EMAIL_2='qa-2@example.com'", "export PRICING_PASSWORD_2='qa-password-2'", "export PRICING_API_KEY_2='qa-api-key-2'",
		"export PRICING_OTHER_EMAIL_2='other-2@example.com'", "export PRICING_OTHER_PASSWORD_2='other-password-2'", "export PRICING_OTHER_API_KEY_2='other-api-key-2'",
		"export PRICING_EMAIL_3='qa-3@example.com'", "export PRICING_PASSWORD_3='qa-password-3'", "export PRICING_API_KEY_3='qa-api-key-3'",
		"export PRICING_OTHER_EMAIL_3='other-3@example.com'", "export PRICING_OTHER_PASSWORD_3='other-password-3'", "export PRICING_OTHER_API_KEY_3='other-api-key-3'",
	}
	// The seed's lines: its accounts and ids, names, phones and catalogues.
	const seedLines = 26
	if len(lines) != seedLines+len(wantPairs) || strings.Join(lines[seedLines:], "\n") != strings.Join(wantPairs, "\n") ||
		lines[1] != "export PRICING_EMAIL='"+seed.Email+"'" {
		t.Errorf("--print-env --accounts 3:\n%s\nwant the seed's 26 lines, then\n%s", stdout.String(), strings.Join(wantPairs, "\n"))
	}

	base, stop := startRun(t, "--accounts", "3")
	for _, creds := range [][2]string{{"qa-3@example.com", "qa-password-3"}, {"other-2@example.com", "other-password-2"}, {seed.Email, seed.Password}} {
		if code, body := request(t, "POST", base+"/v1/sessions", fmt.Sprintf(`{"email":%q,"password":%q}`, creds[0], creds[1])); code != 200 {
			t.Errorf("POST /v1/sessions as %s: %d %s", creds[0], code, body)
		}
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// Finding "admin API" on the command line: --addr beyond loopback started
// with no word. Now the admin API needs --admin-token there (or
// --no-admin), and the start warns.
func TestParseFlagsBeyondLoopback(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		{name: "loopback", args: []string{"--addr", "127.0.0.1:8080"}},
		{name: "localhost", args: []string{"--addr", "localhost:8080"}},
		{name: "IPv6 loopback", args: []string{"--addr", "[::1]:8080"}},
		{name: "all interfaces without a token", args: []string{"--addr", "0.0.0.0:8080"}, wantErr: "give --admin-token"},
		{name: "no host without a token", args: []string{"--addr", ":8080"}, wantErr: "give --admin-token"},
		{name: "a LAN address without a token", args: []string{"--addr", "192.168.1.5:8080"}, wantErr: "give --admin-token"},
		{name: "all interfaces with a token", args: []string{"--addr", "0.0.0.0:8080", "--admin-token", "t"}},
		{name: "a token from the environment", args: []string{"--addr", "0.0.0.0:8080"}, env: map[string]string{"PRICING_MOCK_ADMIN_TOKEN": "t"}},
		{name: "all interfaces without the admin API", args: []string{"--addr", "0.0.0.0:8080", "--no-admin"}},
		{name: "a zero timeout", args: []string{"--idle-timeout", "0s"}, wantErr: "must be positive"},
		{name: "a tiny head", args: []string{"--max-header-bytes", "100"}, wantErr: "at least 4096"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := parseFlags(tc.args, env(tc.env))
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("error %v, want %q", err, tc.wantErr)
			}
		})
	}
	cfg, err := parseFlags([]string{"--addr", "0.0.0.0:8080", "--admin-token", "t"}, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if w := exposureWarning(cfg, "0.0.0.0:8080"); !strings.Contains(w, "WARNING") || !strings.Contains(w, "beyond this machine") {
		t.Errorf("the warning beyond loopback: %q", w)
	}
	var help bytes.Buffer
	usage(&help, env(map[string]string{"PRICING_MOCK_ADMIN_TOKEN": "from-the-env"}))
	if strings.Contains(help.String(), "from-the-env") {
		t.Errorf("-h prints the admin token of the environment:\n%s", help.String())
	}
	loop, _ := parseFlags(nil, env(nil))
	if w := exposureWarning(loop, "127.0.0.1:8080"); w != "" {
		t.Errorf("a warning on loopback: %q", w)
	}
	if hosts := adminHosts(config{addr: "192.168.1.5:8080", adminHosts: []string{"mock.lan"}}); strings.Join(hosts, ",") != "mock.lan,192.168.1.5" {
		t.Errorf("admin hosts %v, want --admin-hosts and the host of --addr", hosts)
	}
	if hosts := adminHosts(config{addr: "0.0.0.0:8080"}); len(hosts) != 0 {
		t.Errorf("admin hosts of 0.0.0.0: %v, want none", hosts)
	}
}

// The timeouts reach the server: their flags, with the defaults.
func TestParseFlagsTimeouts(t *testing.T) {
	t.Parallel()
	cfg, err := parseFlags([]string{"--read-timeout", "5s", "--write-timeout", "2m", "--idle-timeout", "10s", "--max-header-bytes", "16384"}, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if to := cfg.timeouts; to.Read != 5*time.Second || to.Write != 2*time.Minute || to.Idle != 10*time.Second || to.MaxHeaderBytes != 16384 {
		t.Errorf("timeouts %+v", to)
	}
	def, _ := parseFlags(nil, env(nil))
	if def.timeouts != (mockserver.Timeouts{Read: 30 * time.Second, Write: 90 * time.Second, Idle: 30 * time.Second, MaxHeaderBytes: 64 << 10}) {
		t.Errorf("default timeouts %+v", def.timeouts)
	}
}

// Finding "--state in a missing directory": the mock started and
// persisted nothing. Now it stops at once: exit 2 and one line.
func TestRunRefusesStateFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for path, want := range map[string]string{
		dir + "/missing/state.json": "does not exist",
		"main.go/state.json":        "is not a folder",
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--state", path}, env(nil), &stdout, &stderr)
		got := stderr.String()
		if code != 2 || strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "pricing-mock: --state "+path+": ") || !strings.Contains(got, want) {
			t.Errorf("--state %s: exit %d, stderr %q; want 2 and one line saying %q", path, code, got, want)
		}
		if stdout.Len() != 0 {
			t.Errorf("--state %s: stdout %q; the mock must not start", path, stdout.String())
		}
	}
}

// The admin token protects the admin API of the running program.
func TestRunAdminToken(t *testing.T) {
	t.Parallel()
	base, _ := startRun(t, "--admin-token", "s3cret")
	if code, _ := request(t, "GET", base+"/__admin/requests", ""); code != 401 {
		t.Errorf("GET /__admin/requests without the token: %d, want 401", code)
	}
	if code, _ := request(t, "GET", base+"/__admin/requests", "", "Authorization", "Bearer s3cret"); code != 200 {
		t.Errorf("GET /__admin/requests with the token: %d, want 200", code)
	}
	if code, _ := request(t, "GET", base+"/v1/plans", ""); code != 200 {
		t.Errorf("GET /v1/plans: %d; the API needs no admin token", code)
	}
}

// Also found: the README started a mock in the background on 8080 and,
// further down, another one with a fault; the second could not bind, and
// the suite passed against the first. A mock that cannot bind its address
// exits non-zero at once, saying why.
func TestAddressInUseExitsAtOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"--addr", ln.Addr().String(), "--fault", "forbidden-as-404"}, env(nil), &stdout, &stderr)
	}()
	select {
	case code := <-done:
		if code == 0 || !strings.Contains(stderr.String(), "address already in use") {
			t.Errorf("exit %d, stderr %q; want non-zero and the reason", code, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a mock whose address is taken is still running after 5 s")
	}
}

// Finding "no lock on the state file": a second mock on the same --state
// served it too. Now it exits 2 with one line before it starts, and the
// first one goes on with its file.
func TestRunSecondMockOnTheSameState(t *testing.T) {
	t.Parallel()
	path, _, stop := startQuentin(t)
	var stdout, stderr syncBuffer
	// Were it to start, it would serve until the deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	code := run(ctx, []string{"--addr", "127.0.0.1:0", "--state", path}, env(nil), &stdout, &stderr)
	got := stderr.String()
	if code != 2 || strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "pricing-mock: --state "+path+": another pricing-mock serves it") {
		t.Errorf("a second mock on the file: exit %d, stderr %q; want 2 and one line saying another mock serves it", code, got)
	}
	if stdout.String() != "" {
		t.Errorf("the second mock started: %q", stdout.String())
	}
	if code := stop(); code != 0 {
		t.Fatalf("the first mock exited %d", code)
	}
	base, _ := startRun(t, "--state", path)
	if code, body := request(t, "GET", base+"/v1/users/1", "", "Authorization", "api-key "+seed.APIKey); code != 200 || !strings.Contains(body, `"firstName":"Quentin"`) {
		t.Errorf("after a restart: %d %s, want the first mock's change", code, body)
	}
}
