// Package contract is the suite's run of pricing-contract against any base
// URL: its flags (those of every command from steps/target), the features
// selected, the run and its record, the console, and the gate (--explore,
// --reproducers) with the explorer given by main as a value, since no
// command package imports another; its reports are written by
// cmd/internal/report.
package contract

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/colors"

	"github.com/pricing-contract/pricing-contract/cmd/internal/exitcode"
	"github.com/pricing-contract/pricing-contract/cmd/internal/report"
	"github.com/pricing-contract/pricing-contract/cmd/internal/term"
	"github.com/pricing-contract/pricing-contract/features"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/steps"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// Exit statuses of Run, declared for the whole binary in package exitcode.
// 0 to 2 are godog's; 3 tells CI that the target or the profile could not
// be used at all, rather than that the contract broke.
const (
	exitPass     = exitcode.Pass
	exitFail     = exitcode.Fail
	exitUsage    = exitcode.Usage
	exitUnusable = exitcode.Unusable
)

const usageHeader = `Usage: pricing-contract [flags]
       pricing-contract init --base-url URL [--email E --other-email E ...] [--output FILE]
       pricing-contract explore --base-url URL [--budget D] [--seed N] ...
       pricing-contract replay --base-url URL [--report FILE] [--junit FILE] ... RECORDING

Runs the Pricing API contract suite against the server at --base-url. The
target profile comes from --profile FILE and the PRICING_* environment (flag >
environment > file; --profile-only ignores the environment); the mock's seed
fills what the profile does not give only against the default mock. Scenarios
tagged @reference check the mock's own decisions and run only with
--reference. Before the first scenario a preflight checks that the target
answers, that every account (A and B of each pair of the pool) logs in and
its api key authenticates, and that the target takes the profile's ids,
address, phone and email domain. init writes a profile by asking the target
(init --help). explore sends random sequences of operations to the target and
to the mock's domain and writes a .feature reproducing any divergence
(explore --help). replay sends the requests of a recording (the mock's
journal or a browser's HAR) to the target and judges them the same way
(replay --help). --version prints the version of the binary.

Exit status: 0 every scenario passed; 1 a scenario failed (or had an undefined
or pending step, or the run was interrupted), or --explore reported a
divergence; 2 a bad flag or profile; 3 the
target or the profile is not usable (preflight failed, a profile value the
target refuses, or the target stopped answering during the run).

Flags:
`

// Command is the suite's run of cmd/pricing-contract; Explore is what its
// --explore runs (nil: --explore is refused), given by main, since no
// command package imports another.
type Command struct {
	Explore Explore
}

// Run is Command{}.Run: a run of the suite whose --explore is refused.
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	return Command{}.Run(ctx, args, getenv, stdout, stderr)
}

// Run is the whole of cmd/pricing-contract's suite: args are the
// command-line arguments without the program name, getenv supplies the
// PRICING_* variables. steps.Suite output and the coverage summary go to
// stdout; stderr gets one line on what is run, progress lines when no
// console format is chosen, and one line per usage error or unusable
// target. The exit statuses are the ones of usageHeader.
func (cmd Command) Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg, err := parseArgs(args, getenv, stdout, cmd.Explore)
	if err != nil {
		if errors.Is(err, errHelpShown) {
			return exitPass
		}
		fmt.Fprintf(stderr, "pricing-contract: %v (see --help)\n", err)
		return exitUsage
	}
	return cfg.run(ctx, stdout, stderr)
}

// runConfig is a parsed command line.
type runConfig struct {
	profile     steps.Profile
	features    string // a folder on disk; empty means the embedded features
	fixtures    string
	coverage    string
	report      string   // --report: the HTML report
	junit       []string // files of the JUnit report; "" is stdout
	force       bool     // --force: replace a file of another kind at an output's path
	target      target.Flags
	noPreflight bool
	godog       godog.Options
	scenarios   int
	record      *runRecord // the selected scenarios, filled in by the run
	console     bool       // pretty or progress prints on stdout
	// structured: a machine-readable format writes to stdout, so the
	// coverage summary goes to stderr.
	structured bool
	notes      []string // said on stderr when the run starts

	// traceability is --traceability FILE, and trace its rules, read when
	// the command line is parsed; empty: the embedded fixtures/traceability.tsv.
	traceability string
	trace        []fixtures.Rule

	// gate is --explore and --reproducers: the exploration after the
	// scenarios (explore.go).
	gate gate
}

