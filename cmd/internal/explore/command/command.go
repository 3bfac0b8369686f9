// Package command is pricing-contract explore, the command: its flags, the
// run of the explorer (package explore) and what it writes. Apart from the
// explorer, so that the commands that use the explorer's stages (replay,
// the gate) import no command.
package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/exitcode"
	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/cmd/internal/report"
	"github.com/pricing-contract/pricing-contract/steps"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// DefaultOut is the folder explore writes its reproducers to: a reports
// folder that .gitignore lists.
const DefaultOut = report.ExploreDir

// Main runs `pricing-contract explore`.
func Main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pricing-contract explore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var tf target.Flags
	tf.Register(fs)
	var (
		runs     = fs.Int("runs", 0, "explore at most `N` random sequences (0: as many as the budget allows)")
		budget   = fs.Duration("budget", 60*time.Second, "stop starting sequences after `D` (0: --runs alone)")
		seed     = fs.Uint64("seed", 0, "the `SEED` of the sequences (0: from the clock; every run prints its seed)")
		out      = fs.String("out", DefaultOut, "write each divergence's reproducer to `DIR` (one .feature each)")
		coverage = fs.String("coverage", "", "write the cells of the input space the run exercised, with their verdicts, as JSON to `FILE`")
		maxDiv   = fs.Int("max-divergences", 10, "stop once `N` distinct divergences are reported")
		force    = fs.Bool("force", false, "replace a file at an output's path that is no reproducer or coverage of these tools (one of theirs is replaced without it; a symbolic link never)")
	)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitcode.Pass
		}
		return exitcode.Usage
	}
	p, _, err := tf.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-contract explore: %v\n", err)
		return exitcode.Usage
	}
	if *runs == 0 && *budget == 0 {
		fmt.Fprintf(stderr, "pricing-contract explore: give --runs or --budget\n")
		return exitcode.Usage
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	covFile := report.Output{Path: *coverage, Kind: report.ExploreJSON, Force: *force}
	if *coverage != "" {
		if err := covFile.Check(); err != nil {
			fmt.Fprintf(stderr, "pricing-contract explore: --coverage: %v\n", err)
			return exitcode.Usage
		}
	}
	fmt.Fprintf(stderr, "pricing-contract explore: against %s, --runs %d --budget %s --seed %d\n", p.BaseURL, *runs, *budget, *seed)
	res, err := explore.Run(ctx, p, explore.Config{Runs: *runs, Budget: *budget, Seed: *seed, Timeout: tf.Timeout, Progress: stderr, MaxDivergences: *maxDiv,
		HTTPClient: tf.Client()})
	if err != nil {
		var unusable *steps.UnusableError
		if errors.As(err, &unusable) && unusable.Detail != "" {
			err = fmt.Errorf("%v\n%s", err, unusable.Detail)
		}
		fmt.Fprintf(stderr, "pricing-contract explore: target or profile not usable: %v\n", err)
		return exitcode.Unusable
	}
	if *coverage != "" {
		if err := covFile.Write(res.WriteCoverage); err != nil {
			fmt.Fprintf(stderr, "pricing-contract explore: --coverage: %v\n", err)
		}
	}
	files, err := res.WriteReproducers(*out, *force)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-contract explore: %v\n", err)
	}
	res.WriteSummary(stdout, *seed, files)
	if res.Diverged() {
		return exitcode.Fail
	}
	return exitcode.Pass
}
