package pricing

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestCodeTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Codes() {
		if seen[c.String()] {
			t.Errorf("code %s is in the table twice", c)
		}
		seen[c.String()] = true
		switch {
		case c == CodeInjected:
			if c.Status() != 0 {
				t.Errorf("%s has status %d; an injected answer has the status injected", c, c.Status())
			}
		case strings.HasPrefix(c.String(), "Invalid") && c.Status() != 400:
			t.Errorf("%s has status %d, want 400", c, c.Status())
		case c.Status() < 400 || c.Status() > 599:
			t.Errorf("%s has status %d, want an error status", c, c.Status())
		}
		var back Code
		if err := back.UnmarshalText([]byte(c.String())); err != nil || back != c {
			t.Errorf("%s does not read back: %v, %v", c, back, err)
		}
	}
	if len(seen) < 40 {
		t.Errorf("%d codes; the table lost some", len(seen))
	}
	var c Code
	if err := c.UnmarshalText([]byte("InvalidFirstname")); err == nil {
		t.Error("a name that is no code reads as one")
	}
}

// TestCodesAreWrittenOnce looks through every Go file of the module but the
// tests for a string literal that spells a code: outside the table, code
// must name the table's variables, so that a typo is a compile error.
func TestCodesAreWrittenOnce(t *testing.T) {
	names := map[string]bool{}
	for _, c := range Codes() {
		names[c.String()] = true
	}
	root := moduleRoot(t)
	table, err := filepath.Abs("codes.go")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == table {
			return err
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s spells the code %s; use the table's variable", rel, s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("read %d Go files under %s; the walk missed the module", files, root)
	}
}

// moduleRoot is the folder of go.mod above the package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the package")
		}
		dir = parent
	}
}