// errHelpShown ends parseArgs after --help printed the usage.
var errHelpShown = errors.New("help shown")

// parseArgs turns the command line into a runConfig; every error is a usage
// error, reported as one line by Run.
func parseArgs(args []string, getenv func(string) string, stdout io.Writer, explore Explore) (*runConfig, error) {
	cfg := &runConfig{gate: gate{explore: explore}}
	fs, f := cfg.flagSet(stdout)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeUsage(stdout, fs)
			return nil, errHelpShown
		}
		return nil, err
	}
	if cfg.godog.ShowHelp {
		writeUsage(stdout, fs)
		return nil, errHelpShown
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q: select feature files with --godog.paths", fs.Arg(0))
	}
	if err := cfg.loadProfile(f, getenv); err != nil {
		return nil, err
	}
	userTags := f.profileTags
	if flagSet(fs, "godog.tags") || flagSet(fs, "godog.t") {
		userTags = cfg.godog.Tags
	}
	var err error
	if cfg.godog.Tags, err = target.TagFilter(userTags, f.reference); err != nil {
		return nil, err
	}
	if err := cfg.splitFormats(flagSet(fs, "godog.format") || flagSet(fs, "godog.f")); err != nil {
		return nil, err
	}
	if cfg.godog.Output == nil {
		cfg.godog.Output = stdout
	}
	if cfg.gate.budget > 0 && cfg.gate.explore == nil {
		return nil, fmt.Errorf("--explore: this program has no explorer (pricing-contract has)")
	}

	// The suite must fail on a step it does not know: a typo in a feature
	// file must not pass a release.
	cfg.godog.Strict = true
	if cfg.godog.ShowStepDefinitions {
		// godog colours the catalogue whatever the no-colors flag says.
		cfg.godog.Output = stdout
		if cfg.godog.NoColors {
			cfg.godog.Output = colors.Uncolored(stdout)
		}
		return cfg, nil
	}
	if err := cfg.selectFeatures(); err != nil {
		return nil, err
	}
	if cfg.fixtures != "" {
		if fi, err := os.Stat(cfg.fixtures); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("--fixtures %s: not a folder", cfg.fixtures)
		}
	}
	if cfg.traceability != "" {
		f, err := os.Open(cfg.traceability)
		if err != nil {
			return nil, fmt.Errorf("--traceability: %v", err)
		}
		defer f.Close()
		if cfg.trace, err = fixtures.ParseTraceability(cfg.traceability, f); err != nil {
			return nil, fmt.Errorf("--traceability: %v", err)
		}
	}
	return cfg, nil
}

// cliFlags are the flags that only parseArgs reads.
type cliFlags struct {
	reference   bool
	profileTags string // the tags of the profile file
}

func (c *runConfig) flagSet(stdout io.Writer) (*flag.FlagSet, *cliFlags) {
	f := &cliFlags{}
	fs := flag.NewFlagSet("pricing-contract", flag.ContinueOnError)
	c.target.Register(fs)
	fs.BoolVar(&f.reference, "reference", false, "also run the @reference scenarios, which check the mock's decisions where the spec is silent")
	fs.StringVar(&c.features, "features", "", "run the *.feature files of `DIR` instead of the embedded ones")
	fs.StringVar(&c.coverage, "coverage", "", "write the coverage of endpoints and statuses as JSON to `FILE`")
	fs.StringVar(&c.report, "report", "", "write a self-contained HTML report to `FILE`: summary, every scenario and step, failing requests as curl, coverage and spec traceability")
	fs.StringVar(&c.traceability, "traceability", "", "read the spec's rules and the scenarios that assert them from `FILE` (the format of fixtures/traceability.tsv) for --report, instead of the embedded file")
	fs.StringVar(&c.fixtures, "fixtures", "", "read shapes/ and bodies/ from `DIR` before the embedded fixtures")
	fs.BoolVar(&c.force, "force", false, "replace a file at the path of an output that is no report of these tools (one of theirs is replaced without it; a symbolic link never)")
	fs.BoolVar(&c.noPreflight, "no-preflight", false, "skip the checks of the target and the accounts before the first scenario")
	c.gateFlags(fs)
	// godog's colours help on a terminal; in a CI log or a file they are noise.
	c.godog = godog.Options{Format: "pretty", Concurrency: 1, NoColors: !term.Is(stdout)}
	godog.BindFlags("godog.", fs, &c.godog)
	describeGodogFlags(fs)
	// Parse errors are reported as one line by Run, not with the whole usage.
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	return fs, f
}

