// Command serve runs the bare Gin engine of package baregin on a loopback
// address, for the wrk comparison of .ci/wrk-bench. It prints the address
// it listens on and serves until SIGINT or SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/baregin"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "`HOST:PORT` to listen on")
	key := flag.String("api-key", "qa-api-key", "the API key PUT /v1/users/1 takes")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "baregin:", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Handler: baregin.Engine(*key)}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	fmt.Printf("baregin listening on http://%s\n", ln.Addr())
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "baregin:", err)
		os.Exit(1)
	}
}
