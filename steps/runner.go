package steps

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/colors"

	"github.com/pricing-contract/pricing-contract/features"
)

// Exit statuses of Run, as godog uses them.
const (
	exitPass  = 0
	exitFail  = 1
	exitUsage = 2
)

const usageHeader = `Usage: pricing-contract [flags]

Runs the Pricing API contract suite against the server at --base-url and exits
non-zero on any failed, undefined or pending step. The target profile comes from
--profile FILE and the PRICING_* environment (flag > environment > file > the
mock's seed). Scenarios tagged @reference check the mock's own decisions and run
only with --reference.

Flags:
`

// Run is the whole of cmd/pricing-contract: args are the command-line
// arguments without the program name, getenv supplies the PRICING_*
// variables. Suite output and the coverage summary go to stdout; stderr gets
// one line on what is run and one line per usage error. The status is 0 when
// every scenario passed, 1 when one failed (or had an undefined or pending
// step, or the run was interrupted through ctx), 2 for a bad flag or profile.
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg, code := parseArgs(args, getenv, stdout, stderr)
	if cfg == nil {
		return code
	}
	return cfg.run(ctx, stdout, stderr)
}

// runConfig is a parsed command line.
type runConfig struct {
	profile    Profile
	features   string // a folder on disk; empty means the embedded features
	fixtures   string
	coverage   string
	godog      godog.Options
	scenarios  int
	structured bool // a machine-readable format writes to stdout
}

func parseArgs(args []string, getenv func(string) string, stdout, stderr io.Writer) (*runConfig, int) {
	usageErr := func(format string, a ...any) (*runConfig, int) {
		fmt.Fprintf(stderr, "pricing-contract: "+format+" (see --help)\n", a...)
		return nil, exitUsage
	}

	fs := flag.NewFlagSet("pricing-contract", flag.ContinueOnError)
	var (
		cfg         = &runConfig{}
		baseURL     = fs.String("base-url", "", "base `URL` of the server under test, with the version segment (env PRICING_BASE_URL)")
		profilePath = fs.String("profile", "", "read the target profile and default tags from `FILE` (key = value lines, ${VAR} from the environment)")
		reference   = fs.Bool("reference", false, "also run the @reference scenarios, which check the mock's decisions where the spec is silent")
	)
	fs.StringVar(&cfg.features, "features", "", "run the *.feature files of `DIR` instead of the embedded ones")
	fs.StringVar(&cfg.coverage, "coverage", "", "write the coverage of endpoints and statuses as JSON to `FILE`")
	fs.StringVar(&cfg.fixtures, "fixtures", "", "read shapes/ and bodies/ from `DIR` before the embedded fixtures")

	cfg.godog = godog.Options{Format: "pretty", Concurrency: 1, NoColors: !isTerminal(stdout)}
	godog.BindFlags("godog.", fs, &cfg.godog)
	describeGodogFlags(fs)
	printUsage := func() { writeUsage(stdout, fs) }
	// Parse errors are reported as one line below, not with the whole usage.
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)

	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage()
			return nil, exitPass
		}
		return usageErr("%v", err)
	}
	if cfg.godog.ShowHelp {
		printUsage()
		return nil, exitPass
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q: select feature files with --godog.paths", fs.Arg(0))
	}

	p, profileTags, err := LoadProfile(*profilePath, getenv)
	if err != nil {
		return usageErr("%v", err)
	}
	if *baseURL != "" {
		p.BaseURL = strings.TrimRight(*baseURL, "/")
		if err := p.Validate(); err != nil {
			return usageErr("--base-url: %v", err)
		}
	}
	cfg.profile = p

	userTags := profileTags
	if flagSet(fs, "godog.tags") || flagSet(fs, "godog.t") {
		userTags = cfg.godog.Tags
	}
	if cfg.godog.Tags, err = tagFilter(userTags, *reference); err != nil {
		return usageErr("%v", err)
	}

	// godog reports a bad format on os.Stderr after the run has begun; check
	// it here so that the one clear line goes where the caller asked.
	for _, f := range strings.Split(cfg.godog.Format, ",") {
		name, file, toFile := strings.Cut(f, ":")
		if godog.FindFmt(name) == nil {
			return usageErr("unknown --godog.format %q", name)
		}
		if toFile && file == "" {
			return usageErr("--godog.format %s: needs a file name after the colon", name)
		}
		if !toFile && name != "pretty" && name != "progress" {
			cfg.structured = true
		}
	}
	if cfg.godog.Concurrency < 1 {
		return usageErr("--godog.concurrency must be at least 1")
	}

	// The suite must fail on a step it does not know: a typo in a feature
	// file must not pass a release.
	cfg.godog.Strict = true
	cfg.godog.Output = stdout
	if cfg.godog.ShowStepDefinitions {
		// godog colours the catalogue whatever the no-colors flag says.
		if cfg.godog.NoColors {
			cfg.godog.Output = colors.Uncolored(stdout)
		}
		return cfg, exitPass
	}
	if err := cfg.selectFeatures(); err != nil {
		return usageErr("%v", err)
	}
	if cfg.fixtures != "" {
		if fi, err := os.Stat(cfg.fixtures); err != nil || !fi.IsDir() {
			return usageErr("--fixtures %s: not a folder", cfg.fixtures)
		}
	}
	return cfg, exitPass
}