// loadProfile applies the profile file, the environment and --base-url.
func (c *runConfig) loadProfile(f *cliFlags, getenv func(string) string) error {
	p, tags, err := c.target.Load(getenv)
	if err != nil {
		return err
	}
	c.profile, f.profileTags = p, tags
	return nil
}

// splitFormats checks the formats and takes out junit, which this command
// writes itself (with classname, resolved names and the failure text in
// the element body). godog reports a bad format on os.Stderr after the run
// has begun; checking here puts the one clear line where the caller asked.
// Pretty output of concurrent scenarios is interleaved (godog prints a
// feature's header when its first scenario starts), so an explicit pretty
// runs one scenario at a time, and the default format becomes progress
// when --godog.concurrency is above 1.
func (c *runConfig) splitFormats(formatSet bool) error {
	var kept []string
	for _, f := range strings.Split(c.godog.Format, ",") {
		name, file, toFile := strings.Cut(f, ":")
		switch {
		case godog.FindFmt(name) == nil:
			return fmt.Errorf("unknown --godog.format %q", name)
		case toFile && file == "":
			return fmt.Errorf("--godog.format %s: needs a file name after the colon", name)
		case name == "junit":
			c.junit = append(c.junit, file)
			c.structured = c.structured || !toFile
			continue
		case !toFile && (name == "pretty" || name == "progress"):
			c.console = true
		case !toFile:
			c.structured = true
		}
		kept = append(kept, f)
	}
	if c.godog.Concurrency < 1 {
		return fmt.Errorf("--godog.concurrency must be at least 1")
	}
	for i, f := range kept {
		if f != "pretty" || c.godog.Concurrency == 1 {
			continue
		}
		if formatSet {
			c.notes = append(c.notes, fmt.Sprintf("pretty output runs one scenario at a time (--godog.concurrency %d is for other formats, such as progress)", c.godog.Concurrency))
			c.godog.Concurrency = 1
		} else {
			kept[i] = "progress" // the default format, with the concurrency asked for
		}
	}
	if len(kept) == 0 {
		// godog needs a format; this one prints nowhere.
		kept = []string{"progress"}
		c.godog.Output = io.Discard
	}
	c.godog.Format = strings.Join(kept, ",")
	return nil
}

// selectFeatures points godog at the feature files, counts the scenarios
// the tag filter keeps and lists them in the run's record. --godog.paths
// name files within the feature source, the embedded set or --features DIR,
// so an installed binary can run one feature (`--godog.paths
// users.feature:12`) without a checkout; a line inside a scenario selects
// that scenario.
func (c *runConfig) selectFeatures() error {
	paths := c.godog.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	if c.features == "" {
		c.godog.FS = features.FS
		c.godog.Paths = slices.Clone(paths)
	} else {
		if fi, err := os.Stat(c.features); err != nil || !fi.IsDir() {
			return fmt.Errorf("--features %s: not a folder", c.features)
		}
		c.godog.FS = nil // godog then reads from disk
		c.godog.Paths = make([]string, len(paths))
		for i, p := range paths {
			c.godog.Paths[i] = filepath.Join(c.features, p)
		}
	}
	withLine := false
	for i, p := range c.godog.Paths {
		resolved, err := resolveScenarioLine(c.godog.FS, p)
		if err != nil {
			return err
		}
		withLine = withLine || resolved != p || hasLine(p)
		c.godog.Paths[i] = resolved
	}

	if err := c.keepReproducers(len(paths) != 1 || paths[0] != "."); err != nil {
		return err
	}
	opts := c.godog
	feats, err := (godog.TestSuite{Options: &opts}).RetrieveFeatures()
	if err != nil {
		return err
	}
	c.record = newRunRecord()
	for _, f := range feats {
		c.record.addFeature(f.GherkinDocument, f.Uri, f.Pickles)
		c.scenarios += len(f.Pickles)
	}
	if c.scenarios == 0 {
		if withLine {
			return fmt.Errorf("the scenario of --godog.paths %s does not match the tag filter %q (a @reference scenario needs --reference)", strings.Join(paths, ","), c.godog.Tags)
		}
		return fmt.Errorf("no scenario matches the tag filter %q", c.godog.Tags)
	}
	return nil
}

