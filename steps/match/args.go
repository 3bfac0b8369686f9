package match

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// Quoted is the expression of a Quoted step argument that cannot hold an
// unescaped double quote: "a \"b\"" is one argument. Arguments that must also
// accept unescaped quotes, such as gjson paths written `#(name=="x")`, use
// "(.*?)" or "(.*)" instead and rely on the rest of the phrase to end them.
const Quoted = `"((?:[^"\\]|\\.)*)"`

// UnescapeArg undoes the escapes of a Quoted step argument: \" is ", \\ is
// \. Any other backslash is kept as written, so that a regular expression
// such as "^\d+$" needs no doubling. It runs before {{name}} substitution:
// the escapes belong to the feature's text, not to the values substituted.
func UnescapeArg(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// CheckPath rejects a gjson path that gjson would silently treat as a path
// matching nothing: gjson has no syntax errors, it just finds no value, which
// would make "is absent" pass whatever the target answered. The check is
// about structure only; a well-formed path naming a key that does not exist
// is not an error. It rejects:
//   - a lone backslash at the end;
//   - a query #(…) or #[…] or a multipath […] {…} that is not closed, a
//     closing bracket with no opening one (escape it as \) for a key), or
//     brackets of different kinds paired;
//   - an unterminated string inside a query or multipath;
//   - a query comparison without a value, or whose value is neither a JSON
//     string ("x"), nor a bare word without quotes and backslashes (5, true,
//     x), nor one of ~true ~false ~null ~*;
//   - an unknown @modifier where gjson looks for one (write \@name for a key).
func CheckPath(p string) error {
	if err := checkPathAt(p); err != nil {
		return fmt.Errorf("malformed gjson path %q: %w", p, err)
	}
	return nil
}

var closerOf = map[byte]byte{'(': ')', '[': ']', '{': '}'}

func checkPathAt(p string) error {
	componentStart := true // at the start of the path or after . or |
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 == len(p) {
				return fmt.Errorf("it ends with a lone backslash")
			}
			i++
			componentStart = false
			continue
		case c == '@' && componentStart:
			end := i + 1
			for end < len(p) && !strings.ContainsRune(".|:", rune(p[end])) {
				end++
			}
			if name := p[i+1 : end]; !gjson.ModifierExists(name, nil) {
				return fmt.Errorf("@%s is not a gjson modifier (write \\@%s for a key of that name)", name, name)
			}
		case c == '#' && i+1 < len(p) && (p[i+1] == '(' || p[i+1] == '['):
			end, err := groupEnd(p, i+1)
			if err != nil {
				return err
			}
			if err := checkQuery(p[i+2 : end]); err != nil {
				return err
			}
			i = end
			componentStart = false
			continue
		case (c == '[' || c == '{') && componentStart:
			end, err := groupEnd(p, i)
			if err != nil {
				return err
			}
			i = end
			componentStart = false
			continue
		case c == ')' || c == ']' || c == '}':
			return fmt.Errorf("%q at offset %d closes nothing (write \\%c for a key character)", c, i, c)
		}
		componentStart = c == '.' || c == '|'
	}
	return nil
}

// groupEnd returns the index of the bracket that closes the one at p[open],
// skipping strings and escapes; brackets nest and must pair by kind.
func groupEnd(p string, open int) (int, error) {
	stack := []byte{closerOf[p[open]]}
	for i := open + 1; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			i++
		case '"':
			end, err := stringEnd(p, i)
			if err != nil {
				return 0, err
			}
			i = end
		case '(', '[', '{':
			stack = append(stack, closerOf[c])
		case ')', ']', '}':
			if want := stack[len(stack)-1]; c != want {
				return 0, fmt.Errorf("%q at offset %d where %q was expected", c, i, want)
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("%q at offset %d is not closed", p[open], open)
}

// stringEnd returns the index of the quote that ends the string opened at
// p[open].
func stringEnd(p string, open int) (int, error) {
	for i := open + 1; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '"':
			return i, nil
		}
	}
	return 0, fmt.Errorf("the string at offset %d is not terminated", open)
}

// checkQuery checks the inside of #(…): a path, then optionally an operator
// and a value, found as gjson finds them (the first operator character outside
// nested brackets).
func checkQuery(q string) error {
	depth, op := 0, -1
	for i := 0; i < len(q) && op < 0; i++ {
		switch c := q[i]; {
		case c == '\\':
			i++
		case c == '"':
			end, err := stringEnd(q, i)
			if err != nil {
				return err
			}
			i = end
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth == 0 && strings.IndexByte("!=<>%", c) >= 0:
			op = i
		}
	}
	if op < 0 {
		return checkPathAt(strings.TrimSpace(q))
	}
	if err := checkPathAt(strings.TrimSpace(q[:op])); err != nil {
		return err
	}
	rest := q[op:]
	n := 1
	if len(rest) > 1 && strings.IndexByte("=%", rest[1]) >= 0 && rest[0] != '%' {
		n = 2
	}
	operator, value := rest[:n], strings.TrimSpace(rest[n:])
	switch {
	case value == "":
		return fmt.Errorf("the query #(%s) compares with %s but has no value", q, operator)
	case value[0] == '"':
		if r := gjson.Parse(value); !gjson.Valid(value) || r.Type != gjson.String {
			return fmt.Errorf("the query #(%s) compares with %s, which is not one JSON string", q, value)
		}
	case value[0] == '~':
		switch value {
		case "~true", "~false", "~null", "~*":
		default:
			return fmt.Errorf("the query #(%s) compares with %s; ~ takes true, false, null or *", q, value)
		}
	case strings.ContainsAny(value, `"\`):
		return fmt.Errorf("the query #(%s) compares with %s: quote a string value whole, as \"x\" (in a step argument, write \\\"x\\\" or \"x\")", q, value)
	}
	return nil
}
