// Command pricing-bench measures how much a pool of account pairs speeds up
// the contract suite against a remote target. It builds pricing-mock and
// pricing-contract, starts the mock on 127.0.0.1 with a latency (a staging
// server 30 ms away) and a pool of pairs, runs the spec scenarios at
// concurrency 1 and at --concurrency against it, prints both times and their
// ratio, and stops the mock by its PID:
//
//	pricing-bench [--latency 30ms] [--accounts 8] [--concurrency 16] [--runs 1]
//	              [--max-ratio 0.15] [--timeout 10m] [--tags EXPR]
//
// It exits 0 when every run passed and every ratio is at most --max-ratio,
// 1 otherwise, 2 on a bad flag.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