// selectFeatures points godog at the feature files and counts the scenarios
// the tag filter keeps. --godog.paths name files within the feature source,
// the embedded set or --features DIR, so an installed binary can run one
// feature (`--godog.paths users.feature:12`) without a checkout.
func (c *runConfig) selectFeatures() error {
	paths := c.godog.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	if c.features == "" {
		c.godog.FS = features.FS
		c.godog.Paths = paths
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

	opts := c.godog
	feats, err := (godog.TestSuite{Options: &opts}).RetrieveFeatures()
	if err != nil {
		return err
	}
	for _, f := range feats {
		c.scenarios += len(f.Pickles)
	}
	if c.scenarios == 0 {
		return fmt.Errorf("no scenario matches the tag filter %q", c.godog.Tags)
	}
	return nil
}

func (c *runConfig) run(ctx context.Context, stdout, stderr io.Writer) int {
	if c.godog.ShowStepDefinitions {
		godog.TestSuite{ScenarioInitializer: NewSuite(c.profile, Options{}).InitializeScenario, Options: &c.godog}.Run()
		return exitPass // godog answers 2 after printing the catalogue
	}

	var coverageFile *os.File
	if c.coverage != "" {
		// Created before the run so a bad path fails in a second, not after it.
		f, err := os.Create(c.coverage)
		if err != nil {
			fmt.Fprintf(stderr, "pricing-contract: --coverage: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		coverageFile = f
	}

	source := "embedded features"
	if c.features != "" {
		source = c.features
	}
	order := ""
	if c.godog.Randomize != 0 {
		// Not every format prints the seed; this line is in every CI log.
		order = fmt.Sprintf(", random order --godog.random=%d", c.godog.Randomize)
	}
	fmt.Fprintf(stderr, "pricing-contract: %d scenarios from %s against %s (tags %q%s)\n",
		c.scenarios, source, c.profile.BaseURL, c.godog.Tags, order)

	suite := NewSuite(c.profile, Options{FixturesDir: c.fixtures, Output: stderr})
	status := godog.TestSuite{
		Name:                 "pricing-contract",
		TestSuiteInitializer: suite.InitializeTestSuite,
		ScenarioInitializer:  stopWhenDone(ctx, suite.InitializeScenario),
		Options:              &c.godog,
	}.Run()

	// A machine-readable report on stdout must stay parseable.
	summary := stdout
	if c.structured {
		summary = stderr
	}
	cov := suite.Coverage()
	fmt.Fprintln(summary)
	if err := cov.WriteText(summary); err != nil {
		fmt.Fprintf(stderr, "pricing-contract: coverage summary: %v\n", err)
	}
	if coverageFile != nil {
		if err := writeCoverageJSON(coverageFile, cov); err != nil {
			fmt.Fprintf(stderr, "pricing-contract: --coverage: %v\n", err)
			status = max(status, exitFail)
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "pricing-contract: interrupted (%v): the scenarios under way finished, the others failed\n", context.Cause(ctx))
		status = max(status, exitFail)
	}
	return status
}

func writeCoverageJSON(f *os.File, cov Coverage) error {
	b, err := json.MarshalIndent(cov, "", "  ")
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		return err
	}
	return f.Close()
}

// stopWhenDone fails every scenario that starts after ctx is done (an
// interrupt), so the run ends quickly with its report. ctx is deliberately
// not the scenarios' context: a scenario under way runs to its end, After
// hook included, so an account it changed on a shared server is restored.
// The hook comes first so its error is the one reported.
func stopWhenDone(ctx context.Context, init func(*godog.ScenarioContext)) func(*godog.ScenarioContext) {
	return func(sc *godog.ScenarioContext) {
		sc.Before(func(sctx context.Context, _ *godog.Scenario) (context.Context, error) {
			if err := ctx.Err(); err != nil {
				return sctx, fmt.Errorf("not started: %w", context.Cause(ctx))
			}
			return sctx, nil
		})
		init(sc)
	}
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

// isTerminal reports whether w is a character device, where godog's colours
// help; in a CI log or a file they are noise.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
