package explore

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	servers "github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

// The explorer finds nothing against the reference implementation.
func TestExploreFindsNoDivergenceInTheMock(t *testing.T) {
	m := mocktarget.MustStart(t, mocktest.Options{})
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
			ds, err := servers.Find([]string{name})
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
			bad := mocktest.MustStart(t, mocktest.Options{Servers: ds})
			if code, out := run(bad.URL); code != 1 {
				t.Errorf("the reproducer does not fail against %s (exit %d):\n%s", name, code, out)
			}
		})
	}
}
