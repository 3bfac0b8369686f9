// Package ociimage builds the container images of the mock and of the
// suite without a container daemon: each is one static Go binary in one
// layer on an empty base, written as an OCI image layout (a folder that
// podman, skopeo, crane and the registries' own tools read), one manifest
// per platform under one index.
//
// No base image: the binaries are static (CGO_ENABLED=0) and need no file
// of a distribution; the suite carries its own CA roots
// (golang.org/x/crypto/x509roots/fallback), and the image gives the
// unprivileged user 65532 an /etc/passwd line and a writable /tmp.
package ociimage

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Image describes one image: what to build and how it starts.
type Image struct {
	Name       string   // the ref name in the layout's index, e.g. pricing-mock
	Main       string   // the main package, e.g. ./cmd/pricing-mock
	Binary     string   // the file in the image's root, e.g. pricing-mock
	Env        []string // KEY=VALUE lines of the image's configuration
	Ports      []string // exposed ports, e.g. 8080/tcp
	WorkingDir string
	Cmd        []string // default arguments
}

// Mock is the image of pricing-mock. It listens on every interface of the
// container (PRICING_MOCK_ADDR, which --addr overrides); beyond loopback
// the mock refuses to start without an admin token (PRICING_MOCK_ADMIN_TOKEN
// or --admin-token) or --no-admin, so no token is baked in.
var Mock = Image{
	Name:   "pricing-mock",
	Main:   "./cmd/pricing-mock",
	Binary: "pricing-mock",
	Env:    []string{"PRICING_MOCK_ADDR=0.0.0.0:8080"},
	Ports:  []string{"8080/tcp"},
}

// Suite is the image of pricing-contract: the features and fixtures are
// in the binary; reports are written to /work, where a volume goes.
var Suite = Image{
	Name:       "pricing-contract",
	Main:       "./cmd/pricing-contract",
	Binary:     "pricing-contract",
	WorkingDir: "/work",
}

// Platform is an os/arch pair of the images; only linux runs them.
type Platform struct{ OS, Arch string }

// Platforms are those of make image.
var Platforms = []Platform{{"linux", "amd64"}, {"linux", "arm64"}}

// Options are the build's settings beyond the image.
type Options struct {
	Module    string     // the folder of go.mod
	Platforms []Platform // default: Platforms
	Version   string     // stamped into --version and the image's labels; default "dev"
	Commit    string     // the same; optional
	Created   time.Time  // the image's date; default the Unix epoch, for repeatable images
	// Trimpath builds with -trimpath, as a release does: no path of the
	// build machine in the binary. A test leaves it off, to reuse the
	// packages CI compiled for its own tests (CGO_ENABLED=0 there).
	Trimpath bool
}

const (
	mediaIndex    = "application/vnd.oci.image.index.v1+json"
	mediaManifest = "application/vnd.oci.image.manifest.v1+json"
	mediaConfig   = "application/vnd.oci.image.config.v1+json"
	mediaLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
	nonroot       = 65532
	buildinfo     = "github.com/pricing-contract/pricing-contract/cmd/internal/buildinfo"
)

type descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Platform    *platformJSON     `json:"platform,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

type platformJSON struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
}

// Build compiles img's binary for each platform and writes the image
// layout to dir (emptied first). It returns the layout's size in bytes.
func Build(ctx context.Context, img Image, dir string, opts Options) (int64, error) {
	if len(opts.Platforms) == 0 {
		opts.Platforms = Platforms
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.Created.IsZero() {
		opts.Created = time.Unix(0, 0)
	}
	if err := os.RemoveAll(dir); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "blobs", "sha256"), 0o755); err != nil {
		return 0, err
	}
	tmp, err := os.MkdirTemp("", "ociimage-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)

	var manifests []descriptor
	for _, p := range opts.Platforms {
		bin := filepath.Join(tmp, p.OS+"-"+p.Arch, img.Binary)
		if err := compile(ctx, img, p, bin, opts); err != nil {
			return 0, err
		}
		m, err := writeImage(dir, img, p, bin, opts)
		if err != nil {
			return 0, err
		}
		manifests = append(manifests, m)
	}
	// One multi-platform image: the layout's index names an image index,
	// which lists a manifest per platform, as a registry serves it.
	ib, err := json.Marshal(map[string]any{"schemaVersion": 2, "mediaType": mediaIndex, "manifests": manifests})
	if err != nil {
		return 0, err
	}
	imageIndex, err := writeBlob(dir, mediaIndex, ib)
	if err != nil {
		return 0, err
	}
	imageIndex.Annotations = map[string]string{"org.opencontainers.image.ref.name": opts.Version}
	index := map[string]any{"schemaVersion": 2, "mediaType": mediaIndex, "manifests": []descriptor{imageIndex}}
	if err := writeJSONFile(filepath.Join(dir, "index.json"), index); err != nil {
		return 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "oci-layout"), []byte(`{"imageLayoutVersion":"1.0.0"}`), 0o644); err != nil {
		return 0, err
	}
	var size int64
	err = filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			size += fi.Size()
		}
		return err
	})
	return size, err
}

// compile builds a static binary of img for p, stamped as the release
// build stamps it.
func compile(ctx context.Context, img Image, p Platform, out string, opts Options) error {
	ldflags := "-s -w -X " + buildinfo + ".version=" + opts.Version
	if opts.Commit != "" {
		ldflags += " -X " + buildinfo + ".commit=" + opts.Commit
	}
	args := []string{"build", "-ldflags", ldflags, "-o", out}
	if opts.Trimpath {
		args = append(args, "-trimpath")
	}
	cmd := exec.CommandContext(ctx, "go", append(args, img.Main)...)
	cmd.Dir = opts.Module
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.OS, "GOARCH="+p.Arch)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s for %s/%s: %v\n%s", img.Main, p.OS, p.Arch, err, b)
	}
	return nil
}

// writeImage writes the layer, the configuration and the manifest of one
// platform's image as blobs of dir, and returns the manifest's descriptor.
func writeImage(dir string, img Image, p Platform, bin string, opts Options) (descriptor, error) {
	layer, diffID, err := rootfs(img, bin, opts.Created)
	if err != nil {
		return descriptor{}, err
	}
	layerDesc, err := writeBlob(dir, mediaLayer, layer)
	if err != nil {
		return descriptor{}, err
	}
	labels := map[string]string{
		"org.opencontainers.image.title":   img.Name,
		"org.opencontainers.image.version": opts.Version,
		"org.opencontainers.image.source":  "https://github.com/pricing-contract/pricing-contract",
	}
	if opts.Commit != "" {
		labels["org.opencontainers.image.revision"] = opts.Commit
	}
	ports := map[string]struct{}{}
	for _, port := range img.Ports {
		ports[port] = struct{}{}
	}
	run := map[string]any{
		"User":       fmt.Sprintf("%d:%d", nonroot, nonroot),
		"Entrypoint": []string{"/" + img.Binary},
		"Labels":     labels,
	}
	if len(img.Cmd) > 0 {
		run["Cmd"] = img.Cmd
	}
	if len(img.Env) > 0 {
		run["Env"] = img.Env
	}
	if len(ports) > 0 {
		run["ExposedPorts"] = ports
	}
	if img.WorkingDir != "" {
		run["WorkingDir"] = img.WorkingDir
	}
	config := map[string]any{
		"created":      opts.Created.UTC().Format(time.RFC3339),
		"architecture": p.Arch,
		"os":           p.OS,
		"config":       run,
		"rootfs":       map[string]any{"type": "layers", "diff_ids": []string{diffID}},
		"history":      []map[string]string{{"created": opts.Created.UTC().Format(time.RFC3339), "created_by": "go run ./cmd/internal/imagebuild (" + img.Main + ")"}},
	}
	configDesc, err := writeJSONBlob(dir, mediaConfig, config)
	if err != nil {
		return descriptor{}, err
	}
	manifest := map[string]any{
		"schemaVersion": 2,
		"mediaType":     mediaManifest,
		"config":        configDesc,
		"layers":        []descriptor{layerDesc},
	}
	md, err := writeJSONBlob(dir, mediaManifest, manifest)
	if err != nil {
		return descriptor{}, err
	}
	md.Platform = &platformJSON{Architecture: p.Arch, OS: p.OS}
	return md, nil
}

// rootfs is the image's one layer, gzipped, and the digest of the tar
// before compression (the configuration's diff_id): the binary, an
// /etc/passwd and /etc/group naming the unprivileged user, /tmp, and the
// working directory owned by that user.
func rootfs(img Image, bin string, created time.Time) (layer []byte, diffID string, err error) {
	b, err := os.ReadFile(bin)
	if err != nil {
		return nil, "", err
	}
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	dirs := []string{"etc/", "tmp/"}
	if wd := strings.Trim(img.WorkingDir, "/"); wd != "" {
		dirs = append(dirs, wd+"/")
	}
	for _, d := range dirs {
		mode, owner := int64(0o755), 0
		switch d {
		case "tmp/":
			mode = 0o1777
		case "etc/":
		default:
			owner = nonroot // the working directory
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d, Mode: mode, Uid: owner, Gid: owner, ModTime: created, Format: tar.FormatPAX}); err != nil {
			return nil, "", err
		}
	}
	files := []struct {
		name string
		mode int64
		body []byte
	}{
		{"etc/passwd", 0o644, fmt.Appendf(nil, "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:/tmp:/sbin/nologin\n", nonroot, nonroot)},
		{"etc/group", 0o644, fmt.Appendf(nil, "root:x:0:\nnonroot:x:%d:\n", nonroot)},
		{img.Binary, 0o755, b},
	}
	for _, f := range files {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: f.name, Mode: f.mode, Size: int64(len(f.body)), ModTime: created, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return nil, "", err
		}
		if _, err := tw.Write(f.body); err != nil {
			return nil, "", err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(raw.Bytes())
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return nil, "", err
	}
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return nil, "", err
	}
	if err := zw.Close(); err != nil {
		return nil, "", err
	}
	return gz.Bytes(), "sha256:" + hex.EncodeToString(sum[:]), nil
}

// writeJSONBlob stores v as JSON under its digest and describes it.
func writeJSONBlob(dir, mediaType string, v any) (descriptor, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return descriptor{}, err
	}
	return writeBlob(dir, mediaType, b)
}

// writeBlob stores b under its digest and describes it.
func writeBlob(dir, mediaType string, b []byte) (descriptor, error) {
	sum := sha256.Sum256(b)
	hexSum := hex.EncodeToString(sum[:])
	if err := os.WriteFile(filepath.Join(dir, "blobs", "sha256", hexSum), b, 0o644); err != nil {
		return descriptor{}, err
	}
	return descriptor{MediaType: mediaType, Digest: "sha256:" + hexSum, Size: int64(len(b))}, nil
}

func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// HostPlatform is the platform of this machine, for a test that runs the
// image's entry point here.
func HostPlatform() Platform { return Platform{OS: "linux", Arch: runtime.GOARCH} }
