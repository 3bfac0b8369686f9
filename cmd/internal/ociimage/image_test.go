package ociimage

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
)

// TestMockImageServesPlatforms builds the mock's image for this machine
// with the code make image runs, and starts its entry point as a container
// runtime would: the layer unpacked from the layout (every blob checked
// against its digest), the configuration's entry point and environment.
// No container runtime works in this sandbox (podman's crun may not set
// rlimits), so the process runs here, with the listen address overridden
// to 127.0.0.1:0 through PRICING_MOCK_ADDR, the variable the image sets to
// 0.0.0.0:8080. GET /v1/platforms must answer 200, and the admin API must
// need the token the mock requires beyond loopback.
func TestMockImageServesPlatforms(t *testing.T) {
	testenv.SkipShort(t, "builds the mock's image (a static go build): not under -short")
	if raceEnabled {
		t.Skip("not under -race: .ci/run runs it without")
	}
	layout := t.TempDir()
	host := HostPlatform()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := Build(ctx, Mock, layout, Options{Module: filepath.Join("..", "..", ".."), Platforms: []Platform{host}, Version: "v0.0.0-test"}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	cfg := unpack(t, layout, host, root)

	// The image listens on every interface of its container, and names the
	// binary of its layer, static: an empty base has no C library.
	if !slices.Contains(cfg.Env, "PRICING_MOCK_ADDR=0.0.0.0:8080") {
		t.Errorf("the image's environment %q does not listen on all interfaces", cfg.Env)
	}
	if len(cfg.Entrypoint) != 1 {
		t.Fatalf("entry point %q, want the binary alone", cfg.Entrypoint)
	}
	bin := filepath.Join(root, cfg.Entrypoint[0])
	if f, err := elf.Open(bin); err != nil {
		t.Fatalf("the entry point %s: %v", cfg.Entrypoint[0], err)
	} else {
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("the entry point is dynamically linked: it cannot start on an empty base")
			}
		}
		f.Close()
	}

	// Beyond loopback without a token the mock does not start: exit 2,
	// before it listens. (192.0.2.1, a documentation address, is beyond
	// loopback and not this machine's: a mock that tried to listen there
	// would fail to bind, with another status.)
	refuse := exec.CommandContext(ctx, bin)
	refuse.Env = imageEnv(cfg.Env, "PRICING_MOCK_ADDR=192.0.2.1:8080")
	out, err := refuse.CombinedOutput()
	if code := refuse.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "--admin-token") {
		t.Errorf("beyond loopback without a token: exit %d (%v), output %q; want 2 and a word on --admin-token", code, err, out)
	}

	const token = "image-test-token"
	cmd := exec.Command(bin)
	cmd.Dir = root
	cmd.Env = imageEnv(cfg.Env, "PRICING_MOCK_ADDR=127.0.0.1:0", "PRICING_MOCK_ADMIN_TOKEN="+token)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() {
		// Stopped by its PID, and waited for.
		if p, err := os.FindProcess(pid); err == nil {
			p.Kill()
		}
		cmd.Wait()
	})
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
		io.Copy(io.Discard, stdout)
	}()
	var url string
	select {
	case line := <-lines:
		m := regexp.MustCompile(`listening on (http://127\.0\.0\.1:[0-9]+)`).FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("the entry point's first line %q names no loopback address", line)
		}
		url = m[1]
	case <-time.After(30 * time.Second):
		t.Fatal("the entry point did not say where it listens within 30 s")
	}

	get := func(path string, header ...string) int {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+path, nil)
		if len(header) == 2 {
			req.Header.Set(header[0], header[1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if path == "/v1/platforms" && !strings.Contains(string(body), `"platforms"`) {
			t.Errorf("GET /v1/platforms answered %s", body)
		}
		return res.StatusCode
	}
	if code := get("/v1/platforms"); code != http.StatusOK {
		t.Errorf("GET /v1/platforms: %d, want 200", code)
	}
	if code := get("/__admin/requests"); code != http.StatusUnauthorized {
		t.Errorf("the admin API without the token: %d, want 401", code)
	}
	if code := get("/__admin/requests", "Authorization", "Bearer "+token); code != http.StatusOK {
		t.Errorf("the admin API with the token: %d, want 200", code)
	}
}

// imageEnv is the process environment a runtime gives the image: its
// configuration's, then the run's own (-e), which win.
func imageEnv(image []string, run ...string) []string {
	return append(slices.Clone(image), run...)
}

type runConfig struct {
	Entrypoint, Cmd, Env []string
	User, WorkingDir     string
}

// unpack reads the layout's image for p, checks every blob it reads
// against its digest and size, extracts its layers into root and returns
// its run configuration.
func unpack(t *testing.T, layout string, p Platform, root string) runConfig {
	t.Helper()
	type desc struct {
		MediaType string
		Digest    string
		Size      int64
		Platform  *struct{ Architecture, OS string }
	}
	blob := func(d desc) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(layout, "blobs", "sha256", strings.TrimPrefix(d.Digest, "sha256:")))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if "sha256:"+hex.EncodeToString(sum[:]) != d.Digest || int64(len(b)) != d.Size {
			t.Fatalf("blob %s: digest or size differ from its descriptor", d.Digest)
		}
		return b
	}
	var index struct{ Manifests []desc }
	b, err := os.ReadFile(filepath.Join(layout, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &index); err != nil || len(index.Manifests) != 1 || index.Manifests[0].MediaType != mediaIndex {
		t.Fatalf("index.json (%v): want one image index, got %s", err, b)
	}
	var images struct{ Manifests []desc }
	if err := json.Unmarshal(blob(index.Manifests[0]), &images); err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Config desc
		Layers []desc
	}
	for _, m := range images.Manifests {
		if m.Platform != nil && m.Platform.OS == p.OS && m.Platform.Architecture == p.Arch {
			if err := json.Unmarshal(blob(m), &manifest); err != nil {
				t.Fatal(err)
			}
		}
	}
	if manifest.Config.Digest == "" {
		t.Fatalf("the layout has no image for %s/%s", p.OS, p.Arch)
	}
	var config struct {
		OS, Architecture string
		Config           runConfig
		RootFS           struct {
			DiffIDs []string `json:"diff_ids"`
		}
	}
	if err := json.Unmarshal(blob(manifest.Config), &config); err != nil {
		t.Fatal(err)
	}
	if config.OS != p.OS || config.Architecture != p.Arch || len(config.RootFS.DiffIDs) != len(manifest.Layers) {
		t.Fatalf("the configuration is for %s/%s with %d diff ids for %d layers", config.OS, config.Architecture, len(config.RootFS.DiffIDs), len(manifest.Layers))
	}
	for i, l := range manifest.Layers {
		zr, err := gzip.NewReader(strings.NewReader(string(blob(l))))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		tr := tar.NewReader(io.TeeReader(zr, h))
		for {
			hdr, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(root, filepath.Clean("/"+hdr.Name))
			switch hdr.Typeflag {
			case tar.TypeDir:
				err = os.MkdirAll(path, 0o755)
			case tar.TypeReg:
				var f *os.File
				if f, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(hdr.Mode)&0o777); err == nil {
					_, err = io.Copy(f, tr)
					f.Close()
				}
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		io.Copy(io.Discard, zr)
		if got := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != config.RootFS.DiffIDs[i] {
			t.Fatalf("layer %d: diff id %s, the configuration says %s", i, got, config.RootFS.DiffIDs[i])
		}
	}
	return config.Config
}
