// Package jsonio reads and writes JSON the one way the mock does, for the
// domain, the HTTP adapter and the rewrites of answers alike.
package jsonio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrTrailingData is the error of a document that holds more than one JSON
// value.
var ErrTrailingData = errors.New("unexpected data after the JSON value")

// Decode reads the one JSON value of b into v. A number decoded into an
// `any` stays a json.Number, so that an id is read exactly; a struct refuses
// unknown fields, so that a typo is an error rather than a value silently
// missing; anything after the value is ErrTrailingData.
func Decode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return ErrTrailingData
	}
	return nil
}

// Encode writes v as one line of JSON. HTML is not escaped: the mock's
// messages quote "<API_KEY>" and are read by people.
func Encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := EncodeTo(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// EncodeTo writes v to buf as Encode does; on an error buf holds part of
// it.
func EncodeTo(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Shape bounds what a document may hold before it is decoded: decoding
// builds a value per element, so a megabyte of `[0,0,0,…]` or of nested
// arrays costs tens of megabytes; CheckShape refuses such a document at the
// cost of one pass over its bytes and no allocation.
type Shape struct {
	Depth  int // arrays and objects inside each other
	Items  int // elements of one array or members of one object
	Values int // values in the whole document
}

// ErrShape is the error of a document past a Shape's bounds.
var ErrShape = errors.New("the JSON document is too deep or too large")

// CheckShape scans b and reports ErrShape (wrapped, saying which bound)
// when it goes past s. It does not check that b is valid JSON: Decode does.
func CheckShape(b []byte, s Shape) error {
	var counts [64]int // elements so far at each depth, for depths within the bound
	depth, values := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			if depth > s.Depth || depth >= len(counts) {
				return fmt.Errorf("%w: nested deeper than %d", ErrShape, s.Depth)
			}
			counts[depth] = 0
			values++
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth > 0 {
				counts[depth]++
				if counts[depth] >= s.Items {
					return fmt.Errorf("%w: more than %d elements in one array or object", ErrShape, s.Items)
				}
			}
			values++
		}
		if values > s.Values {
			return fmt.Errorf("%w: more than %d values", ErrShape, s.Values)
		}
	}
	return nil
}

// Parent is the object of a decoded document that holds the last segment
// of a dotted path, and that segment: "a.b.c" is o["a"]["b"] and "c". The
// objects on the way that are missing (or are no object) are made, empty.
func Parent(o map[string]any, path string) (map[string]any, string) {
	segs := strings.Split(path, ".")
	for _, seg := range segs[:len(segs)-1] {
		child, ok := o[seg].(map[string]any)
		if !ok {
			child = map[string]any{}
			o[seg] = child
		}
		o = child
	}
	return o, segs[len(segs)-1]
}
