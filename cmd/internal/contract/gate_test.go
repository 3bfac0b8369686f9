package contract_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/steps"
)

// gateRun runs the command against base with args, and returns its exit
// status and what it wrote.
func gateRun(t *testing.T, base string, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := contract.Command{Explore: explorer}.Run(context.Background(), append([]string{"--base-url", base}, args...), func(string) string { return "" }, &out, &errs)
	return code, out.String(), errs.String()
}

// explorer is the explorer as cmd/pricing-contract gives it to the gate.
func explorer(ctx context.Context, p steps.Profile, c contract.ExploreConfig) (contract.Exploration, error) {
	res, err := explore.Run(ctx, p, explore.Config{Budget: c.Budget, Seed: c.Seed, Timeout: c.Timeout, Progress: c.Progress, HTTPClient: c.HTTPClient})
	if err != nil {
		return nil, err
	}
	return res, nil
}

type junitDoc struct {
	Suites []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// The gate runs the scenarios and the explorer with one exit status; each
// divergence is a failed case of the JUnit report with its reproducer, a
// failed scenario of the HTML report, and a line of the console's summary;
// its reproducer is kept in --reproducers DIR, which the next run of the
// gate runs with the scenarios.
func TestGateReportsDivergencesAndKeepsReproducers(t *testing.T) {
	testenv.SkipShort(t, "runs the gate twice with an exploration")
	ds := testenv.Variants(t, "unauthorized-as-403")
	bad := mocktest.MustStart(t, mocktest.Options{Servers: ds})
	dir := t.TempDir()
	kept, junit, html := filepath.Join(dir, "kept"), filepath.Join(dir, "report.xml"), filepath.Join(dir, "report.html")
	code, out, errs := gateRun(t, bad.URL, "--godog.tags", "@s9 && ~@reference", "--explore", "4s", "--explore-seed", "7",
		"--reproducers", kept, "--godog.format", "progress,junit:"+junit, "--report", html)
	if code != 1 {
		t.Fatalf("exit %d against a defect the explorer finds, want 1\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "divergence 1: ") || !strings.Contains(out, "reproducer: "+kept) {
		t.Errorf("the console's summary names no divergence with its kept reproducer:\n%s", out)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var cases int
	for _, s := range doc.Suites {
		if s.Name != "pricing-contract explore" {
			continue
		}
		for _, c := range s.Cases {
			cases++
			if c.Failure == nil || !strings.Contains(c.Failure.Text, "Feature: a divergence found by pricing-contract explore") {
				t.Errorf("the case %q is no failure with its reproducer attached", c.Name)
			}
		}
	}
	if cases == 0 {
		t.Errorf("the JUnit report has no case of the explorer:\n%.2000s", b)
	}
	page, _ := os.ReadFile(html)
	if !strings.Contains(string(page), `id="exploration"`) || !strings.Contains(string(page), "Feature: a divergence found by pricing-contract explore") {
		t.Error("the HTML report shows no exploration, or no reproducer")
	}
	files, _ := filepath.Glob(filepath.Join(kept, "*.feature"))
	if len(files) != cases {
		t.Fatalf("%d reproducers kept for %d divergences", len(files), cases)
	}

	// The next run of the gate runs the kept reproducers with the
	// scenarios: they fail against the defect and pass against the mock.
	for _, tc := range []struct {
		base string
		want int
	}{{bad.URL, 1}, {mocktest.MustStart(t, mocktest.Options{}).URL, 0}} {
		code, out, errs := gateRun(t, tc.base, "--godog.tags", "@explorer", "--reproducers", kept, "--godog.format", "progress")
		if code != tc.want {
			t.Errorf("the kept reproducers alone: exit %d, want %d\n%s\n%s", code, tc.want, out, errs)
		}
		if !strings.Contains(errs, "kept reproducers of "+kept) {
			t.Errorf("the run does not say it runs the kept reproducers:\n%s", errs)
		}
	}
}

// Against a correct server the gate with an exploration passes, and its
// reports hold no case of the explorer.
func TestGatePassesACorrectServer(t *testing.T) {
	testenv.SkipShort(t, "runs the gate with an exploration")
	m := mocktest.MustStart(t, mocktest.Options{})
	junit := filepath.Join(t.TempDir(), "report.xml")
	code, out, errs := gateRun(t, m.URL, "--godog.tags", "@s9 && ~@reference", "--explore", "3s", "--explore-seed", "1",
		"--reproducers", filepath.Join(t.TempDir(), "kept"), "--godog.format", "progress,junit:"+junit)
	if code != 0 {
		t.Fatalf("exit %d against the mock\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "divergences: 0") || !strings.Contains(out, "input space:") {
		t.Errorf("the summary says nothing of the exploration:\n%s", out)
	}
	if b, _ := os.ReadFile(junit); strings.Contains(string(b), "pricing-contract explore") {
		t.Error("a JUnit case of the explorer against the mock")
	}
}
