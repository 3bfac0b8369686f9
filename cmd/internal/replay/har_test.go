package replay

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// The foreign seed's accounts (fixtures/foreign), whose secrets are none of
// the default mock's: a recording made there and replayed against the
// default mock maps its accounts by the order it uses them.
const (
	foreignEmailA = "contract-qa-a@pricing-staging.test"
	foreignPassA  = "staging-password-a"
	foreignKeyA   = "staging-api-key-a"
	foreignEmailB = "contract-qa-b@pricing-staging.test"
	foreignPassB  = "staging-password-b"
)

// recordedHAR is a HAR of a frontend's session and what it holds.
type recordedHAR struct {
	har []byte
	// others counts the requests to the servers that are not the API: the
	// page's own (its files) and another host's API (analytics).
	others *hits
	// secrets are the recording's credentials, found by the test itself.
	secrets []string
}

// recordHAR drives a frontend's session against a mock of the foreign seed
// through a transport that records a HAR: the page's files from its own
// host, a preflight, logins of both accounts, a profile saved, a client
// made and renamed (the session token in the query), apps by hash and by
// name, the platforms, an analytics call to another host carrying the api
// key, a read extension and a call of the mock's admin API, and a PUT of
// another's user.
func recordHAR(t *testing.T) recordedHAR {
	t.Helper()
	others := &hits{}
	page := httptest.NewServer(others.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch filepath.Ext(r.URL.Path) {
		case ".js":
			w.Header().Set("Content-Type", "text/javascript")
		case ".css":
			w.Header().Set("Content-Type", "text/css")
		default:
			w.Header().Set("Content-Type", "text/html")
		}
		io.WriteString(w, "<!doctype html><title>frontend</title>")
	})))
	t.Cleanup(page.Close)
	analytics := httptest.NewServer(others.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	})))
	t.Cleanup(analytics.Close)
	m := mocktest.MustStart(t, mocktest.Options{Fixtures: fixtures.Foreign()})
	tr := &harTransport{}
	s := &session{t: t, base: m.URL, client: &http.Client{Transport: tr}}
	get := func(u string) {
		req, _ := http.NewRequest("GET", u, nil)
		res, err := s.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	get(page.URL + "/")
	get(page.URL + "/app.js")
	get(page.URL + "/style.css")
	get(m.Origin() + "/openapi.json") // a file of the API's own host
	s.call("OPTIONS", "/sessions", map[string]string{"Origin": page.URL, "Access-Control-Request-Method": "POST"}, nil)
	if s.login(foreignEmailA, foreignPassA) != 200 {
		t.Fatal("the foreign account A does not log in")
	}
	tokenA := s.token
	_, me := s.call("GET", "/users/1101", s.withToken(), nil)
	s.call("PUT", "/users/1101", s.withToken(), userBody(me, map[string]any{"firstName": "Recorded", "phoneCountry": map[string]any{"id": 1071}}))
	status, client := s.call("POST", "/clients", map[string]string{"Authorization": "api-key " + foreignKeyA}, map[string]any{
		"name": "Frontend AG", "addressLine1": "Bahnhofstrasse 2", "addressCity": "Zurich", "addressPostcode": "8001",
		"addressCountry": "Switzerland", "vat": "CHE-999.999.999", "currency": map[string]any{"id": 1015}, "terms": "I agree"})
	if status != 200 {
		t.Fatalf("POST /clients: %d %s", status, client.Raw)
	}
	s.call("PUT", "/clients/"+client.Get("id").Raw+"?sessionToken="+tokenA, nil, map[string]any{
		"name": "Frontend AG (renamed)", "addressLine1": "Bahnhofstrasse 2", "addressCity": "Zurich", "addressPostcode": "8001",
		"addressCountry": "Switzerland", "currency": map[string]any{"id": 1022}, "terms": "I agree"})
	s.call("POST", "/apps", s.withToken(), map[string]any{"marketapp": map[string]any{"hash": "13befaec5190d23ad60b8ee6553cdee83d5c0a16"}, "nextplan": map[string]any{"id": 1057}})
	s.call("POST", "/apps", s.withToken(), map[string]any{"name": "Frontend Game", "platform": map[string]any{"id": 1001}, "nextplan": map[string]any{"id": 1050}})
	s.call("GET", "/platforms", nil, nil)
	req, _ := http.NewRequest("POST", analytics.URL+"/collect", strings.NewReader(`{"event":"saved","apiKey":"`+foreignKeyA+`"}`))
	req.Header.Set("Content-Type", "application/json")
	if res, err := s.client.Do(req); err == nil {
		res.Body.Close()
	}
	get(m.Origin() + "/__admin/requests")
	if s.login(foreignEmailB, foreignPassB) != 200 {
		t.Fatal("the foreign account B does not log in")
	}
	tokenB := s.token
	_, other := s.call("GET", "/users/1108", s.withToken(), nil)
	s.call("PUT", "/users/1108", s.withToken(), userBody(other, map[string]any{"lastName": "Recorded"}))
	if status, _ := s.call("PUT", "/users/1101", s.withToken(), userBody(me, nil)); status != 403 {
		t.Fatalf("B changing A's user: %d, want 403", status)
	}
	return recordedHAR{har: tr.har(t), others: others, secrets: []string{foreignPassA, foreignKeyA, foreignPassB, tokenA, tokenB}}
}

