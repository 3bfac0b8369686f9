// Command pricing-mock serves the reference mock of the Pricing Service API
// on a local address, seeded from the embedded fixtures or a folder.
//
//	pricing-mock [--addr HOST:PORT] [--fixtures DIR [--watch]] [--seed N]
//	             [--state FILE] [--latency D] [--latency-jitter D]
//	             [--cors-origins A,B] [--no-admin] [--print-env]
//	             [--fault NAME ...] [--list-faults]
//	             [--accounts N]
//	             [--admin-token T] [--admin-hosts A,B]
//	             [--read-timeout D] [--write-timeout D] [--idle-timeout D] [--max-header-bytes N]
//	             [--quiet]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/buildinfo"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

const defaultAddr = "127.0.0.1:8080"

// maxAccountPairs is the largest pool the contract suite takes.
const maxAccountPairs = 64

// shutdownGrace bounds how long in-flight requests may run after a signal.
const shutdownGrace = 5 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// defaultMemoryLimit is --memory-limit's default: the kept data (160 MiB),
// the journal (32 MiB), the bodies being decoded (32 MiB) and an import,
// about twice over for the collector's headroom.
const defaultMemoryLimit = 512 << 20

// config is the parsed command line.
type config struct {
	addr     string
	fixtures string // "" means the embedded seed
	seed     *int64
	printEnv bool
	faults   []string // named defects to inject (mutation testing)
	list     bool     // --list-faults

	noAdmin     bool
	latency     time.Duration
	jitter      time.Duration
	corsOrigins []string // empty: any origin
	watch       bool
	state       string // "" : the data lives in memory only
	compactAt   int64  // bytes of --state's log before it is folded; 0: the default
	accounts    int    // pairs of accounts A and B in the profile

	memoryLimit int64 // bytes for runtime/debug.SetMemoryLimit; 0: none

	adminToken string   // "": the admin API answers its own hosts without one
	adminHosts []string // more host names the admin API answers
	timeouts   mockserver.Timeouts
	quiet      bool // no request log: warnings and errors only
}

// errUsage marks an error in the command line, as opposed to -h.
var errUsage = errors.New("usage")

