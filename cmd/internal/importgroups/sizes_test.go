package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The measures of the code the README states (Layout): a non-test Go file
// over maxFileLines lines, a function over maxFuncLines lines from its
// func line to its closing brace.
const (
	maxFileLines = 600
	maxFuncLines = 80
)

// TestSizes lists the module's non-test Go files over maxFileLines lines
// and functions over maxFuncLines lines, longest first (make sizes prints
// them): the team's code, then what lives under a third_party folder (the
// lineages' servers, kept as their authors wrote them, which duplicates
// does not read either). It judges nothing: the README says what the
// counts are. It sits beside the import groups' check, the module's other
// reading of its own source, so that no program is added for it.
func TestSizes(t *testing.T) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	root := strings.TrimSpace(string(out))
	ls := exec.Command("git", "ls-files", "*.go")
	ls.Dir = root
	out, err = ls.Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	type size struct {
		lines int
		what  string
	}
	var files, funcs, theirFiles, theirFuncs []size
	fset := token.NewFileSet()
	for _, name := range strings.Fields(string(out)) {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fileList, funcList := &files, &funcs
		if strings.Contains("/"+name, "/third_party/") {
			fileList, funcList = &theirFiles, &theirFuncs
		}
		src, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(src, []byte("\n")); n > maxFileLines {
			*fileList = append(*fileList, size{n, name})
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxFuncLines {
					*funcList = append(*funcList, size{n, name + " " + fn.Name.Name})
				}
			}
		}
	}
	for _, list := range []struct {
		title string
		sizes []size
	}{
		{fmt.Sprintf("non-test Go files over %d lines", maxFileLines), files},
		{fmt.Sprintf("functions over %d lines", maxFuncLines), funcs},
		{fmt.Sprintf("non-test Go files over %d lines under third_party", maxFileLines), theirFiles},
		{fmt.Sprintf("functions over %d lines under third_party", maxFuncLines), theirFuncs},
	} {
		sort.SliceStable(list.sizes, func(i, j int) bool { return list.sizes[i].lines > list.sizes[j].lines })
		t.Logf("%d %s", len(list.sizes), list.title)
		for _, s := range list.sizes {
			t.Logf("  %4d %s", s.lines, s.what)
		}
	}
}