// replayRun is one run of pricing-contract replay, as a pipeline runs it.
type replayRun struct {
	code           int
	stdout, stderr string
	dir            string // --out, --report and --junit are in it
}

func runReplay(t *testing.T, m *mocktarget.Mock, recording string) replayRun {
	t.Helper()
	dir := t.TempDir()
	var out, errs bytes.Buffer
	code := Main(context.Background(), []string{"--base-url", m.URL, "--out", filepath.Join(dir, "reproducers"),
		"--report", filepath.Join(dir, "report.html"), "--junit", filepath.Join(dir, "report.xml"), "--seed", "7", recording},
		m.Getenv, &out, &errs)
	return replayRun{code: code, stdout: out.String(), stderr: errs.String(), dir: dir}
}

// everything is what a run printed and every file it wrote.
func (r replayRun) everything(t *testing.T) map[string]string {
	t.Helper()
	all := map[string]string{"stdout": r.stdout, "stderr": r.stderr}
	filepath.WalkDir(r.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			all[p] = string(b)
		}
		return nil
	})
	return all
}

// leaks names each output that quotes a secret.
func leaks(outputs map[string]string, secrets []string) []string {
	var found []string
	for name, text := range outputs {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				found = append(found, name+" quotes "+s)
			}
		}
	}
	slices.Sort(found)
	return found
}

func TestLeaksFindsAPlantedSecret(t *testing.T) {
	if got := leaks(map[string]string{"report.html": "a token abc123secret in it"}, []string{"abc123secret"}); len(got) != 1 {
		t.Errorf("leaks found %v in an output that quotes the secret", got)
	}
}

// A HAR holds the page's files, another host's API, a preflight and the
// mock's admin API beside the API: the replay lists them as skipped, sends
// none of them (their servers see no request, the target only the API's),
// and finds nothing against the mock; no credential of the recording is in
// anything it prints or writes.
func TestReplayHARSendsOnlyTheAPI(t *testing.T) {
	rec := recordHAR(t)
	recording := writeFile(t, "session.har", rec.har)
	before := len(rec.others.seen())
	if before < 4 {
		t.Fatalf("the counters saw %d of the recording's requests to the page's host and another's, not the 4 the session sent", before)
	}
	seen := &hits{}
	target := mocktarget.MustStart(t, mocktest.Options{Wrap: seen.wrap})
	r := runReplay(t, target, recording)
	if r.code != 0 {
		t.Fatalf("exit %d against the mock, want 0\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	t.Logf("\n%s\n%s", r.stderr, r.stdout)
	if after := rec.others.seen(); len(after) != before {
		t.Errorf("the replay sent %v to the page's host or another's", after[before:])
	}
	for _, p := range seen.seen() {
		// GET /v1 is the base URL, where a target may list its catalogues
		// (target.ReadCatalogues): a request of the API too.
		if p != "GET /v1" && !strings.HasPrefix(p, "GET /v1/") && !strings.HasPrefix(p, "PUT /v1/") && !strings.HasPrefix(p, "POST /v1/") {
			t.Errorf("the target received %s, no request of the API", p)
		}
	}
	for _, want := range []string{
		"recorded request 1, GET 127.0.0.1", "a static file (127.0.0.1",
		"a CORS preflight", "another host than the API's", "the mock's admin API", "a read extension of the mock",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the replay does not say %q", want)
		}
	}
	for _, want := range []string{foreignEmailA + ", user 1101 → account A", foreignEmailB + ", user 1108 → account B"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the summary does not map %q", want)
		}
	}
	if !strings.Contains(r.stdout, "0 diverged") {
		t.Errorf("the summary has no count of divergences:\n%s", r.stdout)
	}
	if l := leaks(r.everything(t), rec.secrets); len(l) > 0 {
		t.Errorf("a recorded credential in the replay's output:\n%s", strings.Join(l, "\n"))
	}
}

