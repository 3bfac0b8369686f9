package pricing

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
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
// tests and the other lineages for a string literal that spells a code:
// outside the table, code must name the table's variables, so that a typo
// is a compile error.
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
	// The implementations of other lineages spell their own codes: they
	// were written without the mock, and their table is theirs.
	lineages := filepath.Join(root, "mockserver", "variants", "lineages")
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && path == lineages {
			return filepath.SkipDir
		}
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

// TestEveryValidationCodeIsCompleted is the contributor's checklist of
// README's "Changing the spec", run: a field code of the table
// (Invalid…, 400) needs a case in validate_test.go, a scenario in
// features/ that expects it, and a mention in the README (the table of the
// spec's codes or "Where the spec is silent"). The message says which is
// missing.
func TestEveryValidationCodeIsCompleted(t *testing.T) {
	root := moduleRoot(t)
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	validateTests := read("mockserver/pricing/validate_test.go")
	// A code of a request body is named by the field tables or by
	// validation itself.
	validate := read("mockserver/pricing/fields.go") + read("mockserver/pricing/validate.go")
	readme := read("README.md")
	spec := read("fixtures/spec/pricing-api.md")
	var features strings.Builder
	entries, err := os.ReadDir(filepath.Join(root, "features"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".feature") {
			features.WriteString(read(filepath.Join("features", e.Name())))
		}
	}
	checked := 0
	for _, c := range Codes() {
		name := c.String()
		if !strings.HasPrefix(name, "Invalid") || c.Status() != 400 || c == CodeInvalidBody {
			continue
		}
		// The codes of request bodies are fields.go's and validate.go's; the
		// admin API's (a state, a rule, a namespace) are the mock's own.
		variable := ""
		for _, v := range []string{"Code" + name, "Code" + strings.ReplaceAll(name, "Id", "ID")} {
			if strings.Contains(validate, v) {
				variable = v
			}
		}
		if variable == "" {
			continue
		}
		checked++
		if !strings.Contains(validateTests, name) && !strings.Contains(validateTests, variable) {
			t.Errorf("%s: no case in mockserver/pricing/validate_test.go shows it", name)
		}
		if !regexp.MustCompile(`\|\s*` + name + `\s*\|`).MatchString(features.String()) {
			t.Errorf("%s: no scenario in features/ expects it (a row \"| field | %s |\" of an errors table)", name, name)
		}
		if !documented(name, spec, readme) {
			t.Errorf("%s: neither spec 7.3 nor README.md names it, and it is not `Invalid` + the name of a field it answers (README, \"Where the spec is silent\"): add it to that table", name)
		}
	}
	if checked < 10 {
		t.Errorf("checked %d validation codes; the table lost some", checked)
	}
}

// documented reports whether a code is the spec's (a row of 7.3's table), or
// the mock's and written down: by the README's rule for a field 7.3 names no
// code for ("Invalid" and the field's path, its first letter upper-cased and
// each part after a dot upper-cased too) where a field of the tables answers it, or by name in
// the README.
func documented(name, spec, readme string) bool {
	if regexp.MustCompile(`\|\s*` + name + `\s*\|`).MatchString(spec) {
		return true
	}
	if regexp.MustCompile("`" + name + "`").MatchString(readme) {
		return true
	}
	for _, t := range Bodies() {
		for _, f := range t.Fields {
			if f.Code.String() == name && name == ruleCode(f.Path) {
				return true
			}
		}
	}
	return false
}

// ruleCode is the README's rule for a code 7.3 does not give.
func ruleCode(path string) string {
	code := "Invalid"
	for _, part := range strings.Split(path, ".") {
		code += strings.ToUpper(part[:1]) + part[1:]
	}
	return code
}

// TestDocumented holds the README check of TestEveryValidationCodeIsCompleted
// to failing: a code of the mock's own that breaks the README's rule is
// undocumented until the README names it.
func TestDocumented(t *testing.T) {
	spec := "| PUT /users/:userId | InvalidEmail | The email address is invalid |"
	for _, c := range []struct {
		name, readme string
		want         bool
	}{
		{"InvalidEmail", "", true},      // 7.3's
		{"InvalidTimezone", "", true},   // the rule, for timezone
		{"InvalidCurrencyId", "", true}, // the rule, for currency.id
		{"InvalidPlanId", "", false},    // nextplan.id: not the rule
		{"InvalidPlanId", "answers `InvalidPlanId`", true},
		{"InvalidTimeZone", "", false},             // no field's rule
		{"InvalidPlanId", "InvalidPlanIdX", false}, // a longer word is not a mention
	} {
		if got := documented(c.name, spec, c.readme); got != c.want {
			t.Errorf("documented(%q, readme %q) = %v, want %v", c.name, c.readme, got, c.want)
		}
	}
}
