package steps_test

// This is the only file of steps/ that knows the mock: the step library
// itself must stay free of it, since it runs against any implementation.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/features"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/steps"
)

// godogFlags receives godog's flags given after -args, e.g.
//
//	go test ./steps -run TestContract -args --godog.tags=@s8 --godog.format=pretty
//
// They must be on flag.CommandLine before the testing package parses it.
var godogFlags = godog.Options{Format: "progress", Concurrency: 4}

func init() {
	usage := flag.CommandLine.Usage // keep `go test -h` as the testing package prints it
	godog.BindFlags("godog.", flag.CommandLine, &godogFlags)
	flag.CommandLine.Usage = usage
}

// inProcessPairs is the pool of TestContract's in-process mock: as many
// pairs as scenarios run at once by default.
const inProcessPairs = 4

// TestContract runs every feature, each scenario as a subtest, against an
// in-process mock with a pool of pairs of accounts, @reference scenarios
// included. With PRICING_BASE_URL set it
// targets that server instead (profile from the PRICING_* environment) and
// leaves out @reference unless PRICING_REFERENCE=1. --godog.paths name files
// of the embedded features (`--godog.paths=users.feature:12`), which go test
// rebuilds from features/ on every run.
func TestContract(t *testing.T) {
	opts := godogFlags
	opts.Paths = append([]string(nil), godogFlags.Paths...)
	if opts.Format == "pretty" {
		opts.Concurrency = 1 // pretty output of concurrent scenarios is interleaved
	}

	var profile steps.Profile
	if os.Getenv("PRICING_BASE_URL") != "" {
		// As pricing-contract reads it: the mock's seed stands in for the
		// values not given only against the default mock (Identify).
		var err error
		if profile, _, err = steps.LoadProfile("", os.Getenv); err != nil {
			t.Fatalf("target profile from the environment: %v", err)
		}
		if os.Getenv("PRICING_REFERENCE") != "1" {
			opts.Tags = andTags("~@reference", opts.Tags)
		}
		t.Logf("target %s (from PRICING_BASE_URL), tags %q", profile.BaseURL, opts.Tags)
	} else {
		// A pool of pairs, so that the scenarios changing an account run
		// at once too.
		profile = startTarget(t, mocktest.Options{Pairs: inProcessPairs}).Profile
	}

	if opts.Randomize == 0 {
		opts.Randomize = rand.Int64N(99998) + 1
	}
	t.Logf("random order seed %d (rerun it with -args --godog.random=%d)", opts.Randomize, opts.Randomize)

	opts.TestingT = t
	r := runFeatures(t, profile, opts)
	if godogFlags.Format != "progress" {
		t.Logf("godog output:\n%s", r.output) // asked for with --godog.format
	}
	t.Logf("%s\n%s", r.summary(), r.coverage)
	if r.ran == 0 {
		t.Fatalf("no scenario ran (tags %q, paths %q; godog status %d)", opts.Tags, opts.Paths, r.status)
	}
	if r.status != 0 {
		t.Errorf("godog status %d; %d of %d scenarios failed: %s", r.status, len(r.failed), r.ran, strings.Join(r.failed, "; "))
	}
}

// suiteRun is the outcome of one godog run.
type suiteRun struct {
	status   int
	ran      int
	failed   []string // "name [tags]" of each failed scenario
	output   string   // the formatter's output
	coverage string   // the coverage summary
}

// runFeatures runs the embedded features (opts.Paths within them) in strict
// mode. With opts.TestingT set each scenario is a subtest of t; otherwise a
// failing scenario does not fail t and the caller judges the outcome.
func runFeatures(t *testing.T, profile steps.Profile, opts godog.Options) suiteRun {
	t.Helper()
	opts.FS = features.FS
	suite := steps.NewSuite(profile, steps.Options{Output: io.Discard})
	if err := suite.Identify(context.Background()); err != nil {
		t.Fatalf("the target: %v", err)
	}
	o := suite.Run("contract", opts)
	var cov strings.Builder
	if err := suite.Coverage().WriteText(&cov); err != nil {
		t.Errorf("coverage summary: %v", err)
	}
	r := suiteRun{status: o.Status, ran: o.Ran, output: o.Output, coverage: cov.String()}
	for _, f := range o.Failed {
		r.failed = append(r.failed, f.Name+" ["+strings.Join(f.Tags, " ")+"]")
	}
	return r
}

