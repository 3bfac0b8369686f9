package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

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
	f1 := variants.Server{Name: "caught", Rule: "7.2", Why: "d1"}
	f2 := variants.Server{Name: "missed", Rule: "8", Why: "d2"}
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

// A wrong server's run reads its area's feature first: each area but the
// one about every answer has a feature of its name, so that renaming one
// does not silently undo the order.
func TestAreaFirst(t *testing.T) {
	for _, a := range []variants.Area{variants.Auth, variants.Users, variants.Clients, variants.Apps, variants.Sessions} {
		if got := areaFirst(a); len(got) != 2 || got[0] != string(a)+".feature" || got[1] != "." {
			t.Errorf("areaFirst(%s) = %q, want its feature, then every feature", a, got)
		}
	}
	if got := areaFirst(variants.Representation); len(got) != 1 || got[0] != "." {
		t.Errorf("areaFirst(representation) = %q, want every feature", got)
	}
}
