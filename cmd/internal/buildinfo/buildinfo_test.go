package buildinfo

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
)

func TestFormat(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		st   stamp
		want string
	}{
		{"no build info", nil, stamp{}, "p (devel), commit unknown, go version unknown"},
		{"go run or go test: no version, no VCS", &debug.BuildInfo{GoVersion: "go1.26.8"}, stamp{},
			"p (devel), commit unknown, go1.26.8"},
		{"work tree build", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-11-20T10:00:00Z"}, {Key: "vcs.modified", Value: "false"}}}, stamp{},
			"p (devel), commit " + rev + " (2026-11-20T10:00:00Z), go1.26.8"},
		{"tagged build with local changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}}, stamp{},
			"p v0.3.0, commit " + rev + " (modified), go1.26.8"},
		{"release build: -ldflags -X wins over the build info", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}},
			stamp{version: "v1.2.0", commit: rev, date: "2026-11-26T12:00:00Z"},
			"p v1.2.0, commit " + rev + " (2026-11-26T12:00:00Z), go1.26.8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := format("p", tt.bi, tt.st); got != tt.want {
				t.Errorf("format:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestFlagPrintsAndExits(t *testing.T) {
	fs := flag.NewFlagSet("pricing-test", flag.ContinueOnError)
	var out bytes.Buffer
	exitCode := -1
	addFlag(fs, &out, func(c int) { exitCode = c })
	if err := fs.Parse([]string{"--version"}); err != nil {
		t.Fatal(err)
	}
	if exitCode != 0 || !strings.HasPrefix(out.String(), "pricing-test ") || !strings.Contains(out.String(), ", commit ") {
		t.Errorf("--version printed %q and exited %d, want the version line and 0", out.String(), exitCode)
	}
}

func TestRequested(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--version"}, true},
		{[]string{"--base-url", "http://x/v1", "-version"}, true},
		{[]string{"--godog.tags", "@s5"}, false},
		{[]string{"--", "--version"}, false},
		{[]string{"--versions"}, false},
	}
	for _, tt := range tests {
		if got := Requested(tt.args); got != tt.want {
			t.Errorf("Requested(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

// TestBinariesPrintVersion builds every binary as the README does and runs
// it with --version: the commit must be the checkout's in a clone (as in CI).
// The toolchain does not stamp a build in a git worktree, whose .git is a
// file, nor without git: there "unknown" is the answer.
func TestBinariesPrintVersion(t *testing.T) {
	testenv.SkipShort(t, "builds three binaries")
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	wantCommit, vcs := "unknown", "-buildvcs=false"
	git := exec.Command("git", "rev-parse", "HEAD")
	git.Dir = root
	if fi, err := os.Stat(filepath.Join(root, ".git")); err == nil && fi.IsDir() {
		out, err := git.Output()
		if err != nil {
			t.Fatalf("git rev-parse HEAD in a clone: %v", err)
		}
		wantCommit, vcs = strings.TrimSpace(string(out)), "-buildvcs=true"
	}
	bin := t.TempDir()
	for _, name := range []string{"pricing-contract", "pricing-mock", "pricing-mutation"} {
		t.Run(name, func(t *testing.T) {
			exe := filepath.Join(bin, name)
			build := exec.Command("go", "build", vcs, "-o", exe, "./cmd/"+name)
			build.Dir = root
			build.Env = append(os.Environ(), "GOFLAGS=")
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go build %s: %v\n%s", name, err, out)
			}
			out, err := exec.Command(exe, "--version").CombinedOutput()
			if err != nil {
				t.Fatalf("%s --version: %v\n%s", name, err, out)
			}
			line := strings.TrimSpace(string(out))
			if !strings.HasPrefix(line, name+" ") || !strings.Contains(line, ", commit "+wantCommit) || strings.Count(line, "\n") != 0 {
				t.Errorf("%s --version = %q, want one line naming %s and commit %s", name, line, name, wantCommit)
			}
		})
	}
}