var summaryLine = regexp.MustCompile(`^(\d+ (scenarios|steps)\b|Randomized with seed)`)

// summary is godog's closing lines; the failures themselves are reported
// by the subtests or by failed.
func (r suiteRun) summary() string {
	var b strings.Builder
	for _, line := range strings.Split(r.output, "\n") {
		if summaryLine.MatchString(line) {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// andTags joins godog tag expressions; godog's filter is an AND of clauses.
func andTags(a, b string) string {
	switch {
	case strings.TrimSpace(b) == "":
		return a
	case strings.TrimSpace(a) == "":
		return b
	}
	return a + " && " + b
}

// startMock serves a fresh mock with the default seed on 127.0.0.1, its
// handler wrapped by wrap when given, and returns the seed's target profile
// through the same PRICING_* variables a user would set.
func startMock(t *testing.T, wrap func(http.Handler) http.Handler) steps.Profile {
	t.Helper()
	return startTarget(t, mocktest.Options{Wrap: wrap}).Profile
}

// TestContractOnAPool runs the spec scenarios against the mock with a pool
// of four pairs, eight at once, and with the default single pair, one at a
// time: both pass the preflight and the run, the pool's run changes
// accounts of several pairs, and each run leaves every account and its
// client as the seed had them.
func TestContractOnAPool(t *testing.T) {
	tests := []struct {
		name               string
		pairs, concurrency int
	}{
		{"a pool of four pairs, eight scenarios at once", 4, 8},
		{"the default single pair, one scenario at a time", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			changed := map[string]bool{} // api keys that sent a PUT
			m := startTarget(t, mocktest.Options{Pairs: tt.pairs, Wrap: func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.Method == http.MethodPut {
						mu.Lock()
						changed[strings.TrimPrefix(r.Header.Get("Authorization"), "api-key ")] = true
						mu.Unlock()
					}
					h.ServeHTTP(w, r)
				})
			}})
			fresh := startTarget(t, mocktest.Options{Pairs: tt.pairs})
			if err := steps.NewSuite(m.Profile, steps.Options{Output: io.Discard}).Preflight(context.Background()); err != nil {
				t.Fatalf("preflight: %v", err)
			}
			r := runFeatures(t, m.Profile, godog.Options{Format: "progress", Tags: "~@reference", Concurrency: tt.concurrency, Randomize: -1})
			if r.status != 0 || r.ran == 0 {
				t.Fatalf("status %d, %d scenarios; failed: %s", r.status, r.ran, strings.Join(r.failed, "; "))
			}
			keys := []string{m.Profile.APIKey, m.Profile.OtherAPIKey}
			for _, pr := range m.Profile.Pairs {
				keys = append(keys, pr.APIKey, pr.OtherAPIKey)
			}
			pairsChanged := 0
			for i := 0; i < len(keys); i += 2 {
				if changed[keys[i]] {
					pairsChanged++
				}
			}
			if want := min(tt.pairs, 2); pairsChanged < want {
				t.Errorf("the scenarios changed accounts A of %d pairs, want at least %d", pairsChanged, want)
			}
			for _, key := range keys {
				checkAccountAsSeeded(t, m, fresh, key)
			}
		})
	}
}

// checkAccountAsSeeded fails unless the user of the api key, and its
// primary client, are as in a fresh mock: every change was restored. The
// restore sets the password again, and a user may have joined new clients.
func checkAccountAsSeeded(t *testing.T, m, fresh *mockTarget, key string) {
	t.Helper()
	id, ok := m.Server.Store().UserIDForAPIKey(key)
	if !ok {
		t.Errorf("api key %s: no user", key)
		return
	}
	got, err1 := m.Server.Store().User(id)
	want, err2 := fresh.Server.Store().User(id)
	if err1 != nil || err2 != nil {
		t.Fatalf("user %d: %v %v", id, err1, err2)
	}
	got.PasswordLastChanged, got.ClientIDs, want.ClientIDs = want.PasswordLastChanged, nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("user %d (api key %s) after the run:\n got %+v\nwant %+v", id, key, got, want)
	}
	gc, err1 := m.Server.Store().Client(want.PrimaryClientID)
	wc, err2 := fresh.Server.Store().Client(want.PrimaryClientID)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(gc, wc) {
		t.Errorf("client %d of user %d after the run:\n got %+v (%v)\nwant %+v (%v)", want.PrimaryClientID, id, gc, err1, wc, err2)
	}
}

