package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEWorkflowIsTheLintedOne: the GitHub Actions example of the
// README is .ci/workflows/contract.yml, which .ci/actionlint checks with
// the action's inputs, but for the action's reference: the README names the
// published action, the linted file the action of this checkout.
func TestREADMEWorkflowIsTheLintedOne(t *testing.T) {
	readme := strings.Join(readmeBlock(t, "```yaml", "```"), "\n")
	if !strings.HasPrefix(readme, "name: contract\n") {
		t.Fatalf("the README's first yaml block is not the contract workflow:\n%s", readme)
	}
	b, err := os.ReadFile(filepath.Join("..", "..", ".ci", "workflows", "contract.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	linted := strings.Join(lines, "\n")
	const local, published = "uses: ./.ci/action", "uses: pricing-contract/pricing-contract/.ci/action@v1.2.0"
	if !strings.Contains(linted, local) || !strings.Contains(readme, published) {
		t.Fatalf("the linted workflow uses no %q or the README's no %q", local, published)
	}
	if got := strings.Replace(readme, published, local, 1); got != linted {
		t.Errorf("the README's workflow differs from .ci/workflows/contract.yml:\n--- README\n%s\n--- .ci/workflows/contract.yml\n%s", got, linted)
	}
}