func newFlagSet(cfg *config, getenv func(string) string) *flag.FlagSet {
	fs := flag.NewFlagSet("pricing-mock", flag.ContinueOnError)
	// The parse error is reported as one line by run; flag's own report would
	// print the whole usage on stderr after it.
	fs.SetOutput(io.Discard)
	addr := getenv("PRICING_MOCK_ADDR")
	if addr == "" {
		addr = defaultAddr
	}
	fs.StringVar(&cfg.addr, "addr", addr, "`HOST:PORT` to listen on (env PRICING_MOCK_ADDR)")
	fs.StringVar(&cfg.fixtures, "fixtures", "", "seed `DIR` replacing the embedded fixtures")
	fs.Func("seed", "make generated ids, write keys, tokens and dates repeat for the same `N`", func(s string) error {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return errors.New("not an integer")
		}
		cfg.seed = &n
		return nil
	})
	fs.BoolVar(&cfg.printEnv, "print-env", false, "print the seed's PRICING_* target profile as export lines and exit")
	fs.Func("fault", "inject the defect `NAME` (repeatable; see --list-faults) to see what a failing contract gate looks like", func(s string) error {
		cfg.faults = append(cfg.faults, s)
		return nil
	})
	fs.BoolVar(&cfg.list, "list-faults", false, "list the defects --fault can inject and exit")
	fs.BoolVar(&cfg.noAdmin, "no-admin", false, "serve only the API: no /__admin, no request journal, X-Mock-Delay and X-Mock-Status ignored")
	fs.DurationVar(&cfg.latency, "latency", 0, "delay every API request by `D` (150ms, 1s)")
	fs.DurationVar(&cfg.jitter, "latency-jitter", 0, "add a random delay from 0 to `D` to every API request")
	fs.Func("cors-origins", "browser origins allowed to call the mock, `A,B` (default: any origin)", func(s string) error {
		for _, o := range strings.Split(s, ",") {
			if o = strings.TrimSpace(o); o != "" {
				cfg.corsOrigins = append(cfg.corsOrigins, o)
			}
		}
		return nil
	})
	fs.BoolVar(&cfg.watch, "watch", false, "reload the --fixtures folder when a file in it changes")
	fs.StringVar(&cfg.state, "state", "", "keep the data in `FILE` across restarts (loaded at start; each change on disk before it is answered)")
	sizeFlag(fs, "state-compact", "fold --state's log (FILE.log) into FILE once it passes `KiB` (default 16384)",
		1, 10, "a positive number of KiB", &cfg.compactAt)
	sizeFlag(fs, "memory-limit", "the Go runtime's soft memory limit in `MiB` (default 512, the kept data, the journal and the bodies in flight with room to spare; 0: none; GOMEMLIMIT wins)",
		0, 20, "a number of MiB", &cfg.memoryLimit)
	fs.IntVar(&cfg.accounts, "accounts", 1, "serve `N` pairs of accounts A and B, the seed's and copies of it (qa-2@example.com, …), for a contract run on a pool of pairs; --print-env prints them")
	// The environment's token is read after parsing, not given as the
	// flag's default: -h would print it.
	fs.StringVar(&cfg.adminToken, "admin-token", "",
		"require \"Authorization: Bearer `TOKEN`\" of every /__admin call (env PRICING_MOCK_ADMIN_TOKEN); needed to listen beyond loopback")
	fs.Func("admin-hosts", "host names `A,B` the admin API answers besides localhost, 127.0.0.1, ::1 and the host of --addr (* for any)", func(s string) error {
		for _, h := range strings.Split(s, ",") {
			if h = strings.TrimSpace(h); h != "" {
				cfg.adminHosts = append(cfg.adminHosts, h)
			}
		}
		return nil
	})
	d := mockserver.DefaultTimeouts
	fs.DurationVar(&cfg.timeouts.Read, "read-timeout", d.Read, "the longest a client may take to send a request, body included")
	fs.DurationVar(&cfg.timeouts.Write, "write-timeout", d.Write, "the longest an answer may take, delays included")
	fs.DurationVar(&cfg.timeouts.Idle, "idle-timeout", d.Idle, "close a keep-alive connection idle this long")
	fs.IntVar(&cfg.timeouts.MaxHeaderBytes, "max-header-bytes", d.MaxHeaderBytes, "the largest request head (larger: 431)")
	fs.BoolVar(&cfg.quiet, "quiet", false, "log no request on stderr, only warnings and errors (a mock in the background of a terminal)")
	buildinfo.AddFlag(fs)
	return fs
}

// parseFlags reads the command line; the flag wins over the environment.
// It returns flag.ErrHelp for -h.
func parseFlags(args []string, getenv func(string) string) (config, error) {
	cfg := config{memoryLimit: defaultMemoryLimit}
	fs := newFlagSet(&cfg, getenv)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return config{}, err
		}
		return config{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if cfg.addr == "" {
		return config{}, fmt.Errorf("%w: --addr is empty", errUsage)
	}
	if cfg.latency < 0 || cfg.jitter < 0 || cfg.latency+cfg.jitter > mockserver.MaxDelay {
		return config{}, fmt.Errorf("%w: --latency and --latency-jitter must be positive and together at most %s", errUsage, mockserver.MaxDelay)
	}
	if cfg.accounts < 1 || cfg.accounts > maxAccountPairs {
		return config{}, fmt.Errorf("%w: --accounts must be from 1 to %d", errUsage, maxAccountPairs)
	}
	if cfg.watch && cfg.fixtures == "" {
		return config{}, fmt.Errorf("%w: --watch needs --fixtures DIR (the embedded seed never changes)", errUsage)
	}
	if cfg.adminToken == "" {
		cfg.adminToken = getenv("PRICING_MOCK_ADMIN_TOKEN")
	}
	t := cfg.timeouts
	if t.Read <= 0 || t.Write <= 0 || t.Idle <= 0 || t.MaxHeaderBytes < 4<<10 {
		return config{}, fmt.Errorf("%w: --read-timeout, --write-timeout and --idle-timeout must be positive, --max-header-bytes at least 4096", errUsage)
	}
	if beyondLoopback(cfg.addr) && !cfg.noAdmin && cfg.adminToken == "" {
		return config{}, fmt.Errorf("%w: --addr %s listens beyond this machine, where anyone could reset, export and fault the mock "+
			"through its admin API: give --admin-token TOKEN (or --no-admin)", errUsage, cfg.addr)
	}
	return cfg, nil
}

