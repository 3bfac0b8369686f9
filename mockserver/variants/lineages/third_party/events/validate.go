package events

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// fieldError is one element of the 400 array of section 7.1.
type fieldError = wire.FieldError

type problems []fieldError

func (p *problems) add(field, code, message string) {
	*p = append(*p, fieldError{FieldName: field, Error: code, Message: message})
}

// bodyField names the whole body in an error that is about no single field.
const bodyField = "body"

const maxText = 255

type kind int

const (
	absent kind = iota
	null
	boolean
	number
	text
	array
	object
)

func kindOf(raw json.RawMessage) kind {
	if len(raw) == 0 {
		return absent
	}
	switch raw[0] {
	case 'n':
		return null
	case 't', 'f':
		return boolean
	case '"':
		return text
	case '[':
		return array
	case '{':
		return object
	}
	return number
}

// decodeObject accepts exactly one JSON object and nothing else. A map is used
// rather than a struct because encoding/json matches struct fields without
// regard to case and ignores unknown ones, and both must be refused here.
func decodeObject(raw []byte) (map[string]json.RawMessage, bool) {
	raw = bytes.Trim(raw, " \t\r\n")
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, false
	}
	return m, true
}

// fields walks one JSON object, remembering which keys were looked at so that
// the rest can be reported as unknown.
type fields struct {
	prefix string
	m      map[string]json.RawMessage
	seen   map[string]bool
	p      *problems
}

func newFields(prefix string, m map[string]json.RawMessage, p *problems) *fields {
	return &fields{prefix: prefix, m: m, seen: map[string]bool{}, p: p}
}

func (f *fields) name(key string) string { return f.prefix + key }

func (f *fields) add(key, code, message string) { f.p.add(f.name(key), code, message) }

func (f *fields) has(key string) bool {
	_, ok := f.m[key]
	return ok
}

func (f *fields) get(key string) (json.RawMessage, kind) {
	f.seen[key] = true
	raw, ok := f.m[key]
	if !ok {
		return nil, absent
	}
	return raw, kindOf(raw)
}

// tolerate marks read-only fields of a representation as known, so that a
// caller may send back what it was given; their values are ignored.
func (f *fields) tolerate(keys ...string) {
	for _, k := range keys {
		f.seen[k] = true
	}
}

func (f *fields) rejectUnknown() {
	var extra []string
	for k := range f.m {
		if !f.seen[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		f.add(k, "UnknownField", "This field is not accepted here")
	}
}

func (f *fields) sub(key string) (*fields, kind) {
	raw, k := f.get(key)
	if k != object {
		return nil, k
	}
	m, ok := decodeObject(raw)
	if !ok {
		return nil, k
	}
	return newFields(f.name(key)+".", m, f.p), object
}

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s) // raw is already known to be a valid JSON string
	return s
}

var integerLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// integer accepts only an integer literal: 4017.0 or 4.017e3 name no id here.
func integer(raw json.RawMessage) (int64, bool) {
	if !integerLiteral.Match(raw) {
		return 0, false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil
}

// chars counts characters: section 8's limits are in characters. Counting
// bytes instead is a fault of its own (password-length-in-bytes).
func chars(s string, byteCount bool) int {
	if byteCount {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

// requiredText is a String that must be present, not blank and at most 255
// characters.
func (f *fields) requiredText(key, code, what string) (string, bool) {
	raw, k := f.get(key)
	switch {
	case k == absent || k == null:
		f.add(key, code, "No "+what+" was provided")
	case k != text:
		f.add(key, code, "The "+what+" must be a string")
	default:
		s := str(raw)
		switch {
		case strings.TrimSpace(s) == "":
			f.add(key, code, "No "+what+" was provided")
		case chars(s, false) > maxText:
			f.add(key, code, "The "+what+" is longer than 255 characters")
		default:
			return s, true
		}
	}
	return "", false
}

// optionalText is an optional String of at most 255 characters; absent and
// null both mean "not set".
func (f *fields) optionalText(key, code, what string, checkLength bool) (*string, bool) {
	raw, k := f.get(key)
	switch k {
	case absent, null:
		return nil, true
	case text:
		s := str(raw)
		if checkLength && chars(s, false) > maxText {
			f.add(key, code, "The "+what+" is longer than 255 characters")
			return nil, false
		}
		return &s, true
	}
	f.add(key, code, "The "+what+" must be a string or null")
	return nil, false
}

func (f *fields) requiredBool(key, code string) (bool, bool) {
	raw, k := f.get(key)
	if k != boolean {
		f.add(key, code, key+" must be true or false")
		return false, false
	}
	return string(raw) == "true", true
}

// reference reads an object such as currency or nextplan whose id names an
// entry of a catalogue. The error names the object when it is missing or not
// an object, and object.id otherwise.
func (f *fields) reference(key, code, what string, tolerated []string, known func(int64) bool) (int64, bool) {
	sub, k := f.sub(key)
	if k != object {
		f.add(key, code, "The "+what+" must be an object with an id")
		return 0, false
	}
	sub.tolerate(tolerated...)
	defer sub.rejectUnknown()
	raw, ik := sub.get("id")
	if ik != number {
		sub.add("id", code, "The "+what+" id must be a number")
		return 0, false
	}
	id, ok := integer(raw)
	if !ok || !known(id) {
		sub.add("id", code, "The "+what+" id does not match an allowed value")
		return 0, false
	}
	return id, true
}

var (
	emailLocal    = regexp.MustCompile("^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
	domainLabel   = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$`)
	topLevel      = regexp.MustCompile(`^[A-Za-z]{2,}$`)
	timezoneForm  = regexp.MustCompile(`^[A-Z][A-Za-z_-]*(/[A-Za-z0-9_+-]+)+$`)
	phoneForm     = regexp.MustCompile(`^\+?[0-9 ().-]+$`)
	extensionForm = regexp.MustCompile(`^[0-9]{1,10}$`)
	hexForm       = regexp.MustCompile(`^[0-9A-Fa-f]+$`)
)

// validEmail is deliberately plain: one @, a dot-atom local part and a domain
// of at least two labels ending in letters.
func validEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	if at <= 0 || at != strings.LastIndexByte(s, '@') {
		return false
	}
	if !emailLocal.MatchString(s[:at]) {
		return false
	}
	labels := strings.Split(s[at+1:], ".")
	if len(labels) < 2 || !topLevel.MatchString(labels[len(labels)-1]) {
		return false
	}
	for _, l := range labels {
		if len(l) > 63 || !domainLabel.MatchString(l) {
			return false
		}
	}
	return true
}

func validPhoneNumber(s string) bool {
	if !phoneForm.MatchString(s) {
		return false
	}
	digits := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	return digits >= 3
}
