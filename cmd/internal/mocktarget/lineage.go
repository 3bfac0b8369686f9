package mocktarget

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/discover"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/steps"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// Lineage is a server of another lineage (variants.Server.Lineage) served
// on 127.0.0.1, and the suite's profile of it as a QA engineer makes one:
// pricing-contract init given its base URL and pair 1's accounts, then, if
// asked for, the values its documentation gives (Lineage.Known) on top.
type Lineage struct {
	URL      string // the base URL, version segment included
	Accounts [][2]variants.Account
	// Env is the PRICING_* variables of the base URL and the accounts: all
	// a user gives init (pairs after the first as PRICING_EMAIL_2 ...).
	Env map[string]string
	// InitProfile is the profile file init wrote, secrets as ${VAR}.
	InitProfile string
	// ProfilePath is that file on disk, for pricing-contract --profile.
	ProfilePath string
	// Profile is the suite's profile: the file read with Env, and Known
	// over it when StartLineage was asked for it.
	Profile steps.Profile
	srv     *httptest.Server
}

// Close stops serving.
func (l *Lineage) Close() { l.srv.Close() }

// StartLineage serves s, a server of another lineage, with pairs pairs of
// accounts, runs init against it in dir, and reads the profile init wrote,
// with the values s's documentation gives on top when known.
func StartLineage(ctx context.Context, s variants.Server, pairs int, known bool, dir string) (*Lineage, error) {
	if s.Lineage == nil {
		return nil, fmt.Errorf("%s is made from the mock, not a server of another lineage", s.Name)
	}
	h, base, accts, err := s.Lineage.New(max(pairs, 1), s.Lineage.Fault)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	l := &Lineage{Accounts: accts, srv: httptest.NewServer(h)}
	l.URL = l.srv.URL + base
	l.Env = lineageEnv(l.URL, accts)
	l.ProfilePath = filepath.Join(dir, s.Name+".profile")
	var stdout, stderr bytes.Buffer
	if code := discover.Init(ctx, []string{"--output", l.ProfilePath, "--force"}, func(k string) string { return l.Env[k] },
		strings.NewReader(""), &stdout, &stderr); code != 0 {
		l.Close()
		return nil, &InitError{Code: code, Output: strings.TrimSpace(stderr.String())}
	}
	text, err := os.ReadFile(l.ProfilePath)
	if err != nil {
		l.Close()
		return nil, err
	}
	l.InitProfile = string(text)
	env := maps.Clone(l.Env)
	if known {
		for key, v := range s.Lineage.Known {
			f, ok := target.Lookup(key)
			if !ok {
				l.Close()
				return nil, fmt.Errorf("%s: Known key %q: no such profile key", s.Name, key)
			}
			env[f.Env] = v
		}
	}
	p, _, err := target.LoadProfile(l.ProfilePath, func(k string) string { return env[k] })
	if err == nil {
		err = p.Validate()
	}
	if err != nil {
		l.Close()
		return nil, fmt.Errorf("%s: the profile init wrote: %w", s.Name, err)
	}
	l.Profile = p
	return l, nil
}

// MustStartLineage is StartLineage for a test: the server stops when tb
// ends.
func MustStartLineage(tb testing.TB, s variants.Server, pairs int, known bool) *Lineage {
	tb.Helper()
	l, err := StartLineage(context.Background(), s, pairs, known, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(l.Close)
	return l
}

// InitError is init refusing the target: exit 3 for a target or accounts
// it cannot use (a wrong server may be one).
type InitError struct {
	Code   int
	Output string
}

func (e *InitError) Error() string { return fmt.Sprintf("init: exit %d: %s", e.Code, e.Output) }

// lineageEnv is what a user gives of a lineage: its base URL and accounts.
func lineageEnv(url string, accts [][2]variants.Account) map[string]string {
	env := map[string]string{"PRICING_BASE_URL": url}
	for i, p := range accts {
		suffix := ""
		if i > 0 {
			suffix = "_" + strconv.Itoa(i+1)
		}
		a, b := p[0], p[1]
		maps.Copy(env, map[string]string{
			"PRICING_EMAIL" + suffix: a.Email, "PRICING_PASSWORD" + suffix: a.Password, "PRICING_API_KEY" + suffix: a.APIKey,
			"PRICING_OTHER_EMAIL" + suffix: b.Email, "PRICING_OTHER_PASSWORD" + suffix: b.Password, "PRICING_OTHER_API_KEY" + suffix: b.APIKey,
		})
	}
	return env
}
