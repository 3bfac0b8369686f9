package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/buildinfo"
)

// config is the parsed command line.
type config struct {
	latency     time.Duration
	accounts    int
	concurrency int
	runs        int
	maxRatio    float64
	timeout     time.Duration
	tags        string
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("pricing-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&cfg.latency, "latency", 30*time.Millisecond, "the mock's delay of every request: how far away the target is")
	fs.IntVar(&cfg.accounts, "accounts", 8, "pairs of accounts the mock serves and the suite's profile lists")
	fs.IntVar(&cfg.concurrency, "concurrency", 16, "scenarios at once of the run compared with the serial one")
	fs.IntVar(&cfg.runs, "runs", 1, "measure `N` times (a serial and a concurrent run each)")
	fs.Float64Var(&cfg.maxRatio, "max-ratio", 0.15, "the most the concurrent run may take, as a share of the serial one")
	fs.DurationVar(&cfg.timeout, "timeout", 10*time.Minute, "stop everything after `D`, the builds included")
	fs.StringVar(&cfg.tags, "tags", "", "run only the spec scenarios matching the godog tag `EXPR`")
	buildinfo.AddFlag(fs)
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	switch {
	case fs.NArg() > 0:
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case cfg.latency < 0 || cfg.accounts < 1 || cfg.concurrency < 2 || cfg.runs < 1 || cfg.maxRatio <= 0 || cfg.timeout <= 0:
		return config{}, errors.New("--latency must not be negative, --accounts and --runs must be at least 1, --concurrency at least 2, --max-ratio and --timeout positive")
	}
	return cfg, nil
}

// run is the whole program; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "pricing-bench: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	if err := bench(ctx, cfg, stdout); err != nil {
		fmt.Fprintf(stderr, "pricing-bench: %v\n", err)
		return 1
	}
	return 0
}

// bench builds the binaries, serves the mock and times the runs.
func bench(ctx context.Context, cfg config, stdout io.Writer) error {
	bin, err := os.MkdirTemp("", "pricing-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(bin)
	if err := build(ctx, bin); err != nil {
		return err
	}
	m, err := startMock(ctx, bin, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "pricing-bench: pricing-mock --latency %s --accounts %d at %s (pid %d)\n", cfg.latency, cfg.accounts, m.url, m.cmd.Process.Pid)
	defer func() {
		m.stop()
		fmt.Fprintf(stdout, "pricing-bench: pricing-mock (pid %d) stopped\n", m.cmd.Process.Pid)
	}()
	env, err := profileEnv(ctx, bin, cfg, m.addr)
	if err != nil {
		return err
	}

	worst := 0.0
	for r := 1; r <= cfg.runs; r++ {
		serial, err := timeSuite(ctx, bin, env, 1, cfg.tags)
		if err != nil {
			return err
		}
		concurrent, err := timeSuite(ctx, bin, env, cfg.concurrency, cfg.tags)
		if err != nil {
			return err
		}
		ratio := concurrent.Seconds() / serial.Seconds()
		worst = max(worst, ratio)
		fmt.Fprintf(stdout, "run %d: concurrency 1 %.2fs, concurrency %d %.2fs, ratio %.3f\n",
			r, serial.Seconds(), cfg.concurrency, concurrent.Seconds(), ratio)
	}
	if worst > cfg.maxRatio {
		return fmt.Errorf("ratio %.3f, want at most %.3f: not met", worst, cfg.maxRatio)
	}
	fmt.Fprintf(stdout, "ratio at most %.3f: met (worst %.3f)\n", cfg.maxRatio, worst)
	return nil
}

// build compiles pricing-mock and pricing-contract of this module into bin.
func build(ctx context.Context, bin string) error {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	mod := strings.TrimSpace(string(out))
	if err != nil || mod == "" || mod == os.DevNull {
		return fmt.Errorf("run pricing-bench in a checkout of pricing-contract (go env GOMOD: %q, %v)", mod, err)
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/pricing-mock", "./cmd/pricing-contract")
	cmd.Dir = filepath.Dir(mod)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	return nil
}

// mock is a pricing-mock process.
type mock struct {
	cmd       *exec.Cmd
	addr, url string
	stderr    *tail
	exited    chan error
}

var listening = regexp.MustCompile(`^pricing-mock listening on http://(127\.0\.0\.1:[0-9]+) `)

// startMock starts the mock on a free port of 127.0.0.1 and waits for the
// line that names the port.
func startMock(ctx context.Context, bin string, cfg config) (*mock, error) {
	m := &mock{stderr: &tail{}, exited: make(chan error, 1)}
	m.cmd = exec.Command(filepath.Join(bin, "pricing-mock"), "--addr", "127.0.0.1:0",
		"--latency", cfg.latency.String(), "--accounts", strconv.Itoa(cfg.accounts))
	m.cmd.Stderr = m.stderr // a line per request: only the end is kept
	out, err := m.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := m.cmd.Start(); err != nil {
		return nil, err
	}
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		line, _ := r.ReadString('\n')
		lines <- line
		io.Copy(io.Discard, r)
		m.exited <- m.cmd.Wait()
	}()
	select {
	case line := <-lines:
		if match := listening.FindStringSubmatch(line); match != nil {
			m.addr, m.url = match[1], "http://"+match[1]+"/v1"
			return m, nil
		}
		m.stop()
		return nil, fmt.Errorf("pricing-mock did not start: %q\n%s", line, m.stderr)
	case <-ctx.Done():
		m.stop()
		return nil, fmt.Errorf("pricing-mock did not start: %w", context.Cause(ctx))
	}
}

// stop ends the mock by its PID: SIGTERM, then SIGKILL if it has not exited
// in 10 s.
func (m *mock) stop() {
	pid := m.cmd.Process.Pid
	_ = syscall.Kill(pid, syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(pid, syscall.SIGKILL)
		<-m.exited
	}
}

// profileEnv is the environment of pricing-contract: this process's,
// without its PRICING_* variables, and the profile that pricing-mock
// --print-env prints for the mock at addr.
func profileEnv(ctx context.Context, bin string, cfg config, addr string) ([]string, error) {
	out, err := exec.CommandContext(ctx, filepath.Join(bin, "pricing-mock"), "--print-env",
		"--accounts", strconv.Itoa(cfg.accounts), "--addr", addr).Output()
	if err != nil {
		return nil, fmt.Errorf("pricing-mock --print-env: %v", err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PRICING_") {
			env = append(env, kv)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, quoted, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok || len(quoted) < 2 || quoted[0] != '\'' || quoted[len(quoted)-1] != '\'' {
			return nil, fmt.Errorf("pricing-mock --print-env: unexpected line %q", line)
		}
		env = append(env, name+"="+strings.ReplaceAll(quoted[1:len(quoted)-1], `'\''`, `'`))
	}
	return env, nil
}

// timeSuite runs the spec scenarios at the given concurrency and returns
// the wall time of the whole run, preflight included.
func timeSuite(ctx context.Context, bin string, env []string, concurrency int, tags string) (time.Duration, error) {
	args := []string{"--godog.concurrency", strconv.Itoa(concurrency), "--godog.format", "progress"}
	if tags != "" {
		args = append(args, "--godog.tags", tags)
	}
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "pricing-contract"), args...)
	out := &tail{}
	cmd.Env, cmd.Stdout, cmd.Stderr = env, out, out
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("pricing-contract at concurrency %d: %v; the end of its output:\n%s", concurrency, err, out)
	}
	return elapsed, nil
}

// tail keeps the last 4 KiB written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 4 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
