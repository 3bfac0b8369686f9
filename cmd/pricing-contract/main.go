// Command pricing-contract runs the Pricing API contract suite against any
// base URL:
//
//	pricing-contract --base-url https://staging.example.com/v1
//	pricing-contract init --base-url https://staging.example.com/v1 --output staging.profile
//	pricing-contract explore --base-url https://staging.example.com/v1 --budget 10m
//	pricing-contract replay --base-url https://staging.example.com/v1 session.har
//
// The feature files are embedded, so the binary built from a checkout
// (`go build -o pricing-contract ./cmd/pricing-contract`) is all a pipeline
// needs. Run it with --help for the flags; package steps documents the
// vocabulary.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/pricing-contract/pricing-contract/cmd/internal/buildinfo"
	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/discover"
	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/cmd/internal/explore/command"
	"github.com/pricing-contract/pricing-contract/cmd/internal/replay"
	"github.com/pricing-contract/pricing-contract/steps"
)

func main() {
	// The version belongs to the binary, not to the step library that
	// parses the other flags.
	if buildinfo.Requested(os.Args[1:]) {
		fmt.Println(buildinfo.Line("pricing-contract"))
		return
	}
	// The first interrupt lets the scenarios under way finish (and restore
	// what they changed) and fails the rest; once it is seen, the default
	// handling is back, so a second interrupt ends the process at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the binary: its subcommands, each a package of cmd/internal, and
// the suite's gate given the explorer (no command package imports
// another).
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	sub := ""
	if len(args) > 0 {
		sub = args[0]
	}
	switch sub {
	case "init":
		return discover.Init(ctx, args[1:], getenv, stdin, stdout, stderr)
	case "explore":
		return command.Main(ctx, args[1:], getenv, stdout, stderr)
	case "replay":
		return replay.Main(ctx, args[1:], getenv, stdout, stderr)
	}
	return contract.Command{Explore: gateExplorer}.Run(ctx, args, getenv, stdout, stderr)
}

// gateExplorer is the explorer as the suite's gate runs it (--explore).
func gateExplorer(ctx context.Context, p steps.Profile, c contract.ExploreConfig) (contract.Exploration, error) {
	res, err := explore.Run(ctx, p, explore.Config{Budget: c.Budget, Seed: c.Seed, Timeout: c.Timeout, Progress: c.Progress, HTTPClient: c.HTTPClient, Created: c.Created})
	if err != nil {
		return nil, err
	}
	return res, nil
}
