package tags

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FieldError is one element of a 400 body (§7.1).
type FieldError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

var (
	hex40Re          = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
	hex40Unanchored  = regexp.MustCompile(`[0-9a-fA-F]{40}`)
	emailRe          = regexp.MustCompile(`^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$`)
	timezoneRe       = regexp.MustCompile(`^[A-Za-z][A-Za-z_]*(/[A-Za-z0-9_+\-]+)+$`)
	phoneExtensionRe = regexp.MustCompile(`^[0-9]{1,10}$`)
)

// decoder decodes a JSON object into a struct of pointer fields, member by
// member, and applies the `validate` struct tag of every field it visits.
//
// Tag rules: required (must be present unless the struct is decoded as a
// partial update, never null, never empty), notnull (if present, not null),
// nonempty (if present, neither null nor an empty string),
// max=N / min=N (characters), email, hex40, terms, tz, ext, new (decode the
// nested object as a creation, not a partial update), code=X (error code;
// default "Invalid" + field name).
type decoder struct {
	s       *Server
	body    []byte
	present map[string]bool
	errs    []FieldError
}

func (d *decoder) fail(path, code, msg string) {
	d.errs = append(d.errs, FieldError{FieldName: path, Error: code, Message: msg})
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

type rules struct {
	required, notnull, nonempty, email, hex40, terms, tz, ext, isNew bool
	max, min                                                         int
	code                                                             string
}

func parseRules(tag, jsonName string) rules {
	r := rules{max: -1, min: -1, code: "Invalid" + upperFirst(jsonName)}
	for _, part := range strings.Split(tag, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "required":
			r.required = true
		case "notnull":
			r.notnull = true
		case "nonempty":
			r.nonempty, r.notnull = true, true
		case "email":
			r.email = true
		case "hex40":
			r.hex40 = true
		case "terms":
			r.terms = true
		case "tz":
			r.tz = true
		case "ext":
			r.ext = true
		case "new":
			r.isNew = true
		case "max":
			r.max, _ = strconv.Atoi(v)
		case "min":
			r.min, _ = strconv.Atoi(v)
		case "code":
			r.code = v
		}
	}
	return r
}

func (d *decoder) lookup(m map[string]json.RawMessage, name string) (json.RawMessage, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	if d.s.fault == fKeysCaseInsens {
		for k, v := range m {
			if strings.EqualFold(k, name) {
				return v, true
			}
		}
	}
	return nil, false
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// object decodes raw (a JSON object) into the struct pointed to by dst.
func (d *decoder) object(raw json.RawMessage, dst reflect.Value, jpath, gpath string, partial bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return // callers check the object form before recursing
	}
	t := dst.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		r := parseRules(sf.Tag.Get("validate"), name)
		path := join(jpath, name)
		if d.s.fault == fFieldNameGo {
			path = join(gpath, sf.Name)
		}
		fv := dst.Field(i)
		v, ok := d.lookup(m, name)
		if !ok {
			if r.required && !partial {
				d.fail(path, r.code, fmt.Sprintf("%s is required", name))
			}
			continue
		}
		d.present[join(jpath, name)] = true
		if isNull(v) {
			if r.required || r.notnull {
				d.fail(path, r.code, fmt.Sprintf("%s must not be null", name))
			}
			continue
		}
		ft := sf.Type.Elem() // every body field is a pointer
		switch ft.Kind() {
		case reflect.Struct:
			if t := bytes.TrimSpace(v); len(t) == 0 || t[0] != '{' {
				d.fail(path, r.code, fmt.Sprintf("%s must be an object", name))
				continue
			}
			nv := reflect.New(ft)
			fv.Set(nv)
			d.object(v, nv.Elem(), join(jpath, name), join(gpath, sf.Name), partial && !r.isNew)
		case reflect.Int:
			n, ok := d.integer(v)
			if !ok {
				d.fail(path, r.code, fmt.Sprintf("%s must be an integer number", name))
				continue
			}
			fv.Set(reflect.ValueOf(&n))
		case reflect.Bool:
			var b bool
			if err := json.Unmarshal(v, &b); err != nil {
				d.fail(path, r.code, fmt.Sprintf("%s must be a boolean", name))
				continue
			}
			fv.Set(reflect.ValueOf(&b))
		case reflect.String:
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				d.fail(path, r.code, fmt.Sprintf("%s must be a string", name))
				continue
			}
			if msg := d.checkString(s, r, name); msg != "" {
				d.fail(path, r.code, msg)
				continue
			}
			fv.Set(reflect.ValueOf(&s))
		}
	}
}