// Against a defect on a path the recording used, the replay reports a
// divergence (exit 1) with a reproducer that fails against the defect and
// passes against the mock; no credential of the recording is in anything
// it prints or writes, the reproducer and the reports included.
func TestReplayHARFindsADefect(t *testing.T) {
	rec := recordHAR(t)
	recording := writeFile(t, "session.har", rec.har)
	ds := testenv.Variants(t, "user-profile-not-stored")
	bad := mocktarget.MustStart(t, mocktest.Options{Servers: ds})
	r := runReplay(t, bad, recording)
	if r.code != 1 {
		t.Fatalf("exit %d against user-profile-not-stored, want 1\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(r.dir, "reproducers", "*.feature"))
	if len(files) == 0 {
		t.Fatalf("no reproducer written\n%s", r.stdout)
	}
	for _, f := range files {
		text, _ := os.ReadFile(f)
		if !strings.Contains(string(text), "# recorded request ") {
			t.Errorf("%s names no recorded request:\n%s", f, text)
		}
		if code := runFeature(t, bad, f); code != 1 {
			t.Errorf("%s: exit %d against the defect, want 1\n%s", filepath.Base(f), code, text)
		}
		if code := runFeature(t, mocktarget.MustStart(t, mocktest.Options{}), f); code != 0 {
			t.Errorf("%s: exit %d against the mock, want 0\n%s", filepath.Base(f), code, text)
		}
	}
	junit, _ := os.ReadFile(filepath.Join(r.dir, "report.xml"))
	if !strings.Contains(string(junit), "<failure") || !strings.Contains(string(junit), "Feature: a divergence found by pricing-contract replay") {
		t.Errorf("the JUnit report has no failure with its reproducer:\n%.3000s", junit)
	}
	html, _ := os.ReadFile(filepath.Join(r.dir, "report.html"))
	for _, want := range []string{`id="requests"`, ">diverged<", ">skipped<", ">matched<"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the HTML report has no %q", want)
		}
	}
	if l := leaks(r.everything(t), rec.secrets); len(l) > 0 {
		t.Errorf("a recorded credential in the replay's output:\n%s", strings.Join(l, "\n"))
	}
	if d := os.Getenv("REPLAY_KEEP"); d != "" {
		os.CopyFS(d, os.DirFS(r.dir))
	}
	if !gjson.Valid(string(rec.har)) {
		t.Error("the recording is no JSON")
	}
}

// runFeature runs a reproducer with the suite against a mock, as a user
// runs one, and returns the exit status.
func runFeature(t *testing.T, m *mocktarget.Mock, f string) int {
	t.Helper()
	var out, errs bytes.Buffer
	code := contract.Run(context.Background(), []string{"--base-url", m.URL, "--features", filepath.Dir(f), "--godog.paths", filepath.Base(f), "--godog.format", "progress"},
		func(string) string { return "" }, &out, &errs)
	if code != 0 {
		t.Logf("%s against %s: exit %d\n%s\n%s", filepath.Base(f), m.URL, code, out.String(), errs.String())
	}
	return code
}
