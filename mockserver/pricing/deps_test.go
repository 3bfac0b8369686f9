package pricing

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoHTTPInTheDomain holds the package to its layering: nothing it
// imports, directly or not, is HTTP, Gin or the rest of the mock (the
// HTTP adapter, the wrong servers); of the mock it may use only its internal
// helpers, which are held to the same through this list.
func TestNoHTTPInTheDomain(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list the package's dependencies: %v", err)
	}
	const (
		mock     = "github.com/pricing-contract/pricing-contract/mockserver"
		self     = mock + "/pricing"
		internal = mock + "/internal/"
	)
	out, err := exec.Command(goTool, "list", "-deps", self).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", self, err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 || deps[len(deps)-1] != self {
		t.Fatalf("go list -deps answered %d packages, the last %q; want the package's dependencies, then itself", len(deps), deps[len(deps)-1])
	}
	for _, d := range deps {
		switch {
		case d == "net/http" || strings.HasPrefix(d, "net/http/"),
			strings.Contains(d, "gin-gonic"),
			strings.HasPrefix(d, mock) && d != self && !strings.HasPrefix(d, internal):
			t.Errorf("the domain depends on %s", d)
		}
	}
}
