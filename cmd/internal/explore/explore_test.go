package explore

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/mockserver/defects"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The explorer finds nothing against the reference implementation.
func TestExploreFindsNoDivergenceInTheMock(t *testing.T) {
	m := mocktest.MustStart(t, mocktest.Options{})
	res, err := Run(context.Background(), m.Profile, 40, 1, 0)
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

// Nor against the blind audits' correct servers: each made another choice
// the spec leaves open, and the comparison grants it.
func TestExploreFindsNoDivergenceInLegalVariants(t *testing.T) {
	for _, v := range variants.Blind20261126.Legal {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			m := mocktest.MustStart(t, mocktest.Options{Wrap: func(h http.Handler) http.Handler { return v.Wrap(h, func() {}) }})
			res, err := Run(context.Background(), m.Profile, 30, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			if res.divergence != nil {
				t.Fatalf("a divergence against a correct server (%s): %s\n%s", v.Why, res.divergence.reason, res.divergence.feature())
			}
		})
	}
}

// The reproducers checked in under testdata/reproducers, each written by
// the explorer for the defect its file is named after, run with the suite
// as a user runs one: they pass against the mock and fail against their
// defect.
func TestCheckedInReproducers(t *testing.T) {
	files, err := filepath.Glob("testdata/reproducers/*.feature")
	if err != nil || len(files) == 0 {
		t.Fatalf("no reproducer under testdata/reproducers (%v)", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".feature")
		t.Run(name, func(t *testing.T) {
			ds, err := defects.Find([]string{name})
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Dir(f)
			run := func(base string) (int, string) {
				var out, errs bytes.Buffer
				code := contract.Run(context.Background(), []string{"--base-url", base, "--features", dir, "--godog.paths", filepath.Base(f), "--godog.format", "progress"},
					func(string) string { return "" }, &out, &errs)
				return code, out.String() + errs.String()
			}
			clean := mocktest.MustStart(t, mocktest.Options{})
			if code, out := run(clean.URL); code != 0 {
				t.Errorf("the reproducer fails against the mock (exit %d):\n%s", code, out)
			}
			bad := mocktest.MustStart(t, mocktest.Options{Defects: ds})
			if code, out := run(bad.URL); code != 1 {
				t.Errorf("the reproducer does not fail against %s (exit %d):\n%s", name, code, out)
			}
		})
	}
}
