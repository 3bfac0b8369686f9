package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/defects"
)

// shortFaults are run under -short: one of each mechanism (an answer
// rewritten, a request rewritten, a deviation of the domain) and the two
// answered by scenarios added for them.
var shortFaults = []string{"forbidden-as-404", "api-key-scheme-ignored", "terms-not-checked", "marketapp-platform-ignored", "hash-truncated-to-40"}

// TestMutation is the proof that the suite catches every fault: the spec
// scenarios pass against the mock without faults, and fail against it with
// any one fault. Each fault is a parallel subtest that logs the scenarios
// that caught it.
func TestMutation(t *testing.T) {
	clean := runSuite(defects.Defect{})
	if clean.err != nil {
		t.Fatalf("without faults: %v", clean.err)
	}
	if clean.ran == 0 {
		t.Fatal("without faults: no scenario ran")
	}
	if clean.failedRun() {
		t.Fatalf("without faults, %d of %d spec scenarios failed (godog status %d), so no fault can be judged:\n  %s",
			len(clean.failed), clean.ran, clean.status, strings.Join(clean.failed, "\n  "))
	}
	t.Logf("without faults: %d spec scenarios passed", clean.ran)

	faults := defects.All()
	if testing.Short() {
		var err error
		if faults, err = selectFaults(shortFaults); err != nil {
			t.Fatal(err)
		}
	}
	faults = raceSample(t, faults)
	for _, f := range faults {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			o := runSuite(f)
			switch {
			case o.err != nil:
				t.Fatalf("could not run: %v", o.err)
			case !o.failedRun():
				t.Fatalf("survived: all %d spec scenarios passed against the mock with the fault %s (§%s: %s); add a spec-level scenario that catches it",
					o.ran, f.Name, f.Area, f.Description)
			}
			t.Logf("killed by %d of %d scenarios:\n  %s", len(o.failed), o.ran, strings.Join(o.failed, "\n  "))
		})
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string // substrings of stdout
		stderrHas  string
		noTableRun bool
	}{
		{name: "one fault", args: []string{"--fault", "forbidden-as-404"}, code: 0,
			stdout: []string{"without faults: passed", "forbidden-as-404", "killed", "may not modify", "score: 1/1 faults killed (100.0%)"}},
		{name: "unknown fault", args: []string{"--fault", "no-such-fault"}, code: 2,
			stderrHas: `unknown fault "no-such-fault" (known: unauthorized-as-403,`, noTableRun: true},
		{name: "stray argument", args: []string{"forbidden-as-404"}, code: 2,
			stderrHas: `unexpected argument "forbidden-as-404"`, noTableRun: true},
		{name: "no workers", args: []string{"--workers", "0"}, code: 2,
			stderrHas: "--workers must be at least 1", noTableRun: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, &stdout, &stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, &stdout)
				}
			}
			if !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderrHas, &stderr)
			}
			if tt.noTableRun && stdout.Len() > 0 {
				t.Errorf("a usage error printed a report:\n%s", &stdout)
			}
		})
	}
}

func TestReport(t *testing.T) {
	f1 := defects.Defect{Name: "caught", Area: "7.2", Description: "d1"}
	f2 := defects.Defect{Name: "missed", Area: "8", Description: "d2"}
	passed := outcome{ran: 10}
	killed := outcome{fault: f1, ran: 10, status: 1, failed: []string{"a.feature: one", "a.feature: two", "b.feature: three", "b.feature: four"}}
	tests := []struct {
		name    string
		clean   outcome
		results []outcome
		code    int
		want    []string
	}{
		{"all killed", passed, []outcome{killed}, 0, []string{
			"without faults: passed, 10 spec scenarios",
			"caught  §7.2  killed  4: a.feature: one; a.feature: two; b.feature: three; +1 more",
			"score: 1/1 faults killed (100.0%)",
		}},
		{"one survived", passed, []outcome{killed, {fault: f2, ran: 10}}, 1, []string{
			"missed  §8    survived  -",
			"score: 1/2 faults killed (50.0%)",
		}},
		{"not run", passed, []outcome{{fault: f2, err: context.Canceled}}, 1, []string{
			"missed  §8    not run  context canceled",
			"score: 0/1 faults killed (0.0%)",
		}},
		{"clean run failed", outcome{ran: 10, status: 1, failed: []string{"a.feature: broken"}}, []outcome{killed}, 1, []string{
			"without faults: FAILED, 1 of 10 spec scenarios",
			"  a.feature: broken",
		}},
		{"clean run impossible", outcome{err: errors.New("no seed")}, []outcome{killed}, 1, []string{
			"without faults: could not run: no seed",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if code := report(&b, tt.clean, tt.results, false); code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, &b)
				}
			}
		})
	}
}

// raceStride is the step of the fixed sample the whole-catalogue tests run
// under the race detector.
const raceStride = 4

// raceSample is every raceStride-th item under the race detector (the
// data races are in the code every run shares, not in one fault's), all of
// them otherwise.
func raceSample[T any](t *testing.T, items []T) []T {
	if !raceEnabled {
		return items
	}
	var out []T
	for i := 0; i < len(items); i += raceStride {
		out = append(out, items[i])
	}
	t.Logf("under the race detector: %d of %d, every %dth; go test without -race runs them all", len(out), len(items), raceStride)
	return out
}
