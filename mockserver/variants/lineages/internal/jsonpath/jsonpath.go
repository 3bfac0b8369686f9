// Package jsonpath reads and writes a decoded JSON value by a dotted path
// ("0.fieldName", "phoneCountry.dialCode"), for the lineages' tests.
package jsonpath

import (
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
