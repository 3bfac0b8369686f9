package main

import (
	"bytes"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// Every output of every command refuses a symbolic link at its path
// (--force or not: it could point at anyone's file) and a file the tools
// did not write (without --force), before it sends anything: exit 2, the
// file pointed at or found left as it was.
func TestOutputsRefuseLinksAndOtherFiles(t *testing.T) {
	t.Parallel()
	closed := "http://127.0.0.1:1/v1" // nothing is sent: a command that got that far would exit 3
	for _, tc := range []struct {
		name string
		args func(dir, out string) []string
	}{
		{"suite --report", func(dir, out string) []string { return []string{"--base-url", closed, "--report", out} }},
		{"suite --coverage", func(dir, out string) []string { return []string{"--base-url", closed, "--coverage", out} }},
		{"suite junit", func(dir, out string) []string {
			return []string{"--base-url", closed, "--godog.format", "progress,junit:" + out}
		}},
		{"init --output", func(dir, out string) []string { return []string{"init", "--base-url", closed, "--output", out} }},
		{"explore --coverage", func(dir, out string) []string {
			return []string{"explore", "--base-url", closed, "--coverage", out, "--out", dir}
		}},
		{"replay --report", func(dir, out string) []string {
			return []string{"replay", "--base-url", closed, "--report", out, "--out", dir, writeRecording(dir)}
		}},
		{"replay --junit", func(dir, out string) []string {
			return []string{"replay", "--base-url", closed, "--junit", out, "--out", dir, writeRecording(dir)}
		}},
	} {
		for _, at := range []struct {
			name, refused string
			force, link   bool
		}{
			{"a link", "is a symbolic link", false, true},
			{"a link with --force", "is a symbolic link", true, true},
			{"another file", "refused (--force replaces it)", false, false},
		} {
			t.Run(tc.name+" at "+at.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				out, other := filepath.Join(dir, "out"), filepath.Join(dir, "someone-elses")
				if err := os.WriteFile(other, []byte("someone else's"), 0o644); err != nil {
					t.Fatal(err)
				}
				if at.link {
					if err := os.Symlink(other, out); err != nil {
						t.Fatal(err)
					}
				} else if err := os.WriteFile(out, []byte("my notes"), 0o644); err != nil {
					t.Fatal(err)
				}
				args := tc.args(dir, out)
				if at.force {
					args = append(args, "--force") // replay reads flags after its recording too
				}
				r := runMain(hostileEnv, args...)
				if r.code != 2 || !strings.Contains(r.stderr, at.refused) {
					t.Errorf("%q: want exit 2 saying %q, got %s", args, at.refused, r)
				}
				if b, _ := os.ReadFile(other); string(b) != "someone else's" {
					t.Errorf("the file a link points at now holds %q", b)
				}
				if fi, err := os.Lstat(out); err != nil || (fi.Mode()&fs.ModeSymlink != 0) != at.link {
					t.Errorf("the path was replaced: %v, %v", fi, err)
				}
			})
		}
	}
}

// What the suite and the explorer write of a failing run (the HTML,
// JUnit and coverage reports, the explorer's coverage and reproducers) is
// mode 0600 and holds no secret in clear: neither a password nor an api
// key of the accounts, nor a session token the target gave them. (init's
// profile: TestInitWritesAProfileTheSuitePasses; replay's outputs:
// cmd/internal/replay's tests.)
func TestOutputsHoldNoSecret(t *testing.T) {
	testenv.SkipShort(t, "runs the suite and the explorer against a wrong server")
	ds := testenv.Variants(t, "forbidden-as-404", "unauthorized-as-403")
	var mu sync.Mutex
	var tokens []string
	token := regexp.MustCompile(`"token":"([^"]+)"`)
	m := mocktest.MustStart(t, mocktest.Options{Servers: ds, Wrap: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			cw := &capture{ResponseWriter: w}
			h.ServeHTTP(cw, r)
			mu.Lock()
			for _, m := range token.FindAllSubmatch(cw.body.Bytes(), -1) {
				tokens = append(tokens, string(m[1]))
			}
			mu.Unlock()
		})
	}})
	dir := t.TempDir()
	suite := runMain(nil, "--base-url", m.URL, "--godog.tags", "@s5", "--godog.concurrency", "4", "--report", filepath.Join(dir, "report.html"),
		"--coverage", filepath.Join(dir, "coverage.json"), "--godog.format", "progress,junit:"+filepath.Join(dir, "report.xml"))
	explored := runMain(nil, "explore", "--base-url", m.URL, "--runs", "60", "--budget", "0", "--seed", "7",
		"--coverage", filepath.Join(dir, "explore.json"), "--out", filepath.Join(dir, "reproducers"))
	if suite.code != 1 || explored.code != 1 {
		t.Fatalf("want the suite and the explorer to fail against forbidden-as-404 and unauthorized-as-403:\n%s\n%s", suite, explored)
	}
	seed := m.Server.Profile()
	mu.Lock()
	secrets := append([]string{seed.Password, seed.APIKey, seed.OtherPassword, seed.OtherAPIKey}, tokens...)
	mu.Unlock()
	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", path, fi.Mode().Perm())
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds the secret %q in clear", path, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files searched for %d secrets (%d session tokens)", files, len(secrets), len(secrets)-4)
	if files < 5 || len(secrets) < 10 {
		t.Errorf("%d files and %d secrets: the run wrote or logged in less than it should", files, len(secrets))
	}
}

// capture keeps what a handler writes, and passes it on.
type capture struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (c *capture) Write(p []byte) (int, error) {
	c.body.Write(p)
	return c.ResponseWriter.Write(p)
}