// beyondLoopback reports whether an address listens where other machines
// reach it: any address but a loopback one or localhost.
func beyondLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return false
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip == nil || !ip.IsLoopback()
}

// exposureWarning is the line that warns of a mock listening beyond this
// machine; "" on loopback.
func exposureWarning(cfg config, listening string) string {
	if !beyondLoopback(cfg.addr) {
		return ""
	}
	admin := "the admin API needs the --admin-token"
	if cfg.noAdmin {
		admin = "the admin API is off (--no-admin)"
	}
	return "pricing-mock: WARNING: listening on " + listening + ", beyond this machine: whoever reaches it can use the API " +
		"and the demo accounts; " + admin
}

// adminHosts are the host names the admin API answers: --admin-hosts and
// the host of --addr when it names one (0.0.0.0 names none).
func adminHosts(cfg config) []string {
	hosts := cfg.adminHosts
	if host, _, err := net.SplitHostPort(cfg.addr); err == nil && host != "" {
		if ip := net.ParseIP(strings.Trim(host, "[]")); ip == nil || !ip.IsUnspecified() {
			hosts = append(hosts, host)
		}
	}
	return hosts
}

func usage(w io.Writer, getenv func(string) string) {
	fs := newFlagSet(&config{}, getenv)
	fs.SetOutput(w)
	fmt.Fprintln(w, "Usage: pricing-mock [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Serves the reference mock of the Pricing Service API under /v1 and /v1.0.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Flags:")
	fs.PrintDefaults()
}

// run is the whole program; it returns the exit status: 0 after -h,
// --print-env or a clean shutdown, 2 for a bad command line or seed folder,
// 1 when the server cannot listen or fails.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) (code int) {
	cfg, err := parseFlags(args, getenv)
	if errors.Is(err, flag.ErrHelp) {
		usage(stdout, getenv)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "pricing-mock: %s (see pricing-mock -h)\n", strings.TrimPrefix(err.Error(), errUsage.Error()+": "))
		return 2
	}
	if cfg.list {
		listFaults(stdout)
		return 0
	}

	// A soft limit makes the collector work harder before the process
	// grows past what the mock's bounds need; the bounds keep it there.
	if cfg.memoryLimit > 0 && getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(cfg.memoryLimit)
	}

	// The request log goes out in batches (within 100 ms); what is left
	// goes out before run returns.
	logw := mockserver.NewLogWriter(stderr, 100*time.Millisecond)
	defer logw.Flush()
	level := slog.LevelInfo // the request log's
	if cfg.quiet {
		level = slog.LevelWarn
	}
	logger := slog.New(mockserver.NewLogHandler(logw, level))
	srv, handler, ok := newMock(cfg, logger, stderr)
	if !ok {
		return 2
	}
	// The last write of the state file happens here, after the server
	// stopped taking requests.
	defer func() {
		if err := srv.Close(); err != nil {
			fmt.Fprintf(stderr, "pricing-mock: %s\n", oneLine(err.Error()))
			if code == 0 {
				code = 1
			}
		}
	}()

	if cfg.printEnv {
		// The seed's values as the suite's PRICING_* variables: the test
		// TestPrintEnvIsTheSuitesProfile holds them to the suite's own
		// rendering (steps/target), which this binary does not link.
		for _, kv := range srv.Profile().Env("http://" + cfg.addr + "/v1") {
			name, value, _ := strings.Cut(kv, "=")
			fmt.Fprintf(stdout, "export %s=%s\n", name, shellQuote(value))
		}
		return 0
	}
	return serve(ctx, cfg, handler, logger, stdout, stderr)
}

