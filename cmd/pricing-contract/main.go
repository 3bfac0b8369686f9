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
	"os"
	"os/signal"
	"syscall"

	"github.com/pricing-contract/pricing-contract/cmd/internal/buildinfo"
	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/cmd/internal/replay"
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
	var code int
	switch {
	case len(os.Args) > 1 && os.Args[1] == "init":
		code = contract.Init(ctx, os.Args[2:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	case len(os.Args) > 1 && os.Args[1] == "explore":
		code = explore.Main(ctx, os.Args[2:], os.Getenv, os.Stdout, os.Stderr)
	case len(os.Args) > 1 && os.Args[1] == "replay":
		code = replay.Main(ctx, os.Args[2:], os.Getenv, os.Stdout, os.Stderr)
	default:
		code = contract.Run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	}
	stop()
	os.Exit(code)
}
