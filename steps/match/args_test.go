package match

import (
	"strings"
	"testing"
)

func TestUnescapeArg(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, ``},
		{`plain`, `plain`},
		{`clients.#(name==\"x\")`, `clients.#(name=="x")`},
		{`clients.#(name=="x")`, `clients.#(name=="x")`},
		{`a\\b`, `a\b`},
		{`a\\\"b`, `a\"b`},
		{`\\\\`, `\\`},
		{`^\d+\.\w$`, `^\d+\.\w$`}, // other escapes are kept
		{`trailing\`, `trailing\`},
		{`\"{{name}}\"`, `"{{name}}"`},
	}
	for _, tt := range tests {
		if got := UnescapeArg(tt.in); got != tt.want {
			t.Errorf("UnescapeArg(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestCheckPath(t *testing.T) {
	good := []string{
		"email", "platforms.0.name", "platforms.#", "apps.#.id", "headers.X-Trace", "a\\.b", "a\\@b",
		`clients.#(name=="x")`, `clients.#(name=="x").id`, `clients.#(name=="a \"quoted\" (name)")`,
		`clients.#(name=="x")#`, `clients.#(id==5)`, `clients.#(id>=5)#.name`, `clients.#(vat)`,
		`plans.#(needBilling==true)`, `items.#(name%"con*")`, `items.#(name!%"con*")`, `items.#(a==~true)`,
		`roles.#(nested.#(=="one")).cap`, `#(==5)`, `a.#[name=="x"]`, `{name,id}`, `[name,id]`, `a.{b,c}`,
		`platforms.@reverse`, `@this`, `a|@pretty`, `friends.#(last=="Murphy")#|#(first!="x")`, `clients.#(name==x)`,
	}
	for _, p := range good {
		if err := CheckPath(p); err != nil {
			t.Errorf("CheckPath(%s): %v", p, err)
		}
	}
	bad := []struct{ path, want string }{
		{`clients.#(name==\"x\")`, `compares with \"x\": quote a string value whole`},
		{`clients.#(name=="x"`, `'(' at offset 9 is not closed`},
		{`clients.#(name=="x)`, `not terminated`},
		{`clients.#(name=="x"))`, `')' at offset 20 closes nothing`},
		{`clients.#(name==)`, `compares with == but has no value`},
		{`clients.#(name=="x"y)`, `is not one JSON string`},
		{`clients.#(name=="x"]`, `']' at offset 19 where ')' was expected`},
		{`clients.#(a==~maybe)`, `~ takes true, false, null or *`},
		{`a.b\`, `lone backslash`},
		{`{name,id`, `is not closed`},
		{`a.@nosuchmodifier`, `@nosuchmodifier is not a gjson modifier`},
		{`@nosuch.a`, `@nosuch is not a gjson modifier`},
		{`a]`, `closes nothing`},
		{`roles.#(nested.#(=="one").cap`, `is not closed`},
	}
	for _, tt := range bad {
		err := CheckPath(tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "malformed gjson path") {
			t.Errorf("CheckPath(%s) = %v, want an error containing %q", tt.path, err, tt.want)
		}
	}
}