func (c *runConfig) run(parent context.Context, stdout, stderr io.Writer) int {
	if c.godog.ShowStepDefinitions {
		godog.TestSuite{ScenarioInitializer: steps.NewSuite(c.profile, steps.Options{}).InitializeScenario, Options: &c.godog}.Run()
		return exitPass // godog answers 2 after printing the catalogue
	}
	out, err := c.checkOutputs(stdout)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-contract: %v\n", err)
		return exitUsage
	}
	c.announce(stderr)

	// The run's own context: cancelled, with steps.ErrTargetDown as the cause,
	// when the target stops answering.
	ctx, stop := context.WithCancelCause(parent)
	defer stop(nil)
	hc := c.target.Client()
	hc.Transport = steps.NewTargetWatch(hc.Transport, stop)
	suite := steps.NewSuite(c.profile, steps.Options{
		HTTPClient:  hc,
		FixturesDir: c.fixtures,
		Output:      stderr,
	})

	status, stopped := c.runSuite(ctx, parent, suite, stderr)
	if stopped == nil || c.scenarios > c.record.notRun() {
		c.writeSummary(suite, stdout, stderr)
	}
	if err := c.writeReports(out, suite, stopped); err != nil {
		fmt.Fprintf(stderr, "pricing-contract: %v\n", err)
		status = max(status, exitFail)
	}

	// Last, so that they are the lines a CI log ends with: each skipped
	// scenario with its reason, then one line per profile value missing.
	defer c.writeSkipped(stderr, suite)
	return c.verdict(parent, status, stopped, stderr)
}

// runSuite runs the preflight, then the scenarios and the gate: godog's
// status and the gate's, and why the run stopped early (nil: it did not).
func (c *runConfig) runSuite(ctx, parent context.Context, suite *steps.Suite, stderr io.Writer) (int, error) {
	var stopped error
	if c.noPreflight {
		stopped = suite.Identify(ctx)
	} else {
		stopped = suite.Preflight(ctx)
	}
	if stopped != nil {
		return exitPass, stopped
	}
	if !c.console {
		c.record.progress = report.Progress(stderr)
	}
	console := &countsWriter{w: c.godog.Output, record: c.record, resolve: func(s string) string { return suite.ResolveName(s, 0) }}
	c.godog.Output = console
	status := godog.TestSuite{
		Name:                 "pricing-contract",
		TestSuiteInitializer: suite.InitializeTestSuite,
		ScenarioInitializer:  c.record.hooks(ctx, suite.InitializeScenario),
		Options:              &c.godog,
	}.Run()
	console.flush()
	if cause := context.Cause(ctx); errors.Is(cause, steps.ErrTargetDown) {
		return status, cause
	}
	if parent.Err() == nil {
		c.exploreTarget(ctx, suite, stderr)
		status = max(status, c.gate.status())
	}
	return status, nil
}

// writeSummary writes the coverage and the gate's summary: on stdout,
// unless a machine-readable report there must stay parseable.
func (c *runConfig) writeSummary(suite *steps.Suite, stdout, stderr io.Writer) {
	summary := stdout
	if c.structured {
		summary = stderr
	}
	fmt.Fprintln(summary)
	if err := suite.Coverage().WriteText(summary); err != nil {
		fmt.Fprintf(stderr, "pricing-contract: coverage summary: %v\n", err)
	}
	c.gate.writeSummary(summary, stderr)
}

// verdict is the exit status of a run whose suite answered status and
// stopped early for stopped (nil: it did not), said on stderr when it is
// not the suite's.
func (c *runConfig) verdict(parent context.Context, status int, stopped error, stderr io.Writer) int {
	var unusable *steps.UnusableError
	switch {
	case parent.Err() != nil && c.record.notRun() == c.scenarios:
		fmt.Fprintf(stderr, "pricing-contract: interrupted (%v) before the first scenario\n", context.Cause(parent))
		return exitFail
	case errors.As(stopped, &unusable):
		fmt.Fprintf(stderr, "pricing-contract: target or profile not usable, no scenario was run: %s\n", unusable.Reason)
		if unusable.Detail != "" {
			fmt.Fprintf(stderr, "%s\n", indent(strings.TrimRight(unusable.Detail, "\n"), "  "))
		}
		return exitUnusable
	case stopped != nil:
		fmt.Fprintf(stderr, "pricing-contract: stopped early, %d of %d scenarios not run: %v\n", c.record.notRun(), c.scenarios, stopped)
		return exitUnusable
	case parent.Err() != nil:
		fmt.Fprintf(stderr, "pricing-contract: interrupted (%v): the scenarios under way finished, the others were not run\n", context.Cause(parent))
		return max(status, exitFail)
	}
	if status == exitFail {
		if lines := steps.ProfileErrors(c.record.failureReasons()); len(lines) > 0 {
			fmt.Fprintf(stderr, "pricing-contract: every failure is a value of the profile the target refused; fix the profile, the contract was not judged:\n")
			for _, l := range lines {
				fmt.Fprintf(stderr, "  %s\n", l)
			}
			return exitUnusable
		}
	}
	return status
}

