package explore

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/mockserver/defects"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// The explorer finds nothing against the reference implementation.
func TestExploreFindsNoDivergenceInTheMock(t *testing.T) {
	m := mocktest.MustStart(t, mocktest.Options{})
	res, err := Run(context.Background(), m.Profile, 40, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.divergence != nil {
		t.Fatalf("a divergence against the mock: %s\n%s", res.divergence.reason, res.divergence.feature())
	}
	if res.requests < 40 || len(res.ops) < 20 {
		t.Errorf("%d requests, %d kinds of operation: the run explored little", res.requests, len(res.ops))
	}
	t.Logf("%d sequences, %d requests, %d kinds of operation, 0 divergences", res.sequences, res.requests, len(res.ops))
}

// Against defects of authentication and validation it finds a divergence,
// shrunk to a short sequence whose reproducer fails against the defect and
// passes against the mock.
func TestExploreFindsDefects(t *testing.T) {
	names := []string{"unauthorized-as-403", "session-token-as-api-key", "api-key-as-session-token", "api-key-in-token-query",
		"unknown-id-404-before-auth", "invalid-body-400-before-auth", "password-minimum-5", "forbidden-as-404", "error-fieldname-snake-case",
		// Divergences that show only in a later read (state).
		"refused-user-update-stores-names", "user-profile-not-stored", "forbidden-update-applied", "unauthenticated-update-applied",
		// PUT /clients.
		"client-update-not-stored", "terms-not-checked", "client-permission-skipped"}
	found := 0
	for _, name := range names {
		ds, err := defects.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		m := mocktest.MustStart(t, mocktest.Options{Defects: ds})
		res, err := Run(context.Background(), m.Profile, 300, 7)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.divergence == nil {
			t.Logf("%s: no divergence in %d sequences", name, res.sequences)
			continue
		}
		found++
		t.Logf("%s: %s (%d operations)", name, res.divergence.reason, len(res.divergence.ops))
		dir := t.TempDir()
		path := filepath.Join(dir, "repro.feature")
		if err := os.WriteFile(path, []byte(res.divergence.feature()), 0o644); err != nil {
			t.Fatal(err)
		}
		run := func(base string) int {
			var out, errs bytes.Buffer
			return contract.Run(context.Background(), []string{"--base-url", base, "--features", dir, "--godog.format", "progress"},
				func(string) string { return "" }, &out, &errs)
		}
		if code := run(m.URL); code == 0 {
			t.Errorf("%s: the reproducer passes against the defect:\n%s", name, res.divergence.feature())
		}
		clean := mocktest.MustStart(t, mocktest.Options{})
		if code := run(clean.URL); code != 0 {
			t.Errorf("%s: the reproducer fails against the mock (exit %d):\n%s", name, code, res.divergence.feature())
		}
	}
	t.Logf("divergences found for %d of %d defects", found, len(names))
	if found < len(names)-1 {
		t.Errorf("found %d of %d defects", found, len(names))
	}
	_ = strings.TrimSpace
}
