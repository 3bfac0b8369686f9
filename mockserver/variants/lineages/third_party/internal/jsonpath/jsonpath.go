// Package jsonpath reads and writes a decoded JSON value by a dotted path
// ("0.fieldName", "phoneCountry.dialCode"), and lists the codes of an error
// array, for the lineages' tests.
package jsonpath

import (
	"fmt"
	"strconv"
	"strings"
)

// At is the value at path, a numeric segment indexing an array; a missing
// step yields nil, and the empty path the value itself.
func At(v any, path string) any {
	if path == "" {
		return v
	}
	for _, seg := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// Parent is the object of o that holds the last segment of path, the
// objects on the way made where they are missing, and that segment.
func Parent(o map[string]any, path string) (map[string]any, string) {
	segs := strings.Split(path, ".")
	for _, seg := range segs[:len(segs)-1] {
		next, ok := o[seg].(map[string]any)
		if !ok {
			next = map[string]any{}
			o[seg] = next
		}
		o = next
	}
	return o, segs[len(segs)-1]
}

// Codes lists "fieldName:error" of each element of a decoded error array
// (7.1), for compact assertions; nil where v is not an array.
func Codes(v any) []string {
	arr, ok := v.([]any)
	if !ok {
		return nil
	}
	out := []string{}
	for _, e := range arr {
		m, _ := e.(map[string]any)
		out = append(out, fmt.Sprintf("%v:%v", m["fieldName"], m["error"]))
	}
	return out
}

// HasCode tells whether an element of the decoded error array v has the
// error code, whatever its field.
func HasCode(v any, code string) bool {
	for _, c := range Codes(v) {
		if strings.HasSuffix(c, ":"+code) {
			return true
		}
	}
	return false
}
