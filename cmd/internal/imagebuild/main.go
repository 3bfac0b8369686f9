// Command imagebuild writes the container images of pricing-mock and
// pricing-contract as OCI image layouts, for linux/amd64 and linux/arm64,
// without a container daemon (package ociimage):
//
//	go run ./cmd/internal/imagebuild [--out bin/image] [--version V] [--commit C]
//
// make image runs it. Each layout is a folder that podman, skopeo and crane
// read: podman load -i DIR, skopeo copy oci:DIR docker://REGISTRY/NAME:TAG.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/pricing-contract/pricing-contract/cmd/internal/ociimage"
)

func main() {
	out := flag.String("out", "bin/image", "write the layouts to `DIR`/pricing-mock and DIR/pricing-contract")
	version := flag.String("version", "dev", "the version stamped into --version and the images' labels")
	commit := flag.String("commit", "", "the commit stamped into --version and the images' labels")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := ociimage.Options{Module: ".", Version: *version, Commit: *commit, Trimpath: true}
	for _, img := range []ociimage.Image{ociimage.Mock, ociimage.Suite} {
		dir := filepath.Join(*out, img.Name)
		size, err := ociimage.Build(ctx, img, dir, opts)
		if err != nil {
			fmt.Fprintf(os.Stderr, "imagebuild: %s: %v\n", img.Name, err)
			os.Exit(1)
		}
		fmt.Printf("%s: OCI image layout, %d platforms, %.1f MiB\n", dir, len(ociimage.Platforms), float64(size)/(1<<20))
	}
}
