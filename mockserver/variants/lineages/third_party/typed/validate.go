package typed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/mail"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Opt distinguishes absent, null, a value of the wrong type and a value.
// It is used for the "Mixed" fields of the spec, where null means something.
type Opt[T any] struct {
	Present bool
	Null    bool
	Bad     bool
	Val     T
}

func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	o.Present = true
	if string(bytes.TrimSpace(b)) == "null" {
		o.Null = true
		return nil
	}
	if err := json.Unmarshal(b, &o.Val); err != nil {
		o.Bad = true
	}
	return nil
}

func (o Opt[T]) Given() bool { return o.Present && !o.Null && !o.Bad }

func (o Opt[T]) optState() (present, null, bad bool, val reflect.Value) {
	return o.Present, o.Null, o.Bad, reflect.ValueOf(o.Val)
}

func (o Opt[T]) optElem() reflect.Type { return reflect.TypeOf((*T)(nil)).Elem() }

type optional interface {
	optState() (present, null, bad bool, val reflect.Value)
	optElem() reflect.Type
}

var optIface = reflect.TypeOf((*optional)(nil)).Elem()

// extraValidator lets a request struct add rules that tags cannot express.
type extraValidator interface {
	extraValidate(s *Server, path, goPath string) []fieldError
}

type fieldError struct {
	Field   string // JSON path, e.g. client.currency.id
	GoField string // Go path, e.g. Client.Currency.ID
	Code    string
	Message string
}

func jsonName(sf reflect.StructField) string {
	n, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	return n
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// ---- pre-pass over the raw JSON ---------------------------------------------

// shapeBody walks the generic JSON value against the target type. It keeps
// only members whose names match a json tag exactly (encoding/json itself
// matches case-insensitively), records every member of the wrong JSON type
// (encoding/json reports only the first), and rewrites integral numbers
// written as 1e2 or 100.0 to 100. ci=true keeps encoding/json's
// case-insensitive matching (fault json-keys-case-insensitive).
func shapeBody(data []byte, t reflect.Type, ci bool) ([]byte, map[string]bool, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errors.New("unexpected data after the JSON value")
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, nil, errors.New("the body must be a JSON object")
	}
	bad := map[string]bool{}
	out := shapeValue(v, t, "", ci, bad)
	b, err := json.Marshal(out)
	return b, bad, err
}

func shapeValue(v any, t reflect.Type, path string, ci bool, bad map[string]bool) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(optIface) {
		if v == nil {
			return nil
		}
		t = reflect.New(t).Elem().Interface().(optional).optElem()
	}
	if v == nil {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			bad[path] = true
			return nil
		}
		out := map[string]any{}
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			n := jsonName(sf)
			if n == "" || n == "-" {
				continue
			}
			if ci {
				for k, mv := range obj {
					if strings.EqualFold(k, n) {
						out[k] = shapeValue(mv, sf.Type, join(path, n), ci, bad)
					}
				}
				continue
			}
			mv, ok := obj[n]
			if !ok {
				continue
			}
			sv := shapeValue(mv, sf.Type, join(path, n), ci, bad)
			if sv == nil && mv != nil {
				continue // wrong type: leave the member out so the field stays unset
			}
			out[n] = sv
		}
		return out
	case reflect.String:
		if _, ok := v.(string); !ok {
			bad[path] = true
			return nil
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			bad[path] = true
			return nil
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		n, ok := v.(json.Number)
		if !ok {
			bad[path] = true
			return nil
		}
		if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return n
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			bad[path] = true
			return nil
		}
		return json.Number(strconv.FormatInt(int64(f), 10))
	}
	return v
}

// ---- the validator ----------------------------------------------------------

var (
	reHex40  = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
	reTZ     = regexp.MustCompile(`^(UTC|[A-Za-z]+(/[A-Za-z0-9_+\-]+)+)$`)
	reDigits = regexp.MustCompile(`^[0-9]{1,10}$`)
)

