package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/steps/target"
)

// --print-env prints the seed's profile as the mock's domain renders it
// (pricing.Profile.Env), since the binary links nothing of the suite; the
// suite's own rendering of the same values (target.Profile.SeedEnv, read
// back from those variables) must be line for line the same, so that the
// variables have one definition, the suite's, for every seed and pool.
func TestPrintEnvIsTheSuitesProfile(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--print-env"},
		{"--print-env", "--accounts", "3", "--addr", "127.0.0.1:9999"},
		{"--print-env", "--fixtures", "../../fixtures/foreign"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, env(nil), &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d, stderr %q", args, code, stderr.String())
		}
		printed := map[string]string{}
		var lines []string
		for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
			name, quoted, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
			if !ok || len(quoted) < 2 {
				t.Fatalf("%q: line %q", args, line)
			}
			value := strings.ReplaceAll(quoted[1:len(quoted)-1], `'\''`, `'`)
			printed[name] = value
			lines = append(lines, name+"="+value)
		}
		suites := target.ProfileFromEnv(func(k string) string { return printed[k] }).SeedEnv()
		if got, want := strings.Join(lines, "\n"), strings.Join(suites, "\n"); got != want {
			t.Errorf("%q: --print-env prints\n%s\nthe suite renders the same values as\n%s", args, got, want)
		}
	}
}
