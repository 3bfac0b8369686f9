package explore

import (
	"mime"
	"strings"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// How the reference reads a body the operators made: the readings of each
// field (what the spec requires of it, what a freedom lets a server do).

// plainForm reports whether a step sends its body and credential as the
// spec writes them, at the caller's own resource: an answer to it is about
// its body alone.
func plainForm(st Step) bool {
	return st.Recorded == "" && st.Wire == "" && st.ContentType == "" && st.Version == "" &&
		(st.Cred.Op == "" || st.Cred.Op == "as-specified" || st.Cred.Op == "header-name-case") &&
		(st.Path == "" || st.Path == "own" || st.Path == "created")
}

// ownValues are the fields of a body's errors that no operator of the step
// touched, refused for a condition of their value (not a type, not a
// missing field): values the target itself holds.
func ownValues(st Step, errs []pricing.FieldError) []string {
	var out []string
	for _, e := range errs {
		switch pricing.Condition(e.Rule) {
		case pricing.CondEmpty, pricing.CondBlank, pricing.CondLength, pricing.CondForm:
			if !st.Mutated(e.FieldName) || st.formOnly(e.FieldName) {
				out = append(out, e.FieldName)
			}
		}
	}
	return out
}

// waiving is a Waive (pricing.Validator) for the fields at paths and
// below them.
func waiving(paths []string) func(string, pricing.Condition) bool {
	return func(field string, _ pricing.Condition) bool {
		for _, p := range paths {
			if field == p || strings.HasPrefix(field, p+".") {
				return true
			}
		}
		return false
	}
}

// specDecides reports whether the spec decides what an operator's value at a
// field is worth: the operator's own cite or freedom, or one that the
// field's kind gives it (a new free text is stored as sent; terms that are
// not the literal are refused, whichever operator made them).
func specDecides(o BodyOp, f bodyField) bool {
	if o.Decided.Decided() || o.Freedom != nil {
		return true
	}
	switch o.Name {
	case "new-value":
		return f.kind == kText || f.kind == kPhone
	case "absent", "null", "empty":
		return f.kind == kTerms || f.kind == kHash && o.Name == "empty"
	}
	return false
}

// fieldReading is how one field's operator is judged.
type fieldReading struct {
	field   string
	reading reading
	f       policy.Freedom
	// whole: a value of another JSON type than the field's, which a typed
	// decoder refuses with the body as a whole, naming no field.
	whole bool
	// later: an id that names no entry of its catalogue, which a server
	// may look up only once the body's values are valid.
	later bool
}

type readingSet struct {
	refuse []fieldReading // mayRefuse: the reference accepts, a server may refuse
	byPath []fieldReading // every mutation's reading
	codes  []string       // field=code the spec requires
	alts   []altReading   // lenient readings of the body
	// together: groups of fields a server may judge together.
	together [][]string
	// unless: a field a 400 may leave unnamed when the other is named.
	unless [][2]string
	// silent are the mutations whose value the spec does not judge: the
	// target may take or refuse each, and the reference adopts its choice.
	silent []Mutation
	// adopt are the fields whose value the target's answer gives (a
	// silent value it may store otherwise, a default for one left out).
	adopt []string
	// alsoName are the fields a refusal may name beside the ones it must:
	// the name and the platform of an app whose marketplace hash is
	// malformed, read as not given (freedom malformed-hash).
	alsoName []string
	// second are the marketapp.hash paths of an app a target that has one
	// app of a marketplace app may refuse as a second one: 400 naming it.
	second []string
	// conditional are the fields the body needs because another member
	// is not given (an app's name and platform.id without a hash, 4.2),
	// which a server may judge once the values given are valid.
	conditional []string
}

// altReading is the body as a lenient server reads it, and the freedom
// that lets it.
type altReading struct {
	f    policy.Freedom
	body map[string]any
}

// of is the reading of the mutation that covers a field the reference
// refused: the field itself, or one above or below it.
func (r readingSet) of(f string) (fieldReading, bool) {
	for _, x := range r.byPath {
		if f == x.field || strings.HasPrefix(f, x.field+".") || strings.HasPrefix(x.field, f+".") {
			return x, true
		}
	}
	return fieldReading{}, false
}

// ignorable reports whether a field is one a server may ignore whatever
// it is: a name or a platform beside a marketplace hash.
func (r readingSet) ignorable(f string) bool {
	for _, x := range r.refuse {
		if x.f.ID == policy.PlatformBesideHash.ID && (f == x.field || strings.HasPrefix(f, x.field+".")) {
			return true
		}
	}
	return false
}

// readings reads each operator of a step where it meets the reference's
// errors: the spec's code it requires, the freedom it grants.
func (wd *world) readings(st Step, body map[string]any, errs []pricing.FieldError) readingSet {
	var rs readingSet
	var emptyHashes []string // the empty marketapp.hash fields (freedom empty-hash)
	for _, m := range st.Muts {
		if rs.mutationReading(st, body, errs, m) {
			emptyHashes = append(emptyHashes, m.Field)
		}
	}
	rs.lenientReadings(st, body, emptyHashes)
	rs.appReadings(st, body)
	rs.wireReadings(st, body)
	if app, where := appOf(st.Op, body); app != nil && wd.hashOnce {
		if m, ok := app["marketapp"].(map[string]any); ok && m["hash"] != nil {
			rs.second = append(rs.second, strings.TrimPrefix(where+".marketapp.hash", "."))
		}
	}
	return rs
}

// refusedAt reports whether the reference's errors name a field, the
// object above it or a field below it.
func refusedAt(errs []pricing.FieldError, path string) bool {
	for _, e := range errs {
		if e.FieldName == path || strings.HasPrefix(e.FieldName, path+".") || strings.HasPrefix(path, e.FieldName+".") {
			return true
		}
	}
	return false
}

// mutationReading reads one mutation of a step into rs; it reports an
// empty marketapp.hash (freedom empty-hash).
func (rs *readingSet) mutationReading(st Step, body map[string]any, errs []pricing.FieldError, m Mutation) (emptyHash bool) {
	f, ok := fieldOf(st.Op, m.Field)
	if !ok {
		if m.Op == opUnnamedField {
			// A field the spec does not name, as a recording sent it.
			rs.refuse = append(rs.refuse, fieldReading{field: m.Field, reading: mayRefuse, f: policy.UnnamedField})
		}
		return false
	}
	refused := refusedAt(errs, m.Field)
	o, _ := bodyOp(m.Op)
	r := fieldReading{field: m.Field, reading: o.Reading}
	if o.Freedom != nil {
		r.f = *o.Freedom
	}
	c, coded := specCode(st.Op, f, o, body)
	if coded && o.Cond == condInvalid && !o.Decided.Decided() {
		// Whether the value is invalid at all is what the spec does not
		// say (two dots in a row): its code binds no one.
		coded = false
	}
	if coded {
		r.reading = strict
		rs.codes = append(rs.codes, m.Field+"="+c.String())
	} else if !specDecides(o, f) {
		// The spec does not judge the value: the target's choice.
		r.reading, r.f = silent, policy.Silent
		rs.silent = append(rs.silent, m)
		rs.adopt = append(rs.adopt, m.Field)
	}
	if (m.Remove || m.Value == nil && f.kind != kExtension || emptyObject(m.Value)) && !f.optional && !refused {
		// Left out where the mock takes a default: a server may ask
		// for it (2: only what is marked optional may be omitted).
		r.reading, r.f = mayRefuse, policy.OmittedFields
	}
	if f.form && !m.Remove && m.Value != nil {
		rs.formReading(st, m, coded, refused, &r)
	}
	if r.reading == openRefusal && (o.Decided == citeTyped && o.Kind == PlainlyWrong || m.Op == opWrongType) {
		r.whole = true
	}
	if o.Cond == condUnknown && f.kind == kID {
		r.later = true
	}
	if f.unstated && o.Kind == LegalVariety && o.Decided != citeLimit && r.reading == strict && !refused {
		// A line of the address the reference takes: within its length,
		// a server may still refuse it as no address.
		r.reading, r.f = mayRefuse, policy.UnstatedValidity
	}
	if strings.HasSuffix("."+m.Field, ".marketapp.hash") && (m.Remove || m.Value == nil || m.Value == "") {
		emptyHash = rs.hashReading(m, &r)
	}
	if nullMayBeLeftOut(st.Op, f) && !m.Remove && m.Value == nil {
		// Refused, or read as left out (the body's reading without it,
		// lenientReadings).
		r.reading, r.f = mayReadAs, policy.Silent
	}
	if st.Op == OpPutClient && m.Field == "terms" && m.Alt != nil {
		// No terms on an update: a server may not ask for them again.
		r.reading, r.f = mayReadAs, policy.PutClientTerms
	}
	switch r.reading {
	case mayRefuse, silent:
		if !refused {
			rs.refuse = append(rs.refuse, r)
		}
	}
	rs.byPath = append(rs.byPath, r)
	return emptyHash
}

// formReading reads another postcode, country or VAT number: a server may
// check them together by the country's form (7.3), so that a 400 naming
// one of them may leave the others unjudged.
func (rs *readingSet) formReading(st Step, m Mutation, coded, refused bool, r *fieldReading) {
	var group []string
	for _, g := range bodyFields(st.Op) {
		if g.form && parentOf(g.path) == parentOf(m.Field) {
			group = append(group, g.path)
		}
	}
	rs.together = append(rs.together, group)
	if !coded && !refused {
		// And refuse any of them, where the reference accepts.
		r.reading, r.f = mayRefuse, policy.UnstatedValidity
		for _, g := range group {
			if g != m.Field {
				rs.refuse = append(rs.refuse, fieldReading{field: g, reading: mayRefuse, f: policy.UnstatedValidity})
			}
		}
	}
}

// hashReading reads a marketapp.hash left out, null or empty; it reports
// an empty one.
func (rs *readingSet) hashReading(m Mutation, r *fieldReading) bool {
	// No hash, or a null one: whether a hash is given decides whether the
	// name and the platform are needed, and a server may judge the three
	// together (the refusal of a null hash standing for the missing name).
	prefix := strings.TrimSuffix(m.Field, "marketapp.hash")
	rs.together = append(rs.together, []string{m.Field, prefix + "name", prefix + "platform.id"})
	if m.Value != "" || m.Remove {
		return false
	}
	// An empty hash: refused as no 40 hexadecimal characters (8), or read
	// as no hash given (4.2), when the name and the platform are needed
	// (freedom empty-hash); adopted, then held.
	r.reading, r.f = silent, policy.EmptyHash
	rs.silent = append(rs.silent, m)
	for _, f := range []string{prefix + "name", prefix + "platform.id"} {
		rs.refuse = append(rs.refuse, fieldReading{field: f, reading: mayRefuse, f: policy.EmptyHash})
	}
	return true
}

// lenientReadings adds the lenient readings of a body: the step's own, and
// each with a member a server may read as not given.
func (rs *readingSet) lenientReadings(st Step, body map[string]any, emptyHashes []string) {
	lenient, hasLenient := st.AltBody()
	if hasLenient {
		f := policy.NumberForms
		for _, r := range rs.byPath {
			if r.reading == mayReadAs {
				f = r.f
			}
		}
		rs.alts = append(rs.alts, altReading{f, lenient})
	}
	// Members a server may read as not given: an empty hash (freedom
	// empty-hash); a null app on PUT /clients ("The app property must not
	// be given", 4.4: whether a null one is given is not said). Each is
	// read so in the body as sent and in its lenient reading.
	type noneReading struct {
		at string
		f  policy.Freedom
	}
	var nones []noneReading
	for _, at := range emptyHashes {
		nones = append(nones, noneReading{at, policy.EmptyHash})
	}
	if v, given := body["app"]; given && v == nil && st.Op == OpPutClient {
		nones = append(nones, noneReading{"app", policy.Silent})
	}
	for _, f := range bodyFields(st.Op) {
		if v, given := body[f.path]; given && v == nil && nullMayBeLeftOut(st.Op, f) {
			nones = append(nones, noneReading{f.path, policy.Silent})
		}
	}
	for _, n := range nones {
		for _, b := range []map[string]any{body, lenient} {
			if b == nil {
				continue
			}
			none := DeepCopy(b).(map[string]any)
			SetPath(none, n.at, nil, true)
			rs.alts = append(rs.alts, altReading{n.f, none})
		}
	}
	if len(nones) > 1 {
		// And all of them at once: an empty hash read as none beside a
		// null phone number read as left out.
		for _, b := range []map[string]any{body, lenient} {
			if b == nil {
				continue
			}
			none := DeepCopy(b).(map[string]any)
			for _, n := range nones {
				SetPath(none, n.at, nil, true)
			}
			rs.alts = append(rs.alts, altReading{nones[0].f, none})
		}
	}
}

// appReadings reads the app a body makes: a platform beside a hash, an app
// with neither a hash nor a name, an app of no store.
func (rs *readingSet) appReadings(st Step, body map[string]any) {
	beside := besideHash(st.Op, body)
	for _, at := range beside {
		rs.refuse = append(rs.refuse, fieldReading{field: at, reading: mayRefuse, f: policy.PlatformBesideHash})
	}
	// A platform or a name beside a hash: a server may refuse it, or
	// ignore it whatever it is (4.2: they are used when no hash is given),
	// one of them or both, in the body as sent and in its lenient reading
	// (1.0 read as 1 elsewhere in it).
	lenient, _ := st.AltBody()
	for _, b := range []map[string]any{body, lenient} {
		if b == nil {
			continue
		}
		all := DeepCopy(b).(map[string]any)
		for _, at := range beside {
			ignored := DeepCopy(b).(map[string]any)
			SetPath(ignored, strings.TrimSuffix(at, ".id"), nil, true)
			rs.alts = append(rs.alts, altReading{policy.PlatformBesideHash, ignored})
			SetPath(all, strings.TrimSuffix(at, ".id"), nil, true)
		}
		if len(beside) > 1 {
			rs.alts = append(rs.alts, altReading{policy.PlatformBesideHash, all})
		}
	}
	if app, where := appOf(st.Op, body); app != nil && malformedHash(app) {
		prefix := strings.TrimPrefix(where+".", ".")
		if app["name"] == nil {
			rs.alsoName = append(rs.alsoName, prefix+"name")
		}
		if p, _ := app["platform"].(map[string]any); p["id"] == nil {
			rs.alsoName = append(rs.alsoName, prefix+"platform.id")
		}
	}
	if app, where := appOf(st.Op, body); app != nil {
		prefix := strings.TrimPrefix(where+".", ".")
		if m, _ := app["marketapp"].(map[string]any); m["hash"] == nil || m["hash"] == "" {
			// Needed for want of a hash (4.2): judged, a server may say,
			// once the values given are valid.
			rs.conditional = append(rs.conditional, prefix+"name", prefix+"platform.id")
		}
		if neitherHashNorName(app) {
			// Neither a hash nor a name: 7.3 decides the name's refusal;
			// the platform is "used when marketapp.hash is not given"
			// (4.2), and whether a server judges it without a name the
			// spec leaves open.
			rs.unless = append(rs.unless, [2]string{prefix + "platform.id", prefix + "name"})
		}
	}
	if at := byName(st.Op, body); at != "" {
		// An app of no store (1): a server may refuse it, naming the app
		// or the marketplace app it lacks.
		rs.refuse = append(rs.refuse, fieldReading{field: at, reading: mayRefuse, f: policy.AppByName})
		prefix := at + "."
		if st.Op == OpPostApp {
			prefix = ""
			rs.refuse = append(rs.refuse, fieldReading{field: "marketapp", reading: mayRefuse, f: policy.AppByName})
		}
		// Refusing it for its missing marketplace app, a server need not
		// judge its name and platform.
		group := []string{prefix + "marketapp"}
		for _, f := range bodyFields(st.Op) {
			if strings.HasPrefix(f.path, prefix) {
				group = append(group, f.path)
			}
		}
		rs.together = append(rs.together, group)
	}
}

// wireReadings reads how a step sends its body: a body a server may refuse
// as a whole, before its fields.
func (rs *readingSet) wireReadings(st Step, body map[string]any) {
	switch st.Wire {
	case WireDuplicate, WireUnnamed, WireLarge:
		o, _ := findPosOp(wireOps, st.Wire)
		rs.refuse = append(rs.refuse, fieldReading{field: "", reading: mayRefuse, f: *o.Freedom})
		for _, extra := range []string{"contractExtra", "contractPadding", FirstKey(body)} {
			rs.refuse = append(rs.refuse, fieldReading{field: extra, reading: mayRefuse, f: *o.Freedom})
		}
	}
	if !jsonMediaType(st.ContentType) {
		rs.refuse = append(rs.refuse, fieldReading{field: "", reading: mayRefuse, f: policy.ContentType})
	}
}

// jsonMediaType reports whether a Content-Type labels JSON: "" (the
// explorer's application/json), application/json or a +json type, in any
// case and with any parameters (RFC 9110 8.3.1).
func jsonMediaType(ct string) bool {
	if ct == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

func emptyObject(v any) bool {
	o, ok := v.(map[string]any)
	return ok && len(o) == 0
}

// judgedByItsCountry reports whether a field is one of an address's that a
// server may judge by the country's form (a postcode, a country, a VAT
// number): the same value may be taken beside one country and refused
// beside another, so its choice is not held by its kind and place alone.
func judgedByItsCountry(op Op, path string) bool {
	f, ok := fieldOf(op, path)
	return ok && f.form
}

// byName is the path of an app a body makes from a name and a platform
// rather than a marketplace app ("" none): app, client.app, or the body of
// POST /apps itself.
func byName(op Op, body map[string]any) string {
	app, where := appOf(op, body)
	if app == nil {
		return ""
	}
	if op == OpPostApp {
		where = "name"
	}
	if neitherHashNorName(app) {
		// Not an app by name but the case 7.3 decides ("the case where
		// neither a marketapp hash nor a name is given": InvalidName),
		// whatever a server makes of apps by name.
		return ""
	}
	if m, ok := app["marketapp"].(map[string]any); ok && m["hash"] != nil {
		return ""
	}
	return where
}

// nullMayBeLeftOut reports whether null for a field may be read as the
// field left out: a top-level phone field of PUT /users that the body table
// does not list (4.1), which a PUT may leave out and keep, and of which the
// spec does not say whether null is left out; not the extension, whose null
// sets it to none.
func nullMayBeLeftOut(op Op, f bodyField) bool {
	return op == OpPutUser && !f.table && f.kind != kExtension && !strings.Contains(f.path, ".")
}

// malformedHash reports whether an app gives a marketplace app that is
// no object, or a hash that is no string of 40 hexadecimal characters: a
// server may read it as no hash given.
func malformedHash(app map[string]any) bool {
	m, given := app["marketapp"]
	if !given || m == nil {
		return false
	}
	obj, ok := m.(map[string]any)
	if !ok {
		return true
	}
	h, given := obj["hash"]
	if !given || h == nil {
		return false
	}
	text, ok := h.(string)
	return !ok || !target.IsHash40(text)
}

// neitherHashNorName reports whether an app body gives neither a
// marketplace hash nor a name.
func neitherHashNorName(app map[string]any) bool {
	m, _ := app["marketapp"].(map[string]any)
	return m["hash"] == nil && app["name"] == nil
}

// besideHash are the paths of the platform.id and the name an app body
// gives beside a marketplace hash.
func besideHash(op Op, body map[string]any) []string {
	app, where := appOf(op, body)
	if app == nil {
		return nil
	}
	if m, hasHash := app["marketapp"].(map[string]any); !hasHash || m["hash"] == nil {
		return nil
	}
	if where != "" {
		where += "."
	}
	var out []string
	if p, ok := app["platform"].(map[string]any); ok && p["id"] != nil {
		out = append(out, where+"platform.id")
	} else if v, given := app["platform"]; given && !ok && v != nil {
		out = append(out, where+"platform") // no object at all
	}
	if app["name"] != nil {
		out = append(out, where+"name")
	}
	return out
}

// appOf is the app of a body and its path ("" the body itself).
func appOf(op Op, body map[string]any) (map[string]any, string) {
	switch op {
	case OpPostApp:
		return body, ""
	case OpPostClient:
		app, _ := body["app"].(map[string]any)
		return app, "app"
	case OpPutUser:
		if c, ok := body["client"].(map[string]any); ok {
			app, _ := c["app"].(map[string]any)
			return app, "client.app"
		}
	}
	return nil, ""
}

// specCode is the code 7.3 names for the condition an operator meets at a
// field, when the spec names one.
func specCode(op Op, f bodyField, o BodyOp, body map[string]any) (pricing.Code, bool) {
	cond := o.Cond
	switch {
	case o.Name == "empty" && f.kind == kPassword:
		cond = condShort
	case o.Name == "empty" && f.kind == kEmail:
		cond = condInvalid
	}
	c, ok := f.codes[cond]
	if !ok || cond == "" {
		return pricing.Code{}, false
	}
	if op == OpPostApp && f.path == "name" {
		// "the case where neither a marketapp hash nor a name is given":
		// a hash, or a hash of null, whose being given the spec leaves
		// open (a server may refuse the null hash instead).
		if m, ok := body["marketapp"].(map[string]any); ok {
			if _, has := m["hash"]; has {
				return pricing.Code{}, false
			}
		}
	}
	return c, true
}