func (d *decoder) integer(v json.RawMessage) (int, bool) {
	if d.s.fault == fIntegralFloat {
		var n int
		if err := json.Unmarshal(v, &n); err != nil {
			return 0, false
		}
		return n, true
	}
	t := bytes.TrimSpace(v)
	if len(t) == 0 || !(t[0] == '-' || (t[0] >= '0' && t[0] <= '9')) {
		return 0, false
	}
	var num json.Number
	if err := json.Unmarshal(t, &num); err != nil {
		return 0, false
	}
	if n, err := strconv.ParseInt(string(num), 10, 64); err == nil {
		return int(n), true
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

func (d *decoder) checkString(s string, r rules, name string) string {
	f := d.s.fault
	if (r.required || r.nonempty) && f != fEmptyPassRequired {
		empty := strings.TrimSpace(s) == ""
		if f == lWhitespaceNameOK {
			empty = s == ""
		}
		if empty {
			return name + " must not be empty"
		}
	}
	n := utf8.RuneCountInString(s)
	if f == fMaxLenBytes {
		n = len(s)
	}
	if r.max >= 0 && n > r.max {
		return fmt.Sprintf("%s must be at most %d characters", name, r.max)
	}
	min := r.min
	if f == fPasswordMin5 && min == 6 {
		min = 5
	}
	if min >= 0 && utf8.RuneCountInString(s) < min {
		return fmt.Sprintf("%s must be at least %d characters", name, r.min)
	}
	if r.email {
		ok := emailRe.MatchString(s)
		if f == fEmailNoDomain {
			ok = strings.Contains(s, "@")
		}
		if !ok {
			return "the email address is invalid"
		}
	}
	if r.hex40 {
		ok := hex40Re.MatchString(s)
		if f == fHashUnanchored {
			ok = hex40Unanchored.MatchString(s)
		}
		if !ok {
			return name + " must be 40 hexadecimal characters"
		}
	}
	if r.terms {
		ok := s == "I agree"
		switch f {
		case fTermsCaseInsens:
			ok = strings.EqualFold(s, "I agree")
		case fTermsRawJSON:
			ok = bytes.Contains(d.body, []byte(`"terms":"I agree"`))
		}
		if !ok {
			return "terms must equal \"I agree\""
		}
	}
	if r.tz && !timezoneRe.MatchString(s) {
		return "timezone must be of the form Area/City"
	}
	if r.ext && !phoneExtensionRe.MatchString(s) {
		return "phoneExtension must be 1 to 10 digits or null"
	}
	return ""
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// decodeBody decodes the request body into a new T. It returns nil T (and no
// errors) only under the null-body fault.
func decodeBody[T any](s *Server, body []byte, partial bool) (*T, map[string]bool, []FieldError) {
	d := &decoder{s: s, body: body, present: map[string]bool{}}
	t := bytes.TrimSpace(body)
	if s.fault == fNullBody500 && string(t) == "null" {
		return nil, d.present, nil
	}
	var probe map[string]json.RawMessage
	if len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &probe) != nil {
		return nil, nil, []FieldError{{FieldName: "", Error: "InvalidJson", Message: "the request body must be a JSON object"}}
	}
	out := new(T)
	d.object(t, reflect.ValueOf(out).Elem(), "", "", partial)
	return out, d.present, d.errs
}
