package match

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// This file is the shape matcher: pure functions over JSON, no godog and no
// HTTP, so that every rule can be table-tested.

// Mismatch is one failing path of a shape match.
type Mismatch struct {
	Path, Want, Got string
}

func (m Mismatch) String() string {
	return fmt.Sprintf("%s: expected %s, got %s", m.Path, m.Want, m.Got)
}

// Shape matches a JSON value against a shape (see the package
// documentation for the markers). It returns every Mismatch, or an error
// when the shape itself is malformed.
func Shape(shape string, v gjson.Result) ([]Mismatch, error) {
	if !gjson.Valid(shape) {
		return nil, fmt.Errorf("the shape is not valid JSON: %s", shape)
	}
	m := &matcher{}
	m.match("$", gjson.Parse(shape), v)
	if m.err != nil {
		return nil, m.err
	}
	return m.out, nil
}

type matcher struct {
	out []Mismatch
	err error // the first problem of the shape itself
}

func (m *matcher) fail(path, want string, got gjson.Result) {
	m.out = append(m.out, Mismatch{Path: path, Want: want, Got: Describe(got)})
}

func (m *matcher) bad(path, format string, args ...any) {
	if m.err == nil {
		m.err = fmt.Errorf("invalid shape at %s: %s", path, fmt.Sprintf(format, args...))
	}
}

// Describe shows an actual value briefly.
func Describe(v gjson.Result) string {
	if !v.Exists() {
		return "absent"
	}
	raw := v.Raw
	if len(raw) > 120 {
		raw = raw[:117] + "..."
	}
	return raw
}

func (m *matcher) match(path string, shape, v gjson.Result) {
	switch {
	case shape.Type == gjson.String && strings.HasPrefix(shape.Str, "#"):
		m.marker(path, shape.Str, v)
	case shape.IsObject():
		m.object(path, shape, v)
	case shape.IsArray():
		m.array(path, shape, v)
	default:
		if !v.Exists() || !literalEqual(shape, v) {
			m.fail(path, shape.Raw, v)
		}
	}
}

// marker matches "#type", "##type", "#regex re", "#a|#b".
func (m *matcher) marker(path, marker string, v gjson.Result) {
	if re, ok := strings.CutPrefix(marker, "#regex "); ok {
		m.regex(path, marker, re, v)
		return
	}
	if re, ok := strings.CutPrefix(marker, "##regex "); ok {
		if !v.Exists() || v.Type == gjson.Null {
			return
		}
		m.regex(path, marker, re, v)
		return
	}
	alts := strings.Split(marker, "|")
	for _, alt := range alts {
		name := strings.TrimPrefix(strings.TrimPrefix(alt, "#"), "#")
		if strings.HasPrefix(name, "regex") {
			m.bad(path, "%q: #regex takes a pattern after a space and cannot be an alternative", marker)
			return
		}
		if !strings.HasPrefix(alt, "#") || MarkerTests[name] == nil {
			m.bad(path, "unknown marker %q in %q (known: #string #number #boolean #null #object #array #present #notpresent #ignore #iso8601 #regex, ## for optional, | for alternatives)", alt, marker)
			return
		}
	}
	for _, alt := range alts {
		optional := strings.HasPrefix(alt, "##")
		if optional && (!v.Exists() || v.Type == gjson.Null) {
			return
		}
		if MarkerTests[strings.TrimLeft(alt, "#")](v) {
			return
		}
	}
	m.fail(path, marker, v)
}

func (m *matcher) regex(path, marker, expr string, v gjson.Result) {
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		m.bad(path, "%q: %v", marker, err)
		return
	}
	if v.Type != gjson.String || !re.MatchString(v.Str) {
		m.fail(path, marker, v)
	}
}

var MarkerTests = map[string]func(gjson.Result) bool{
	"string":     func(v gjson.Result) bool { return v.Type == gjson.String },
	"number":     func(v gjson.Result) bool { return v.Type == gjson.Number },
	"boolean":    func(v gjson.Result) bool { return v.Type == gjson.True || v.Type == gjson.False },
	"null":       func(v gjson.Result) bool { return v.Exists() && v.Type == gjson.Null },
	"object":     func(v gjson.Result) bool { return v.IsObject() },
	"array":      func(v gjson.Result) bool { return v.IsArray() },
	"present":    func(v gjson.Result) bool { return v.Exists() },
	"notpresent": func(v gjson.Result) bool { return !v.Exists() },
	"ignore":     func(gjson.Result) bool { return true },
	"iso8601":    func(v gjson.Result) bool { return v.Type == gjson.String && IsISO8601(v.Str) },
}

// members returns an object's members in order; a repeated key keeps its
// last value, as encoding/json does.
func members(obj gjson.Result) (keys []string, vals map[string]gjson.Result) {
	vals = map[string]gjson.Result{}
	obj.ForEach(func(k, v gjson.Result) bool {
		if _, seen := vals[k.Str]; !seen {
			keys = append(keys, k.Str)
		}
		vals[k.Str] = v
		return true
	})
	return keys, vals
}

