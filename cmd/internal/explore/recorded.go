package explore

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // timezones known wherever the binary runs
	"unicode"
)

// A recorded step: a request a recording holds (pricing-contract replay),
// its body as the recording sent it. The explorer judges a body by the
// operators that made it (reference.go, readings): what the spec requires
// of it (7.3's code) and what a freedom lets a server do with it. A
// recorded body has no operators; classify reads each of its values as the
// operator of the catalogue that would have made it, where one did
// (absent, null, empty, a wrong JSON type, over 255 characters, an unknown
// catalogue id, a value whose validity the spec does not state), so that
// the verdict takes in the same freedoms as for the explorer's own steps.
// A value no operator describes is judged as the explorer judges the
// values it does not change: by the reference alone.

// classify is the operators that describe a recorded step's body, each
// with the value the body holds (so that the body sent is the recording's),
// read against what the reference holds now: a value a PUT sends unchanged
// is no operator's.
func (wd *world) classify(s *seqState, st Step) []Mutation {
	if st.Op == OpLogin || st.Op == OpPlatforms || RawWire(st.Wire) || st.Base == nil {
		return nil
	}
	var top []bodyField
	var now map[string]any
	switch st.Op {
	case OpPutUser:
		top, now = userFields(), userBody(s.user(st.Actor))
	case OpPutClient:
		top = clientFields(false)
		if c, err := s.ref.Client(s.clientOf(st)); err == nil {
			now = clientBody(c)
		}
	case OpPostClient:
		top = clientFields(true)
	case OpPostApp:
		top = appFields()
	}
	c := classifier{wd: wd, s: s, st: st, now: now}
	c.fields(top, st.Base, "")
	return c.out
}

type classifier struct {
	wd  *world
	s   *seqState
	st  Step
	now map[string]any // the reference's body of a PUT: its values are no change
	out []Mutation
}

func (c *classifier) add(f, op string, v any, remove bool) {
	m := Mutation{Field: f, Op: op, Value: v, Remove: remove}
	if c.st.Op == OpPutClient && f == "terms" && (op == "absent" || op == "null") {
		m.Alt = "I agree" // read as no new acceptance (policy.PutClientTerms)
	}
	c.out = append(c.out, m)
}

// fields classifies the values of one object of the body: the fields of
// the spec's table at its level (prefix), and any other as unnamed.
func (c *classifier) fields(fs []bodyField, body map[string]any, prefix string) {
	named := map[string]bool{}
	for _, f := range fs {
		if strings.Count(f.path, ".") != strings.Count(prefix, ".") {
			continue // a child: classified with its object
		}
		name := strings.TrimPrefix(f.path, prefix)
		named[name] = true
		v, there := body[name]
		c.field(f, v, there)
	}
	for k, v := range body {
		if !named[k] {
			c.add(prefix+k, opUnnamedField, v, false)
		}
	}
}

func (c *classifier) field(f bodyField, v any, there bool) {
	switch {
	case f.kind == kObject && f.path == "app" && c.st.Op == OpPutClient:
		if there {
			c.add(f.path, "app-given", v, false) // whatever it is (4.4), null included
		}
		return
	case !there:
		if c.mayLeaveOut(f) {
			return
		}
		c.add(f.path, "absent", nil, true)
		return
	case v == nil:
		if f.kind == kPassword || f.kind == kExtension || c.objectMayBeNull(f) {
			return // null keeps the password, is no extension, or leaves the object out (4.1, 4.3)
		}
		c.add(f.path, "null", nil, false)
		return
	}
	switch f.kind {
	case kObject:
		o, ok := v.(map[string]any)
		switch {
		case !ok:
			c.add(f.path, opWrongType, v, false)
		case len(o) == 0 && !c.objectMayBeNull(f):
			c.add(f.path, "object-empty", v, false)
		default:
			c.fields(f.children, o, f.path+".")
		}
	case kFlag:
		if _, ok := v.(bool); !ok {
			c.add(f.path, opWrongType, v, false)
		}
	case kID:
		c.id(f, v)
	default:
		s, ok := v.(string)
		switch {
		case !ok && f.kind == kExtension:
			c.add(f.path, "extension-number", v, false)
		case !ok:
			c.add(f.path, opWrongType, v, false)
		default:
			c.text(f, s)
		}
	}
}