// newMock builds the mock the command line asks for, with its defects. A
// problem (an unknown defect, a bad seed folder or state file) is reported
// on stderr as one line.
func newMock(cfg config, logger *slog.Logger, stderr io.Writer) (*mockserver.Server, http.Handler, bool) {
	servers, err := catalogue.Find(cfg.faults)
	var unknown *catalogue.UnknownError
	if errors.As(err, &unknown) {
		fmt.Fprintf(stderr, "pricing-mock: --fault %s: no such fault (see pricing-mock --list-faults)\n", unknown.Name)
		return nil, nil, false
	}
	opts := mockserver.Options{
		Seed:              cfg.seed,
		Logger:            logger,
		NoAdmin:           cfg.noAdmin,
		Latency:           cfg.latency,
		Jitter:            cfg.jitter,
		CORSOrigins:       cfg.corsOrigins,
		Watch:             cfg.watch,
		StateFile:         cfg.state,
		StateCompactBytes: cfg.compactAt,
		AdminToken:        cfg.adminToken,
		AdminHosts:        adminHosts(cfg),
	}
	source := "embedded seed"
	if cfg.fixtures != "" {
		if fi, err := os.Stat(cfg.fixtures); err != nil || !fi.IsDir() {
			fmt.Fprintf(stderr, "pricing-mock: --fixtures %s: not a readable directory\n", cfg.fixtures)
			return nil, nil, false
		}
		opts.Fixtures = os.DirFS(cfg.fixtures)
		source = "--fixtures " + cfg.fixtures
	}
	if cfg.accounts > 1 {
		if opts.Fixtures == nil {
			opts.Fixtures = fixtures.Seed()
		}
		opts.Fixtures = pricing.AccountPairs(opts.Fixtures, cfg.accounts)
	}
	srv, handler, err := catalogue.Serve(opts, nil, servers...)
	var stateErr *mockserver.StateFileError
	switch {
	case errors.As(err, &stateErr):
		fmt.Fprintf(stderr, "pricing-mock: --state %s: %s\n", stateErr.Path, oneLine(stateErr.Err.Error()))
		return nil, nil, false
	case err != nil:
		fmt.Fprintf(stderr, "pricing-mock: %s: %s\n", source, oneLine(err.Error()))
		return nil, nil, false
	}
	return srv, handler, true
}

// serve listens on cfg.addr and serves h until ctx ends, then shuts down
// gracefully. It returns the exit status.
func serve(ctx context.Context, cfg config, h http.Handler, logger *slog.Logger, stdout, stderr io.Writer) int {
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-mock: %v\n", err)
		return 1
	}
	hs := mockserver.NewHTTPServer(h, cfg.timeouts, slog.NewLogLogger(logger.Handler(), slog.LevelWarn))
	seedName := "embedded"
	if cfg.fixtures != "" {
		seedName = cfg.fixtures
	}
	// The real address, so that --addr 127.0.0.1:0 tells which port it got.
	fmt.Fprintf(stdout, "pricing-mock listening on http://%s (seed: %s)\n", ln.Addr(), seedName)
	if cfg.state != "" {
		fmt.Fprintf(stdout, "pricing-mock: data kept in %s\n", cfg.state)
	}
	if len(cfg.faults) > 0 {
		fmt.Fprintf(stdout, "pricing-mock: DEFECTS INJECTED, this server breaks the spec on purpose: %s\n", strings.Join(cfg.faults, ", "))
	}
	if w := exposureWarning(cfg, ln.Addr().String()); w != "" {
		fmt.Fprintln(stderr, w)
	}

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintf(stderr, "pricing-mock: %v\n", err)
		return 1
	case <-ctx.Done():
	}

	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		fmt.Fprintf(stderr, "pricing-mock: shutdown: %v\n", err)
		return 1
	}
	<-served // Serve has returned http.ErrServerClosed
	return 0
}

// oneLine keeps a multi-line error (errors.Join) on the one line the
// command promises.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

// shellQuote quotes s for a POSIX shell: inside single quotes, each quote
// closes the string, adds an escaped quote and reopens it.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// listFaults prints one wrong server of the catalogue a line: name, spec
// section, what it does wrong.
func listFaults(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FAULT\tSECTION\tDEFECT")
	for _, s := range catalogue.Wrong() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, strings.ReplaceAll(s.Rule, " ", ""), s.Why)
	}
	tw.Flush()
}

// sizeFlag defines a flag of a size written in units of 1<<shift bytes, at
// least least of them, and sets *dst to it in bytes; what is the refusal's
// words for what the flag takes.
func sizeFlag(fs *flag.FlagSet, name, usage string, least int64, shift uint, what string, dst *int64) {
	fs.Func(name, usage, func(v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < least {
			return fmt.Errorf("%q is not %s", v, what)
		}
		*dst = n << shift
		return nil
	})
}
