package main

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	const module = "example.com/m"
	tests := []struct {
		name, imports, want string // want: a part of the problem, "" for none
	}{
		{"three groups", "\"fmt\"\n\"os\"\n\n\"github.com/x/y\"\n\n\"example.com/m/a\"", ""},
		{"std and own", "\"fmt\"\n\n\"example.com/m/a\"", ""},
		{"one group of others", "\"github.com/x/y\"\n\"golang.org/x/z\"", ""},
		{"a doc comment in a group", "\"fmt\"\n// why\n_ \"time/tzdata\"\n\n\"example.com/m/a\"", ""},
		{"module in the std group", "\"fmt\"\n\"example.com/m/a\"\n\"os\"", `"example.com/m/a" (this module) is in one group with imports of the standard library`},
		{"other module in the std group", "\"fmt\"\n\"github.com/x/y\"", `"github.com/x/y" (another module) is in one group`},
		{"own before others", "\"fmt\"\n\n\"example.com/m/a\"\n\n\"github.com/x/y\"", `"github.com/x/y" (another module) starts group 3 after a group of this module`},
		{"two std groups", "\"fmt\"\n\n\"os\"", `starts group 2 after a group of the standard library`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package p\n\nimport (\n" + tt.imports + "\n)\n"
			got, err := check("p.go", []byte(src), module)
			if err != nil {
				t.Fatal(err)
			}
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("check = %q, want %q", got, tt.want)
			}
		})
	}
}
