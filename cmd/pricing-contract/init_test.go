package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/discover"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// TestInitWritesAProfileTheSuitePasses: `pricing-contract init` against the
// mock and against a foreign one writes a profile with which the suite
// passes, every scenario run, and no secret in clear.
func TestInitWritesAProfileTheSuitePasses(t *testing.T) {
	testenv.SkipShort(t, "runs the whole suite through the command; -short runs it once, in steps' TestContract")
	for _, tc := range []struct {
		name string
		opts mocktest.Options
	}{
		{"the default mock", mocktest.Options{}},
		{"a mock of the foreign seed", mocktest.Options{Fixtures: fixtures.Foreign()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := mocktest.MustStart(t, tc.opts)
			seed := m.Server.Profile()
			secrets := map[string]string{
				"PRICING_PASSWORD": seed.Password, "PRICING_API_KEY": seed.APIKey,
				"PRICING_OTHER_PASSWORD": seed.OtherPassword, "PRICING_OTHER_API_KEY": seed.OtherAPIKey,
			}
			path := filepath.Join(t.TempDir(), "target.profile")
			var stdout, stderr bytes.Buffer
			code := discover.Init(context.Background(),
				[]string{"--base-url", m.URL, "--email", seed.Email, "--other-email", seed.OtherEmail, "--output", path},
				func(k string) string { return secrets[k] }, strings.NewReader(""), &stdout, &stderr)
			if code != 0 {
				t.Fatalf("init: exit %d\n%s", code, stderr.String())
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			for k, v := range secrets {
				if strings.Contains(text, v) {
					t.Errorf("the profile holds the value of %s in clear:\n%s", k, text)
				}
				if !strings.Contains(text, "${"+k+"}") {
					t.Errorf("the profile does not refer to ${%s}:\n%s", k, text)
				}
			}
			if strings.Contains(text, "# TODO") {
				t.Errorf("a value the mock shows was not found:\n%s", text)
			}
			r := runMain(secrets, "--profile", path, "--profile-only", "--godog.concurrency", "4", "--godog.format", "progress")
			if r.code != 0 || strings.Contains(r.stderr, "not run: set") {
				t.Fatalf("the suite with the profile init wrote: want exit 0 and every scenario run, got %s\n--- profile:\n%s", r, text)
			}
		})
	}
}

// TestInitRefusesWhatItCannotUse: no accounts is a usage error; accounts
// the target refuses, exit 3; an existing file is kept.
func TestInitRefusesWhatItCannotUse(t *testing.T) {
	m := mocktest.MustStart(t, mocktest.Options{})
	dir := t.TempDir()
	existing := filepath.Join(dir, "kept.profile")
	if err := os.WriteFile(existing, []byte("base_url = http://x/v1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PRICING_EMAIL": "qa@example.com", "PRICING_PASSWORD": "qa-password", "PRICING_API_KEY": "qa-api-key",
		"PRICING_OTHER_EMAIL": "other@example.com", "PRICING_OTHER_PASSWORD": "wrong", "PRICING_OTHER_API_KEY": "other-api-key"}
	// The mock, but for a login answered 503: a server error, which says
	// nothing of the credentials.
	mu, err := url.Parse(m.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: mu.Scheme, Host: mu.Host})
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(failing.Close)
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		say  string
	}{
		{"no accounts", nil, []string{"--base-url", m.URL, "--output", filepath.Join(dir, "a")}, 2, "no email: give --email or set PRICING_EMAIL"},
		{"a wrong password", env, []string{"--base-url", m.URL, "--output", filepath.Join(dir, "b")}, 3, "other@example.com cannot log in with a JSON or a form body (POST /sessions answered 401 to the json body and 4"},
		{"a login answered 503", env, []string{"--base-url", failing.URL + mu.Path, "--other-password", "other-password", "--output", filepath.Join(dir, "d")},
			3, "qa@example.com's credentials was answered 503 to the json body and 503 to the form body: a server error is the target's failure, not the profile's"},
		{"a wrong api key", env, []string{"--base-url", m.URL, "--other-password", "other-password", "--api-key", "not-the-key", "--output", filepath.Join(dir, "c")},
			3, "the api key of qa@example.com is refused"},
		{"an existing file", env, []string{"--base-url", m.URL, "--other-password", "other-password", "--output", existing}, 2, "--force replaces it"},
	} {
		var stdout, stderr bytes.Buffer
		code := discover.Init(context.Background(), tc.args, func(k string) string { return tc.env[k] }, strings.NewReader(""), &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.say) {
			t.Errorf("%s: exit %d, %q; want %d and %q", tc.name, code, stderr.String(), tc.code, tc.say)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "base_url = http://x/v1\n" {
		t.Errorf("init overwrote a file without --force: %q", b)
	}
}

// TestInitFindsWhatACorrectTargetLetsItFind: a target whose collections
// need credentials and which has no read extension shows no plan, currency
// or phone country id in any answer init may ask for without changing
// anything; init finds them by requests every correct target refuses for a
// blank name, which also name an unknown id (the preflight's way).
func TestInitFindsWhatACorrectTargetLetsItFind(t *testing.T) {
	hidden := regexp.MustCompile(`^/v1(\.0)?/(plans|currencies|phoneCountries|marketapps|users/[^/]+(/clients)?|clients/[^/]+(/apps)?|apps/[^/]+)$`)
	m := mocktest.MustStart(t, mocktest.Options{Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.Method == http.MethodGet && hidden.MatchString(r.URL.Path):
				http.NotFound(w, r)
			case r.Method == http.MethodGet && r.Header.Get("Authorization") == "":
				w.WriteHeader(http.StatusUnauthorized)
			default:
				next.ServeHTTP(w, r)
			}
		})
	}})
	seed := m.Server.Profile()
	secrets := map[string]string{
		"PRICING_PASSWORD": seed.Password, "PRICING_API_KEY": seed.APIKey,
		"PRICING_OTHER_PASSWORD": seed.OtherPassword, "PRICING_OTHER_API_KEY": seed.OtherAPIKey,
	}
	var stdout, stderr bytes.Buffer
	code := discover.Init(context.Background(),
		[]string{"--base-url", m.URL, "--email", seed.Email, "--other-email", seed.OtherEmail, "--output", "-"},
		func(k string) string { return secrets[k] }, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("init: exit %d\n%s", code, stderr.String())
	}
	text := stdout.String()
	t.Log(text)
	for _, want := range []string{"\nplatforms = 1:Android,2:iOS\n", "\nplatform_id = 1\n", "\nplan_id = 1\n", "\ncurrency_id = 1\n",
		"\nphone_country_id = 1\n", "\nversion_forms = v1,v1.0\n", "# the target knows the nextplan.id ids 1, 2, 3"} {
		if !strings.Contains(text, want) {
			t.Errorf("the profile has no %q:\n%s", strings.TrimSpace(want), text)
		}
	}
}