func (m *matcher) object(path string, shape, v gjson.Result) {
	keys, fields := members(shape)
	if each, ok := fields["#each"]; ok {
		m.each(path, fields, each, v)
		return
	}
	if inner, ok := fields["#optional"]; ok {
		if len(keys) != 1 {
			m.bad(path, "#optional takes no other key beside it")
			return
		}
		// Absent is fine; present, the value must match the inner shape
		// (so null passes only where the inner shape allows it). An absent
		// value is still matched in a probe, so that a malformed inner
		// shape is reported whatever the target answered.
		if v.Exists() {
			m.match(path, inner, v)
			return
		}
		probe := &matcher{}
		probe.match(path, inner, v)
		if m.err == nil {
			m.err = probe.err
		}
		return
	}
	closed := false
	for _, k := range keys {
		if !strings.HasPrefix(k, "#") {
			continue
		}
		switch {
		case k == "#closed" && (fields[k].Type == gjson.True || fields[k].Type == gjson.False):
			closed = fields[k].Type == gjson.True
		default:
			m.bad(path, "unknown key %q in an object shape (known: #closed; #each and #minItems together; #optional alone)", k)
			return
		}
	}
	if !v.IsObject() {
		m.fail(path, "an object", v)
		return
	}
	_, got := members(v)
	for _, k := range keys {
		if strings.HasPrefix(k, "#") {
			continue
		}
		m.match(childPath(path, k), fields[k], got[k])
	}
	if closed {
		var extra []string
		for k := range got {
			if _, ok := fields[k]; !ok {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		for _, k := range extra {
			m.fail(childPath(path, k), "no such key (#closed)", got[k])
		}
	}
}

func (m *matcher) each(path string, fields map[string]gjson.Result, each, v gjson.Result) {
	minItems := 0
	for k, f := range fields {
		switch k {
		case "#each":
		case "#minItems":
			n, err := strconv.Atoi(f.Raw)
			if err != nil || n < 0 {
				m.bad(path, "#minItems must be a non-negative integer, got %s", f.Raw)
				return
			}
			minItems = n
		default:
			m.bad(path, "key %q next to #each (only #minItems is allowed)", k)
			return
		}
	}
	if !v.IsArray() {
		m.fail(path, "an array", v)
		return
	}
	elems := v.Array()
	if len(elems) < minItems {
		m.fail(path, fmt.Sprintf("at least %d elements", minItems), v)
	}
	for i, e := range elems {
		m.match(fmt.Sprintf("%s[%d]", path, i), each, e)
	}
}

func (m *matcher) array(path string, shape, v gjson.Result) {
	if !v.IsArray() {
		m.fail(path, "an array", v)
		return
	}
	want, got := shape.Array(), v.Array()
	if len(want) != len(got) {
		m.fail(path, fmt.Sprintf("an array of %d elements", len(want)), v)
		return
	}
	for i := range want {
		m.match(fmt.Sprintf("%s[%d]", path, i), want[i], got[i])
	}
}

var plainKey = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func childPath(path, key string) string {
	if plainKey.MatchString(key) {
		return path + "." + key
	}
	return path + "[" + JSONString(key) + "]"
}

// literalEqual compares two scalars: numbers numerically, the rest by type
// and value.
func literalEqual(want, got gjson.Result) bool {
	switch want.Type {
	case gjson.Number:
		return got.Type == gjson.Number && numbersEqual(want.Raw, got.Raw)
	case gjson.String:
		return got.Type == gjson.String && want.Str == got.Str
	default: // true, false, null
		return got.Exists() && got.Type == want.Type
	}
}

func numbersEqual(a, b string) bool {
	x, ok1 := new(big.Rat).SetString(a)
	y, ok2 := new(big.Rat).SetString(b)
	if !ok1 || !ok2 {
		return a == b
	}
	return x.Cmp(y) == 0
}

// JSONEqual is deep equality of two JSON values: objects by their members
// in any order, arrays element by element, numbers numerically.
func JSONEqual(a, b gjson.Result) bool {
	if a.Exists() != b.Exists() {
		return false
	}
	switch {
	case a.IsObject():
		if !b.IsObject() {
			return false
		}
		_, av := members(a)
		_, bv := members(b)
		if len(av) != len(bv) {
			return false
		}
		for k, x := range av {
			y, ok := bv[k]
			if !ok || !JSONEqual(x, y) {
				return false
			}
		}
		return true
	case a.IsArray():
		if !b.IsArray() {
			return false
		}
		x, y := a.Array(), b.Array()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !JSONEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return !b.IsObject() && !b.IsArray() && literalEqual(a, b)
	}
}

// ISO 8601 dates and date-times, extended (2024-01-02T03:04:05Z) or basic
// (20240102T030405Z), with an optional fraction and zone. The date and the
// time must use the same format, and a zone needs a time.
var (
	isoExtended = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::\d{2})?)?)?$`)
	isoBasic    = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(?:(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?:\d{2})?)?)?$`)
)

func IsISO8601(s string) bool {
	m := isoExtended.FindStringSubmatch(s)
	if m == nil {
		m = isoBasic.FindStringSubmatch(s)
	}
	if m == nil {
		return false
	}
	num := func(i int) int { n, _ := strconv.Atoi(m[i]); return n }
	y, mo, d := num(1), num(2), num(3)
	if mo < 1 || mo > 12 || d < 1 {
		return false
	}
	if t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC); t.Day() != d {
		return false // February 30 and the like
	}
	if m[4] != "" {
		h, mi := num(4), num(5)
		sec := 0
		if m[6] != "" {
			sec = num(6)
		}
		if h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi != 0 || sec != 0)) {
			return false
		}
	}
	if zone := m[7]; len(zone) > 1 {
		digits := strings.ReplaceAll(zone[1:], ":", "")
		zh, _ := strconv.Atoi(digits[:2])
		zm := 0
		if len(digits) == 4 {
			zm, _ = strconv.Atoi(digits[2:])
		}
		if zh > 14 || zm > 59 {
			return false
		}
	}
	return true
}

// JSONString is s as a JSON string, HTML left unescaped.
func JSONString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