// writeSkipped lists on w, once for the whole run, the skipped scenarios
// grouped by their reason, then one line per profile value that was
// missing and how to write a profile that has it.
func (c *runConfig) writeSkipped(w io.Writer, suite *steps.Suite) {
	var skipped []report.Scenario
	for _, s := range c.record.skipped() {
		skipped = append(skipped, reportScenario(&s, suite))
	}
	report.WriteSkipped(w, skipped, steps.MissingSummary(c.record.skipReasons()), c.profile.BaseURL)
}

// announce says on stderr what is run, where, and in which order: not
// every format prints the seed, and this line is in every CI log.
func (c *runConfig) announce(stderr io.Writer) {
	source := "embedded features"
	if c.features != "" {
		source = c.features
	}
	order := ""
	if c.godog.Randomize != 0 {
		order = fmt.Sprintf(", random order --godog.random=%d", c.godog.Randomize)
	}
	fmt.Fprintf(stderr, "pricing-contract: %d scenarios from %s against %s (tags %q%s)\n",
		c.scenarios, source, c.profile.BaseURL, c.godog.Tags, order)
	for _, n := range c.notes {
		fmt.Fprintf(stderr, "pricing-contract: %s\n", n)
	}
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// describeGodogFlags replaces the descriptions of godog's flags that do not
// hold for this command (feature paths, formats with a file, strict mode).
func describeGodogFlags(fs *flag.FlagSet) {
	for name, usage := range map[string]string{
		"godog.paths":           "run only these comma-separated feature `FILES` (name.feature or name.feature:LINE) of the embedded features or of --features DIR",
		"godog.format":          "output `FORMAT`: pretty, progress, junit, cucumber or events; FORMAT:FILE writes it to FILE; several comma-separated",
		"godog.tags":            "run the scenarios matching `EXPR`, e.g. '@s5 && ~@mutates-A' or '@s8,@s9' (&& and, comma or, ~ not); default: the profile's tags",
		"godog.concurrency":     "run `N` scenarios at once",
		"godog.random":          "run the scenarios in random order; --godog.random=SEED repeats the order of an earlier run",
		"godog.strict":          "ignored: undefined and pending steps always fail the run",
		"godog.no-colors":       "no ANSI colours (on by default unless stdout is a terminal)",
		"godog.definitions":     "print the step catalogue and exit",
		"godog.stop-on-failure": "stop at the first failed scenario",
		"godog.help":            "show this help",
	} {
		for _, n := range []string{name, shortGodogFlag[name]} {
			if f := fs.Lookup(n); f != nil {
				f.Usage = usage
			}
		}
	}
}

// shortGodogFlag names the one-letter aliases godog binds next to its flags.
var shortGodogFlag = map[string]string{
	"godog.format":      "godog.f",
	"godog.tags":        "godog.t",
	"godog.concurrency": "godog.c",
	"godog.definitions": "godog.d",
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// writeUsage prints the flags in the --name form users type, one line each,
// leaving out godog's one-letter aliases.
func writeUsage(w io.Writer, fs *flag.FlagSet) {
	short := map[string]bool{}
	for _, s := range shortGodogFlag {
		short[s] = true
	}
	fmt.Fprint(w, usageHeader)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fs.VisitAll(func(f *flag.Flag) {
		if short[f.Name] {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		arg := ""
		if name != "" {
			arg = " " + name
		}
		def := ""
		if name != "" && f.DefValue != "" && f.DefValue != "0" {
			def = fmt.Sprintf(" (default %s)", f.DefValue)
		}
		usage = strings.Join(strings.Fields(ansi.ReplaceAllString(usage, "")), " ")
		fmt.Fprintf(tw, "  --%s%s\t%s%s\n", f.Name, arg, usage, def)
	})
	tw.Flush()
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}
