package tables

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Request bodies are parsed into a small tree rather than into structs, so
// that presence, null and type can be told apart for every field, duplicate
// keys can be refused (encoding/json would silently keep the last one) and
// unknown fields can be named in the error array.

const (
	maxBodyBytes = 64 << 10
	maxDepth     = 20
	maxString    = 255
)

type object struct {
	keys []string
	vals map[string]any // string, json.Number, bool, nil, *object, []any
}

type apiError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

// tooDeep tells whether brackets nest deeper than max. It only counts
// brackets outside strings, so it works on malformed JSON too and can run
// before authentication, the way a proxy in front of the service would.
func tooDeep(b []byte, max int) bool {
	depth, inString, escaped := 0, false, false
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
		case '{', '[':
			depth++
			if depth > max {
				return true
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return false
}

type dupError struct{ path string }

func (d dupError) Error() string { return "duplicate key " + d.path }

// parseObject parses a whole body that must be one JSON object.
func parseObject(b []byte) (*object, []apiError) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, []apiError{{"", "MalformedBody", "the request body is empty; a JSON object is expected"}}
	}
	if !utf8.Valid(b) {
		return nil, []apiError{{"", "MalformedBody", "the request body is not valid UTF-8"}}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := parseValue(dec, "")
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errors.New("data after the JSON value")
		}
	}
	if err != nil {
		var d dupError
		if errors.As(err, &d) {
			return nil, []apiError{{d.path, "DuplicateField", "the field is given more than once"}}
		}
		return nil, []apiError{{"", "MalformedBody", "the request body is not valid JSON"}}
	}
	o, ok := v.(*object)
	if !ok {
		return nil, []apiError{{"", "InvalidBody", "the request body must be a JSON object"}}
	}
	return o, nil
}

func parseValue(dec *json.Decoder, path string) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return tok, nil
	}
	switch d {
	case '{':
		o := &object{vals: map[string]any{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, ok := kt.(string)
			if !ok {
				return nil, errors.New("object key is not a string")
			}
			if _, dup := o.vals[k]; dup {
				return nil, dupError{join(path, k)}
			}
			v, err := parseValue(dec, join(path, k))
			if err != nil {
				return nil, err
			}
			o.keys = append(o.keys, k)
			o.vals[k] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return o, nil
	case '[':
		var a []any
		for i := 0; dec.More(); i++ {
			v, err := parseValue(dec, join(path, strconv.Itoa(i)))
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return a, nil
	}
	return nil, errors.New("unexpected delimiter")
}

// join names nested fields with dots: "client.app.marketapp.hash".
func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// form reads the fields of one object of a body, collecting validation
// errors instead of stopping at the first, and remembers which keys it was
// asked about so that finish can name the unknown ones.
type form struct {
	obj     *object
	prefix  string
	errs    *[]apiError
	allowed map[string]bool
}

func newForm(o *object, prefix string, errs *[]apiError, allowed ...string) *form {
	f := &form{obj: o, prefix: prefix, errs: errs, allowed: map[string]bool{}}
	for _, a := range allowed {
		f.allowed[a] = true
	}
	return f
}

// ignore tolerates read-only fields of the resource's representation, so
// that an answer can be edited and sent back; their values are not read.
func (f *form) ignore(names ...string) {
	for _, n := range names {
		f.allowed[n] = true
	}
}

func (f *form) path(name string) string { return join(f.prefix, name) }

func (f *form) fail(name, code, msg string) {
	*f.errs = append(*f.errs, apiError{f.path(name), code, msg})
}

// get returns a field's value and whether it is present; null is present.
func (f *form) get(name string) (any, bool) {
	v, ok := f.obj.vals[name]
	return v, ok
}

func (f *form) finish() {
	for _, k := range f.obj.keys {
		if !f.allowed[k] {
			f.fail(k, "UnknownField", "this field is not part of the request")
		}
	}
}

func runes(s string) int { return utf8.RuneCountInString(s) }

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// text reads a required, non-blank string of at most max characters.
func (f *form) text(name, code string, max int) (string, bool) {
	v, ok := f.get(name)
	s, isString := v.(string)
	switch {
	case !ok || v == nil:
		f.fail(name, code, "the field is required")
	case !isString:
		f.fail(name, code, "the field must be a string")
	case blank(s):
		f.fail(name, code, "the field must not be empty")
	case runes(s) > max:
		f.fail(name, code, "the field must be at most "+strconv.Itoa(max)+" characters long")
	default:
		return s, true
	}
	return "", false
}

// optText reads an optional string of at most max characters; absent and
// null both mean "not set".
func (f *form) optText(name, code string, max int) (*string, bool) {
	v, ok := f.get(name)
	if !ok || v == nil {
		return nil, true
	}
	s, isString := v.(string)
	switch {
	case !isString:
		f.fail(name, code, "the field must be a string or null")
	case runes(s) > max:
		f.fail(name, code, "the field must be at most "+strconv.Itoa(max)+" characters long")
	default:
		return &s, true
	}
	return nil, false
}

func (f *form) boolean(name, code string, required bool, def bool) (bool, bool) {
	v, ok := f.get(name)
	if !ok && !required {
		return def, true
	}
	b, isBool := v.(bool)
	if !ok || !isBool {
		f.fail(name, code, "the field must be true or false")
		return false, false
	}
	return b, true
}

// sub reads a nested object. Absent and null give (nil, true); anything
// other than an object is an error.
func (f *form) sub(name, code string) (*object, bool) {
	v, ok := f.get(name)
	if !ok || v == nil {
		return nil, true
	}
	o, isObj := v.(*object)
	if !isObj {
		f.fail(name, code, "the field must be an object")
		return nil, false
	}
	return o, true
}

var integerLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// asID accepts a JSON number written as an integer between 1 and 2^63-1.
// Fractions and exponents are refused rather than rounded, since ids here
// do not fit a float64.
func asID(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok || !integerLiteral.MatchString(string(n)) {
		return 0, false
	}
	id, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	return id, true
}

// id reads an optional id; absent and null give (0, true).
func (f *form) id(name, code string) (int64, bool) {
	v, ok := f.get(name)
	if !ok || v == nil {
		return 0, true
	}
	id, valid := asID(v)
	if !valid {
		f.fail(name, code, "the field must be a positive integer id")
		return 0, false
	}
	return id, true
}

// pathID parses a path parameter. Anything but a canonical positive decimal
// names no resource.
func pathID(s string) (int64, bool) {
	if !integerLiteral.MatchString(s) || strings.HasPrefix(s, "-") {
		return 0, false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil && id > 0
}