func validEmail(s string) bool {
	if strings.ContainsAny(s, " \t\r\n<>") {
		return false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s {
		return false
	}
	local, domain, ok := strings.Cut(s, "@")
	return ok && local != "" && domain != "" && !strings.Contains(domain, "@")
}

// validate runs the `validate` tags of dst (a pointer to a struct).
func (s *Server) validate(dst any, bad map[string]bool) []fieldError {
	var errs []fieldError
	rv := reflect.ValueOf(dst).Elem()
	s.walk(rv, "", "", bad, &errs)
	if ev, ok := dst.(extraValidator); ok {
		errs = append(errs, ev.extraValidate(s, "", "")...)
	}
	// one error per field, first wins
	seen := map[string]bool{}
	out := errs[:0]
	for _, e := range errs {
		if !seen[e.Field] {
			seen[e.Field] = true
			out = append(out, e)
		}
	}
	return out
}

func (s *Server) strLen(str string, bytesFault string) int {
	if s.is(bytesFault) {
		return len(str)
	}
	return utf8.RuneCountInString(str)
}

func (s *Server) walk(rv reflect.Value, path, goPath string, bad map[string]bool, errs *[]fieldError) {
	rt := rv.Type()
	for i := 0; i < rt.NumField(); i++ {
		sf := rt.Field(i)
		name := jsonName(sf)
		if name == "" || name == "-" {
			continue
		}
		p, gp := join(path, name), join(goPath, sf.Name)
		code := sf.Tag.Get("code")
		var rules []string
		if tag := sf.Tag.Get("validate"); tag != "" {
			rules = strings.Split(tag, ",")
		}
		add := func(format string, a ...any) {
			*errs = append(*errs, fieldError{Field: p, GoField: gp, Code: code, Message: fmt.Sprintf(format, a...)})
		}
		fv := rv.Field(i)

		var present, null, isBad bool
		var val reflect.Value
		if o, ok := fv.Interface().(optional); ok {
			present, null, isBad, val = o.optState()
		} else if fv.Kind() == reflect.Pointer {
			present = !fv.IsNil()
			if present {
				val = fv.Elem()
			}
		} else {
			present, val = true, fv
		}
		if bad[p] {
			isBad = true
		}

		stop := false
		for _, r := range rules {
			switch r {
			case "required":
				if isBad {
					continue
				}
				if !present || null {
					add("%s is required", p)
					stop = true
				} else if s.is(FRequiredRejectsFalse) && val.IsZero() {
					add("%s is required", p)
					stop = true
				}
			case "present":
				if !present && !isBad {
					add("%s must be given (null is allowed)", p)
					stop = true
				}
			}
			if stop {
				break
			}
		}
		if stop {
			continue
		}
		if isBad {
			add("%s has the wrong type", p)
			continue
		}
		if !present || null {
			continue
		}
		if val.Kind() == reflect.Struct {
			s.walk(val, p, gp, bad, errs)
			if val.CanAddr() {
				if ev, ok := val.Addr().Interface().(extraValidator); ok {
					*errs = append(*errs, ev.extraValidate(s, p, gp)...)
				}
			}
			continue
		}
		for _, r := range rules {
			k, arg, _ := strings.Cut(r, "=")
			switch k {
			case "max":
				n, _ := strconv.Atoi(arg)
				if val.Kind() == reflect.String && s.strLen(val.String(), FMaxCountsBytes) > n {
					add("%s must be at most %d characters", p, n)
				}
			case "min":
				n, _ := strconv.Atoi(arg)
				if val.Kind() == reflect.String && s.strLen(val.String(), FPasswordMinBytes) < n {
					add("%s must be at least %d characters", p, n)
				}
			case "name":
				if !s.nameProvided(val.String()) {
					add("%s was not provided", p)
				}
			case "notblank":
				if strings.TrimSpace(val.String()) == "" {
					add("%s must not be empty", p)
				}
			case "email":
				if !validEmail(val.String()) {
					add("%s is not a valid email address", p)
				}
			case "terms":
				if !s.termsAccepted(val.String()) {
					add("%s must equal \"I agree\"", p)
				}
			case "tz":
				if !reTZ.MatchString(val.String()) {
					add("%s must be a timezone name in the form Area/City", p)
				}
			case "hex40":
				if !reHex40.MatchString(val.String()) {
					add("%s must be 40 hexadecimal characters", p)
				}
			case "digits":
				if !reDigits.MatchString(val.String()) {
					add("%s must be 1 to 10 digits", p)
				}
			case "currency":
				if _, ok := s.cat.currency(val.Int()); !ok {
					add("%s is not a known currency", p)
				}
			case "plan":
				if _, ok := s.cat.plan(val.Int()); !ok {
					add("%s is not a known subscription plan", p)
				}
			case "platform":
				if _, ok := s.cat.platform(val.Int()); !ok {
					add("%s is not a known platform", p)
				}
			case "phonecountry":
				if s.cat.phoneCountry(val.Int()) == nil {
					add("%s is not an allowed phone country", p)
				}
			}
			if len(*errs) > 0 && (*errs)[len(*errs)-1].Field == p {
				break // one error per field
			}
		}
	}
}

func (s *Server) nameProvided(v string) bool {
	if s.is(LWhitespaceNameAccepted) {
		return v != ""
	}
	return strings.TrimSpace(v) != ""
}

func (s *Server) termsAccepted(v string) bool {
	if s.is(FTermsCaseInsensitive) {
		return strings.EqualFold(v, "I agree")
	}
	return v == "I agree"
}