// mayLeaveOut: a field whose absence is no operator's: optional, an object
// the spec makes optional (client, app), or a field of an app that a hash
// or a name makes unneeded (4.2).
func (c *classifier) mayLeaveOut(f bodyField) bool {
	if f.optional || c.objectMayBeNull(f) {
		return true
	}
	name := f.path[strings.LastIndexByte(f.path, '.')+1:]
	inApp := c.st.Op == OpPostApp && !strings.Contains(f.path, ".") ||
		strings.HasSuffix(parentOf(f.path), "app") || strings.HasPrefix(f.path, "app.") || strings.HasPrefix(f.path, "client.app.")
	return inApp && (name == "marketapp" || name == "name" || name == "platform")
}

// objectMayBeNull: client (4.1) and app (4.3), optional objects: null is
// leaving them out.
func (c *classifier) objectMayBeNull(f bodyField) bool {
	return f.kind == kObject && (f.path == "client" || f.path == "app" || f.path == "client.app")
}

var (
	areaCity    = regexp.MustCompile(`^[A-Za-z_]+(/[A-Za-z0-9_+\-]+)+$`)
	phoneDigits = regexp.MustCompile(`^\+?[0-9]{4,15}$`)
	hexHash     = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
)

// text classifies a string value.
func (c *classifier) text(f bodyField, v string) {
	n := len([]rune(v))
	switch {
	case v == "":
		c.add(f.path, "empty", v, false)
		return
	case f.max > 0 && n > f.max:
		c.add(f.path, "over-length", v, false)
		return
	}
	switch f.kind {
	case kText:
		if strings.IndexFunc(v, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) >= 0 {
			c.add(f.path, "invisible", v, false)
		}
	case kValue:
		if !c.unchanged(f, v) {
			// Another postcode, country or VAT number: a server may check
			// it by the country's form (freedom unstated-validity).
			c.add(f.path, "values-unstated", v, false)
		}
	case kPhone:
		if !phoneDigits.MatchString(v) && !c.unchanged(f, v) {
			c.add(f.path, "values-unstated", v, false)
		}
	case kTimezone:
		if _, err := time.LoadLocation(v); err != nil && areaCity.MatchString(v) {
			c.add(f.path, "timezone-unstated", v, false)
		}
	case kEmail:
		c.email(f, v)
	case kPassword:
		if n < 6 {
			c.add(f.path, "password-5", v, false)
		}
	case kTerms:
		if v != "I agree" {
			c.add(f.path, "terms-refused", v, false)
		}
	case kHash:
		switch {
		case len(v) < 40:
			c.add(f.path, "hash-39", v, false)
		case len(v) > 40:
			c.add(f.path, "hash-41", v, false)
		case !hexHash.MatchString(v):
			c.add(f.path, "hash-not-hex", v, false)
		case !strings.EqualFold(v, c.wd.cat.hash):
			c.add(f.path, "hash-of-no-app", v, false)
		}
	}
}

// email classifies an address: no address (7.3 InvalidEmail), one of the
// lengths or forms the spec leaves open, another account's.
func (c *classifier) email(f bodyField, v string) {
	a, err := mail.ParseAddress(v)
	switch n := len([]rune(v)); {
	case err != nil || a.Name != "" || a.Address != v:
		c.add(f.path, "email-no-at", v, false)
	case n == 255:
		c.add(f.path, "email-255", v, false)
	case n > 255:
		c.add(f.path, "email-256", v, false)
	case strings.Contains(v, "@[") || strings.HasPrefix(v, `"`):
		c.add(f.path, "values-unstated", v, false) // an address literal, a quoted local part
	case strings.EqualFold(v, c.s.user(c.wd.other(c.st.Actor)).Email):
		c.add(f.path, "email-taken", v, false)
	}
}

// id classifies a catalogue id: another JSON type, a number in another
// form, an id the target's catalogue does not list.
func (c *classifier) id(f bodyField, v any) {
	n, ok := v.(json.Number)
	if !ok {
		c.add(f.path, opWrongType, v, false)
		return
	}
	listed := func(id int64) bool {
		for _, x := range c.wd.cat.ids()[f.catalogue] {
			if x == id {
				return true
			}
		}
		return false
	}
	if id, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		if !listed(id) {
			c.add(f.path, "id-unknown", v, false)
		}
		return
	}
	if fl, err := n.Float64(); err == nil && fl == float64(int64(fl)) && listed(int64(fl)) {
		m := Mutation{Field: f.path, Op: "id-decimal-form", Value: v, Alt: json.Number(fmt.Sprint(int64(fl)))}
		c.out = append(c.out, m)
		return
	}
	c.add(f.path, "id-unknown", v, false)
}

// unchanged reports whether a PUT sends the value the reference holds.
func (c *classifier) unchanged(f bodyField, v string) bool {
	if c.now == nil {
		return false
	}
	cur, ok := GetPath(c.now, f.path)
	return ok && cur == v
}