// TestBrokenMockIsCaught breaks the mock in ways the spec forbids and checks
// that the spec scenarios of the broken section fail, while the same
// scenarios pass against the intact mock (so the failure is the breakage's).
func TestBrokenMockIsCaught(t *testing.T) {
	tests := []struct {
		name      string
		tags      string
		breakMock func(http.Handler) http.Handler
	}{
		{"403 answered as 404", "@s5", rewriteResponses(func(status int, body []byte) (int, []byte) {
			if status == http.StatusForbidden {
				return http.StatusNotFound, body
			}
			return status, body
		})},
		{"255 limit not enforced", "@s8", truncateRequestStrings(255)},
		{"error body not an array", "@s7.1", rewriteResponses(func(status int, body []byte) (int, []byte) {
			if status == http.StatusBadRequest {
				return status, []byte(`{"errors":` + string(body) + `}`)
			}
			return status, body
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := godog.Options{
				Format:      "progress",
				Tags:        andTags("~@reference", tt.tags),
				Concurrency: 4,
				Randomize:   -1,
			}

			intact := runFeatures(t, startMock(t, nil), opts)
			if intact.ran == 0 {
				t.Fatalf("no spec scenario tagged %s", tt.tags)
			}
			if intact.status != 0 {
				t.Fatalf("against the intact mock, status %d; failed: %s\n%s", intact.status, strings.Join(intact.failed, "; "), intact.output)
			}

			broken := runFeatures(t, startMock(t, tt.breakMock), opts)
			if broken.status == 0 || len(broken.failed) == 0 {
				t.Fatalf("the suite passed against a mock where %s (%d scenarios ran)\n%s", tt.name, broken.ran, broken.summary())
			}
			t.Logf("%d of %d %s scenarios caught it:\n  %s", len(broken.failed), broken.ran, tt.tags, strings.Join(broken.failed, "\n  "))
		})
	}
}

// rewriteResponses lets edit change the status and body of every answer.
func rewriteResponses(edit func(status int, body []byte) (int, []byte)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return rewrite.Answers(next, func(a *rewrite.Answer) { a.Status, a.Body = edit(a.Status, a.Body) })
	}
}

// truncateRequestStrings cuts every string of a JSON request body, at any
// depth, to n runes before the mock sees it: the mock then accepts what a
// server enforcing the limit must refuse.
func truncateRequestStrings(n int) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, err := io.ReadAll(r.Body)
			r.Body.Close()
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.UseNumber()
			var v any
			if dec.Decode(&v) == nil {
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				if enc.Encode(truncateStrings(v, n)) == nil {
					body = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
				}
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			r.Header.Set("Content-Length", strconv.Itoa(len(body)))
			next.ServeHTTP(w, r)
		})
	}
}

func truncateStrings(v any, n int) any {
	switch x := v.(type) {
	case string:
		if r := []rune(x); len(r) > n {
			return string(r[:n])
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = truncateStrings(e, n)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = truncateStrings(e, n)
		}
		return x
	default:
		return v
	}
}

func TestTruncateStrings(t *testing.T) {
	long := strings.Repeat("é", 300)
	in := map[string]any{"a": long, "n": json.Number("12345678901234567890"), "o": map[string]any{"b": []any{long, "x", nil, true}}}
	got, err := json.Marshal(truncateStrings(in, 255))
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Repeat("é", 255)
	want := `{"a":"` + cut + `","n":12345678901234567890,"o":{"b":["` + cut + `","x",null,true]}}`
	if string(got) != want {
		t.Errorf("truncateStrings:\n got %s\nwant %s", got, want)
	}
}

// mockTarget is a mock on 127.0.0.1 and the suite's profile of it, read
// from the PRICING_* variables the mock gives, as from a user's
// environment. (cmd/internal/mocktarget does the same for the commands'
// tests, which steps may not import.)
type mockTarget struct {
	*mocktest.Mock
	Profile steps.Profile
}

func startTarget(t *testing.T, opts mocktest.Options) *mockTarget {
	t.Helper()
	m := mocktest.MustStart(t, opts)
	p := steps.ProfileFromEnv(m.Getenv)
	if err := p.Validate(); err != nil {
		t.Fatalf("the mock's profile: %v", err)
	}
	return &mockTarget{Mock: m, Profile: p}
}
