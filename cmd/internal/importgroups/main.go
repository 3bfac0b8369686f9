// Command importgroups checks that the imports of every Go file given (or
// listed by git, with none) come in at most three groups separated by a
// blank line, in this order: the standard library, other modules, this
// module; each group holding only its kind.
//
//	go run ./cmd/internal/importgroups [FILE.go ...]
//
// It prints one line per file out of order and exits 1 when there is one.
// gofmt sorts each group but cannot tell the kinds apart, and goimports
// and gci are not in the module: this is the few lines it takes.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(files []string, stdout, stderr io.Writer) int {
	module, err := modulePath("go.mod")
	if err != nil {
		fmt.Fprintf(stderr, "importgroups: %v\n", err)
		return 2
	}
	if len(files) == 0 {
		out, err := exec.Command("git", "ls-files", "*.go").Output()
		if err != nil {
			fmt.Fprintf(stderr, "importgroups: git ls-files: %v\n", err)
			return 2
		}
		files = strings.Fields(string(out))
	}
	bad := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "importgroups: %v\n", err)
			return 2
		}
		problem, err := check(f, src, module)
		if err != nil {
			fmt.Fprintf(stderr, "importgroups: %v\n", err)
			return 2
		}
		if problem != "" {
			fmt.Fprintf(stdout, "%s: %s\n", f, problem)
			bad++
		}
	}
	if bad > 0 {
		fmt.Fprintf(stdout, "%d file(s) with imports out of their groups: standard library, other modules, %s; a blank line between groups\n", bad, module)
		return 1
	}
	return 0
}

// kind is an import's group, in the order the groups come.
type kind int

const (
	std kind = iota
	other
	own
)

func (k kind) String() string {
	return [...]string{"the standard library", "another module", "this module"}[k]
}

func kindOf(path, module string) kind {
	switch {
	case path == module || strings.HasPrefix(path, module+"/"):
		return own
	case !strings.Contains(strings.Split(path, "/")[0], "."):
		return std
	}
	return other
}

// check says what is wrong with the import groups of one file, "" for
// nothing.
func check(name string, src []byte, module string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return "", err
	}
	prevLine, prevKind, group := -1, std, 0
	var seen []kind // the kind of each group so far
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		k := kindOf(path, module)
		start := fset.Position(spec.Pos()).Line
		if spec.Doc != nil {
			start = fset.Position(spec.Doc.Pos()).Line
		}
		newGroup := prevLine < 0 || start > prevLine+1
		switch {
		case newGroup:
			group++
			if len(seen) > 0 && k <= seen[len(seen)-1] {
				return fmt.Sprintf("%q (%s) starts group %d after a group of %s", path, k, group, seen[len(seen)-1]), nil
			}
			seen = append(seen, k)
		case k != prevKind:
			return fmt.Sprintf("%q (%s) is in one group with imports of %s", path, k, prevKind), nil
		}
		prevLine, prevKind = fset.Position(spec.End()).Line, k
	}
	return "", nil
}

// modulePath reads the module path of a go.mod.
func modulePath(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}
