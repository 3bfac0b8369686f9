package main

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
)

// TestBench runs the whole benchmark on the versioning scenarios (@s9) with
// a pool of two pairs and a bound it cannot meet: it prints the mock's PID,
// both times and the ratio of each run, says the bound is not met, exits
// 1, and leaves no mock running. The timing itself is not judged here: the
// benchmark is the judge of timings.
func TestBench(t *testing.T) {
	testenv.SkipShort(t, "builds the binaries and runs the suite four times")
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	code := run(ctx, []string{"--latency", "2ms", "--accounts", "2", "--concurrency", "4", "--runs", "2",
		"--tags", "@s9", "--max-ratio", "0.000001"}, &stdout, &stderr)
	out := stdout.String()
	if code != 1 {
		t.Fatalf("exit %d, want 1 (bound not met); stdout:\n%s\nstderr:\n%s", code, out, stderr.String())
	}
	started := regexp.MustCompile(`(?m)^pricing-bench: pricing-mock --latency 2ms --accounts 2 at http://127\.0\.0\.1:[0-9]+/v1 \(pid ([0-9]+)\)$`).FindStringSubmatch(out)
	if started == nil {
		t.Fatalf("no line naming the mock and its PID:\n%s", out)
	}
	for _, r := range []string{"1", "2"} {
		if !regexp.MustCompile(`(?m)^run ` + r + `: concurrency 1 [0-9.]+s, concurrency 4 [0-9.]+s, ratio [0-9.]+$`).MatchString(out) {
			t.Errorf("no times of run %s:\n%s", r, out)
		}
	}
	if !strings.Contains(out, "pricing-bench: pricing-mock (pid "+started[1]+") stopped") {
		t.Errorf("the mock's stop is not reported:\n%s", out)
	}
	if !strings.Contains(stderr.String(), "want at most 0.000: not met") {
		t.Errorf("stderr does not say the bound was not met: %s", stderr.String())
	}
	pid, _ := strconv.Atoi(started[1])
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the mock (pid %d) still runs: kill -0 answered %v", pid, err)
	}
}

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags(nil, &bytes.Buffer{})
	if err != nil || cfg.latency != 30*time.Millisecond || cfg.accounts != 8 || cfg.concurrency != 16 || cfg.runs != 1 || cfg.maxRatio != 0.15 {
		t.Errorf("defaults %+v, %v; want 30ms, 8 pairs, concurrency 16, one run, at most 0.15", cfg, err)
	}
	for _, args := range [][]string{{"--accounts", "0"}, {"--concurrency", "1"}, {"--runs", "0"}, {"--max-ratio", "0"}, {"extra"}, {"--nope"}} {
		var stderr bytes.Buffer
		if code := run(context.Background(), args, &bytes.Buffer{}, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2 (stderr %q)", args, code, stderr.String())
		}
	}
}
