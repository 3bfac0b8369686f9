package replay

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// recordJournal drives a frontend's session against a fresh mock (in a
// namespace of its own, as a developer sharing a mock would) and returns
// the mock's journal of it: a login, a profile saved, a client made and
// renamed, an app, the platforms, a read extension, a wrong password, a
// password changed and used, another's user refused.
func recordJournal(t *testing.T) []byte {
	t.Helper()
	m := mocktest.MustStart(t, mocktest.Options{})
	s := &session{t: t, base: m.URL, ns: "frontend"}
	if s.login("qa@example.com", "qa-password") != 200 {
		t.Fatal("the demo account A does not log in")
	}
	_, me := s.call("GET", "/users/1", s.withToken(), nil)
	s.call("PUT", "/users/1", s.withToken(), userBody(me, map[string]any{"firstName": "Recorded", "subscribeBlog": true}))
	status, client := s.call("POST", "/clients", s.withToken(), map[string]any{
		"name": "Frontend Ltd", "addressLine1": "1 Main Street", "addressCity": "London", "addressPostcode": "SW1A 1AA",
		"addressCountry": "United Kingdom", "currency": map[string]any{"id": 1}, "terms": "I agree"})
	if status != 200 {
		t.Fatalf("POST /clients: %d %s", status, client.Raw)
	}
	s.call("PUT", "/clients/"+client.Get("id").Raw, s.withToken(), map[string]any{
		"name": "Frontend Limited", "addressLine1": "1 Main Street", "addressCity": "London", "addressPostcode": "SW1A 1AA",
		"addressCountry": "United Kingdom", "currency": map[string]any{"id": 1}, "terms": "I agree"})
	s.call("POST", "/apps", map[string]string{"Authorization": "api-key qa-api-key"}, map[string]any{
		"name": "My Game", "platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}})
	s.call("GET", "/platforms", nil, nil)
	if s.login("qa@example.com", "not-the-password") != 401 {
		t.Fatal("a wrong password logs in")
	}
	s.login("qa@example.com", "qa-password")
	s.call("PUT", "/users/1", s.withToken(), userBody(me, map[string]any{"firstName": "Recorded", "subscribeBlog": true, "password": "a-new-password"}))
	if s.login("qa@example.com", "a-new-password") != 200 {
		t.Fatal("the new password does not log in")
	}
	s.call("PUT", "/users/2", s.withToken(), userBody(me, nil))
	return s.journal(m.Origin())
}

// A journal recorded against the mock, replayed against a fresh one: every
// request of the spec's operations sent and matched, the read extension
// skipped, the journal's one account mapped onto A.
func TestReplayJournalAgainstTheMock(t *testing.T) {
	rec, err := Parse(recordJournal(t))
	if err != nil {
		t.Fatal(err)
	}
	target := mocktarget.MustStart(t, mocktest.Options{})
	var progress strings.Builder
	res, err := Run(context.Background(), rec, target.Profile, Config{Progress: &progress, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", progress.String())
	var got []string
	for _, o := range res.Outcomes {
		got = append(got, fmt.Sprintf("%d %s", o.N, o.State))
		if o.State != Matched && o.State != Skipped {
			t.Errorf("%s: %s: %s", o.Label, o.State, o.Why)
		}
	}
	want := "1 matched, 2 skipped, 3 matched, 4 matched, 5 matched, 6 matched, 7 matched, 8 matched, 9 matched, 10 matched, 11 matched, 12 matched"
	if strings.Join(got, ", ") != want {
		t.Errorf("outcomes:\n%s\nwant:\n%s", strings.Join(got, ", "), want)
	}
	if len(res.Accounts) != 1 || !strings.HasSuffix(res.Accounts[0], "user 1 → account A (the profile's account of that email or api key)") {
		t.Errorf("accounts: %v", res.Accounts)
	}
}

// Against a defect on a path the journal used (PUT /users stores no names),
// the replay reports the divergence at the first request that shows it, goes
// on from the accounts' known state, skips the login that needs a password
// set in the sequence the divergence ended, and writes a reproducer that
// names the recorded request, fails against the defect and passes against
// the mock.
func TestReplayJournalAgainstADefect(t *testing.T) {
	recording := writeFile(t, "session.json", recordJournal(t))
	ds := testenv.Variants(t, "user-profile-not-stored")
	bad := mocktarget.MustStart(t, mocktest.Options{Servers: ds})
	r := runReplay(t, bad, recording)
	t.Logf("\n%s\n%s", r.stderr, r.stdout)
	if r.code != 1 {
		t.Fatalf("exit %d against user-profile-not-stored, want 1", r.code)
	}
	for _, want := range []string{
		"recorded request 3, PUT /v1/users/1: diverged: afterwards GET /users/1: firstName is",
		"recorded request 10, PUT /v1/users/1: diverged:",
		"recorded request 11, POST /v1/sessions: skipped: it relies on recorded request 10",
		"recorded request 12, PUT /v1/users/2: matched",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the replay does not say %q", want)
		}
	}
	files, _ := filepath.Glob(filepath.Join(r.dir, "reproducers", "*.feature"))
	if len(files) != 1 {
		t.Fatalf("%d reproducers, want the one of request 3 (request 10 found it again)", len(files))
	}
	text, _ := os.ReadFile(files[0])
	if !strings.Contains(string(text), "# recorded request 3, PUT /v1/users/1") {
		t.Errorf("the reproducer does not name the recorded request:\n%s", text)
	}
	if code := runFeature(t, bad, files[0]); code != 1 {
		t.Errorf("the reproducer: exit %d against the defect, want 1", code)
	}
	if code := runFeature(t, mocktarget.MustStart(t, mocktest.Options{}), files[0]); code != 0 {
		t.Errorf("the reproducer: exit %d against the mock, want 0", code)
	}
}

// readmeStagingProfile is the staging profile of the README's "QA: against
// staging", as a file, and the environment its ${VAR}s read.
func readmeStagingProfile(t *testing.T, m *mocktest.Mock) (string, func(string) string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "cat > staging.profile <<'PROFILE'\n")
	block, _, closed := strings.Cut(rest, "\nPROFILE\n")
	if !ok || !closed {
		t.Fatal("README.md has no staging profile")
	}
	path := writeFile(t, "staging.profile", []byte(block+"\n"))
	seed := m.Server.Profile()
	env := map[string]string{"PRICING_STAGING_PASSWORD": seed.Password, "PRICING_STAGING_API_KEY": seed.APIKey,
		"PRICING_STAGING_OTHER_PASSWORD": seed.OtherPassword, "PRICING_STAGING_OTHER_API_KEY": seed.OtherAPIKey}
	return path, func(k string) string { return env[k] }
}

// The README's loop: a journal recorded against the developers' mock (the
// default seed) replayed, with the README's staging profile, against a
// staging that shares no account, id or catalogue with it (a mock of the
// foreign seed): the accounts, the client made, the catalogue ids and the
// other's user are mapped, and every request of the spec is sent and
// matched; against the same staging with a defect, a divergence.
func TestREADMELoopAgainstAForeignStaging(t *testing.T) {
	recording := writeFile(t, "checkout.json", recordJournal(t))
	for _, tc := range []struct {
		fault string
		want  int
	}{{"", 0}, {"client-update-not-stored", 1}} {
		opts := mocktest.Options{Fixtures: fixtures.Foreign()}
		if tc.fault != "" {
			ds := testenv.Variants(t, tc.fault)
			opts.Servers = ds
		}
		staging := mocktest.MustStart(t, opts)
		profile, getenv := readmeStagingProfile(t, staging)
		var out, errs strings.Builder
		dir := t.TempDir()
		code := Main(context.Background(), []string{"--profile", profile, "--base-url", staging.URL, "--out", dir, recording}, getenv, &out, &errs)
		t.Logf("against staging %s:\n%s\n%s", tc.fault, errs.String(), out.String())
		if code != tc.want {
			t.Fatalf("exit %d, want %d", code, tc.want)
		}
		if !strings.Contains(out.String(), "qa@example.com, user 1 → account A") {
			t.Error("the developers' account is not mapped onto staging's A")
		}
		if tc.fault == "" && (!strings.Contains(out.String(), "11 sent (11 matched, 0 diverged), 1 skipped") ||
			!strings.Contains(errs.String(), "is sent as the profile's 1015")) {
			t.Error("not every request of the spec was sent and matched, or the currency was not mapped onto staging's")
		}
		if tc.fault != "" && !strings.Contains(errs.String(), "recorded request 5, PUT /v1/clients/3: diverged") {
			t.Error("the client renamed is not the divergence")
		}
		if tc.fault == "" {
			continue
		}
		// The reproducer, run as the README runs it, with the staging
		// profile: it fails against the defect, passes against a correct
		// staging.
		files, _ := filepath.Glob(filepath.Join(dir, "*.feature"))
		if len(files) != 1 {
			t.Fatalf("reproducers %v", files)
		}
		for _, m := range []*mocktest.Mock{staging, mocktest.MustStart(t, mocktest.Options{Fixtures: fixtures.Foreign()})} {
			var o, e bytes.Buffer
			code := contract.Run(context.Background(), []string{"--profile", profile, "--base-url", m.URL, "--features", filepath.Dir(files[0]),
				"--godog.paths", filepath.Base(files[0]), "--godog.format", "progress"}, getenv, &o, &e)
			if want := map[bool]int{true: 1, false: 0}[m == staging]; code != want {
				t.Errorf("the reproducer with the staging profile: exit %d, want %d\n%s\n%s", code, want, o.String(), e.String())
			}
		}
	}
}
