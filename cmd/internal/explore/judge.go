package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/steps/match"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// The fourth stage: the judgement. judge compares the target's answer to a
// step with the reference's verdict and returns a divergence as data (nil:
// none): a function of the verdict, the answer, and what the run knows of
// the target (ids, learned values), the freedoms of package freedom already
// in the verdict.

// knowledge is what a run learned of the target, for every later answer,
// shared by its pairs: the values the reference cannot know (learned), the
// ids of the entities it made and the write keys (seen), the session tokens
// (tokens: owner).
type knowledge struct {
	mu      sync.Mutex
	learned map[string]learnedValue
	seen    map[string]string
	tokens  map[string]string
	// held are the choices the target made where the spec is silent, by
	// the kind of input and its place (judgement.hold).
	held map[string]heldChoice
	// minted are the unique words the run's generators made; written,
	// those an account's accepted requests stored, by owner (isolation.go).
	minted  map[string]bool
	written map[string]string
	// created counts the creates each account's requests made, by owner
	// and kind (bounds.go).
	created map[string]int
}

// mint records a unique word a generator made.
func (k *knowledge) mint(w string) {
	k.mu.Lock()
	k.minted[w] = true
	k.mu.Unlock()
}

// heldChoice is one choice of the target: taken or refused, the status,
// and where.
type heldChoice struct {
	taken  bool
	status int
	where  string
}

func newKnowledge() *knowledge {
	return &knowledge{learned: map[string]learnedValue{}, seen: map[string]string{}, tokens: map[string]string{}, held: map[string]heldChoice{}, minted: map[string]bool{}, written: map[string]string{}, created: map[string]int{}}
}

type learnedValue struct {
	raw    string // the JSON the target first answered
	where  string // "sequence N, step M"
	taught *Step  // the request whose answer showed it, when it was a step's own
}

var writeKeyRE = regexp.MustCompile(`^[0-9a-fA-F]{32}$`)

// judgement is one answer to judge.
type judgement struct {
	wd    *world
	k     *knowledge
	s     *seqState
	i     int    // the step
	label string // the pair's label, for tokens
}

// judge compares the target's answer to a step with the verdict; on an
// allowed 200 the reference takes the step too.
func (j judgement) judge(st Step, v verdict, got wireAnswer) *divergence {
	if got.status < 0 {
		return diverged(policy.CheckNoAnswer, "no-answer", "no answer: "+got.err)
	}
	if got.status >= 500 {
		return diverged(policy.CheckServerError, "5xx", fmt.Sprintf("answered %d: no request earns a 5xx; the spec's answer is %s", got.status, v.statusText()), expectStatuses(v.statuses, v.any4xx))
	}
	if !v.allows(got.status) {
		return diverged(policy.CheckStatus, fmt.Sprintf("status %d", got.status),
			fmt.Sprintf("answered %d, the spec's answer is %s (%s%s)", got.status, v.statusText(), v.rule, v.freedomsText()), expectStatuses(v.statuses, v.any4xx))
	}
	if d := j.leak(st, got.body); d != nil {
		return d
	}
	if got.status != 200 && got.status != 400 {
		return nil
	}
	if !gjson.ValidBytes(got.body) {
		return diverged(policy.CheckJSON, "not-json", fmt.Sprintf("answered %d with a body that is not JSON (1: bodies are JSON)", got.status), expect{kind: expectJSON})
	}
	if mt, _, _ := mime.ParseMediaType(got.header.Get("Content-Type")); mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return diverged(policy.CheckJSON, "json-label", fmt.Sprintf("answered JSON labelled %q (1: bodies are JSON)", got.header.Get("Content-Type")), expect{kind: expectJSON})
	}
	if got.status == 400 {
		return v.errorsDiverge(got.body)
	}
	if v.accept == nil {
		return nil
	}
	w, err := v.accept()
	if w != nil {
		w.adopt = v.adopt
	}
	if err != nil {
		// The explorer's own failing, not the target's (a silent check):
		// the reference no longer holds what the target holds, so the
		// sequence judges nothing more.
		j.s.broken = true
		return diverged(policy.CheckReference, "reference", "the reference could not take the step: "+err.Error())
	}
	return j.matches(w, gjson.ParseBytes(got.body))
}

// hold holds the target to a choice it made where the spec is silent: a
// step whose one change is a value no sentence judges (verdict.heldKey)
// is taken or refused as the same kind of input at the same place was
// before in the run. Only an answer that tells the choice counts: a 200,
// or a 4xx whose errors name the field (or name none).
func (j judgement) hold(v verdict, got wireAnswer) *divergence {
	if v.heldKey == "" {
		return nil
	}
	var taken bool
	switch {
	case got.status == 200:
		taken = true
	case got.status == 400:
		fields, _, bad := errorsOf(got.body, true)
		if bad != nil || !slices.ContainsFunc(fields, func(f string) bool { return f != "" && related(f, v.heldField) }) {
			return nil // refused for something else, or for no field it names
		}
	default:
		return nil
	}
	where := fmt.Sprintf("sequence %d, step %d", j.s.n, j.i+1)
	k := j.k
	k.mu.Lock()
	prev, seen := k.held[v.heldKey]
	if !seen {
		k.held[v.heldKey] = heldChoice{taken: taken, status: got.status, where: where}
	}
	k.mu.Unlock()
	if !seen || prev.taken == taken {
		return nil
	}
	verb := map[bool]string{true: "took", false: "refused"}
	line := expectStatuses([]int{200}, false)
	if !prev.taken {
		line = expectStatuses(nil, true) // any 4xx but 401
	}
	return diverged(policy.CheckHeld, "held "+v.heldField, fmt.Sprintf("the target %s the same kind of input at %s before (%s, answered %d), and now %s it (answered %d): the spec leaves the choice to it, once",
		verb[prev.taken], v.heldField, prev.where, prev.status, verb[taken], got.status), line)
}

// related reports whether two field paths are one, or one is below the
// other.
func related(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+".") || strings.HasPrefix(b, a+".")
}

// errorsDiverge compares a 400's array with the fields the verdict names:
// each offending field named, no valid one (7.1), with 7.3's code where it
// names one.
func (v verdict) errorsDiverge(body []byte) *divergence {
	fields, codes, bad := errorsOf(body, v.noField)
	if bad != nil {
		shape := expect{kind: expectErrorsShape, element: bad.element, member: bad.member, anyString: bad.member == "fieldName" && v.noField}
		return diverged(policy.CheckErrorShape, "errors-shape", bad.reason(), shape)
	}
	if v.anyNames {
		return nil
	}
	// A field is named by its name, or by the object above or a field below
	// it (an object left out named as itself, or by its id).
	named := func(f string, names []string) bool {
		for _, g := range names {
			if g == f || strings.HasPrefix(g, f+".") || strings.HasPrefix(f, g+".") {
				return true
			}
		}
		return false
	}
	if len(v.alone) > 0 {
		alone := true
		for _, f := range fields {
			alone = alone && (named(f, v.alone) || f == "" && slices.Contains(v.alone, ""))
		}
		if alone {
			return nil // refused for what a freedom lets a server refuse
		}
	}
	// A field judged with others may go unnamed when one of them is named.
	excused := func(f string) bool {
		for _, u := range v.unless {
			if u[0] == f && named(u[1], fields) {
				return true
			}
		}
		for _, group := range v.together {
			if !slices.Contains(group, f) {
				continue
			}
			for _, g := range group {
				if g != f && named(g, fields) {
					return true
				}
			}
		}
		return false
	}
	var missing, wrong []string
	for _, f := range v.required {
		if !named(f, fields) && !excused(f) {
			missing = append(missing, f)
		}
	}
	for _, f := range fields {
		if !slices.Contains(v.required, f) && !v.mayNameField(f) {
			wrong = append(wrong, f)
		}
	}
	if len(missing) > 0 || len(wrong) > 0 {
		reason := fmt.Sprintf("the errors name %q, the offending fields are %q (7.1: each offending field named, no valid one%s)", fields, v.required, v.freedomsText())
		if len(v.mayName) == 0 && len(v.required) > 0 {
			var names []expect
			for _, f := range v.required {
				names = append(names, expectValue(expectNamesField, "", Lit(f)))
			}
			return diverged(policy.CheckErrorNames, "errors-names", reason, append(names, expect{kind: expectNamesOnly, fields: v.required})...)
		}
		var names []expect
		for _, f := range missing {
			names = append(names, expectValue(expectNamesField, "", Lit(f)))
		}
		for _, f := range wrong {
			names = append(names, expectAt(expectAbsent, fmt.Sprintf("#(fieldName==%q)", f)))
		}
		return diverged(policy.CheckErrorNames, "errors-names", reason, names...)
	}
	for _, c := range v.codes {
		f, code, _ := strings.Cut(c, "=")
		var with []string
		for _, fc := range codes {
			if g, gc, _ := strings.Cut(fc, "="); gc == code {
				with = append(with, g)
			}
		}
		if !named(f, with) {
			return diverged(policy.CheckErrorCode, "errors-code "+c, fmt.Sprintf("the error of %s is not %s (7.3)", f, code), expect{kind: expectCode, code: code, value: Lit(f)})
		}
	}
	return nil
}

// errorsOf reads a 400's array: its field names (nested names in either
// dotted or bracket form) and field=code pairs, or what makes it no array
// of 7.1.
func errorsOf(body []byte, noField bool) (fields, codes []string, bad *shapeFault) {
	var arr []map[string]any
	if err := json.Unmarshal(body, &arr); err != nil {
		return nil, nil, &shapeFault{element: -1}
	}
	if len(arr) == 0 {
		return nil, nil, &shapeFault{element: -1, empty: true}
	}
	for i, o := range arr {
		for _, k := range []string{"fieldName", "error", "message"} {
			s, ok := o[k].(string)
			empty := s == "" && !(k == "fieldName" && noField)
			if !ok || empty || (k == "message" && strings.TrimSpace(s) == "") {
				return nil, nil, &shapeFault{element: i, member: k, value: o[k]}
			}
		}
		f := normField(o["fieldName"].(string))
		fields = append(fields, f)
		codes = append(codes, f+"="+o["error"].(string))
	}
	slices.Sort(fields)
	return slices.Compact(fields), codes, nil
}

// shapeFault is what makes a 400's body no error array of 7.1: no array of
// objects, an empty array, or an element (0 the first; -1: the body as a
// whole) one of whose members is no non-empty string.
type shapeFault struct {
	element int
	member  string // fieldName, error or message
	value   any
	empty   bool
}

func (f shapeFault) reason() string {
	switch {
	case f.empty:
		return "a 400 with an empty error array (7.1: each element names an offending field)"
	case f.element < 0:
		return "a 400 body that is not a JSON array of objects (7.1)"
	}
	return fmt.Sprintf("element %d of the errors has the %s %v, not a non-empty string (7.1)", f.element, f.member, f.value)
}

// normField writes app[marketapp][hash] as app.marketapp.hash.
func normField(f string) string { return target.FieldPath(f) }

// leak: no answer carries a password, in clear or in any hash form (2.1).
func (j judgement) leak(st Step, body []byte) *divergence {
	if len(body) == 0 {
		return nil
	}
	wd, s := j.wd, j.s
	pws := []string{wd.acct["A"].password, wd.acct["B"].password, s.password["A"], s.password["B"]}
	b := st.Body()
	if p, ok := PlainValue(b["password"]).(string); ok {
		pws = append(pws, p)
	}
	if st.Op == OpLogin {
		pws = append(pws, expandLogin(st.Login[1], wd.acct))
	}
	sent, _ := json.Marshal(PlainValue(b))
	known := match.SentStrings(sent)
	known = append(known, expandLogin(st.Login[0], wd.acct), s.user("A").Email, s.user("B").Email)
	// A password the step sent, even one refused as too short: an error
	// message may quote it.
	var short string
	if p, ok := PlainValue(b["password"]).(string); ok && len([]rune(p)) == 5 {
		short = p
	}
	slices.Sort(pws)
	for _, pw := range slices.Compact(pws) {
		if pw == "" || len([]rune(pw)) < 6 && pw != short {
			continue
		}
		if where := match.PasswordIn(maskEchoes(body, pw, known), pw, known...); where != "" {
			return diverged(policy.CheckPassword, "password", fmt.Sprintf("the answer carries the password (%s; 2.1: the password is never returned)", where), expectValue(expectNoPassword, "", Lit(pw)))
		}
	}
	return nil
}

// maskEchoes blanks, in the string values of a JSON body, each value the
// step sent that contains the password without being it: a message may
// quote a country of 256 two-byte letters that a password of six of them
// is part of, which is no password returned.
func maskEchoes(body []byte, pw string, known []string) []byte {
	var echoes []string
	for _, k := range known {
		if k != pw && strings.Contains(k, pw) {
			echoes = append(echoes, k)
		}
	}
	if len(echoes) == 0 || !gjson.ValidBytes(body) {
		return body
	}
	// The longest first, so that a longer echo is not cut by a shorter.
	slices.SortFunc(echoes, func(a, b string) int { return len(b) - len(a) })
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return body
	}
	var mask func(any) any
	mask = func(v any) any {
		switch x := v.(type) {
		case string:
			for _, e := range echoes {
				x = strings.ReplaceAll(x, e, "")
			}
			return x
		case []any:
			for i := range x {
				x[i] = mask(x[i])
			}
		case map[string]any:
			for k, e := range x {
				x[k] = mask(e)
			}
		}
		return v
	}
	out, err := json.Marshal(mask(v))
	if err != nil {
		return body
	}
	return out
}

// matches compares a 200's body with what the reference holds.
func (j judgement) matches(w *want, b gjson.Result) *divergence {
	if !b.IsObject() {
		return diverged(policy.CheckEntity, "not-object", "a 200 whose body is no JSON object", expectTyped("@this", "object"))
	}
	c := checker{judgement: j, b: b, adopt: w.adopt, kept: w.kept}
	switch w.kind {
	case "user":
		c.patch = func(path string, v any) bool { return j.s.patch("/users/", w.user.ID, path, v, &w.user) }
		c.user(w.user)
	case "client":
		c.patch = func(path string, v any) bool { return j.s.patch("/clients/", w.client.ID, path, v, &w.client) }
		c.client(w.client, w.fresh)
	case "app":
		c.app(w.app)
	case "session":
		c.session(w.sess)
	case "platforms":
		c.platforms()
	}
	return c.d
}

// checker compares one answer; the first difference is kept.
type checker struct {
	judgement
	b       gjson.Result
	d       *divergence
	reading bool // the answer is a read of the state, not the step's own
	// adopt are the fields whose value the target chooses (want.adopt),
	// and patch writes one into the reference's entity.
	adopt []string
	patch func(path string, value any) bool
	// kept are the optional fields the step left out, with the value
	// stored before (want.kept).
	kept map[string]string
}

func (c *checker) fail(check policy.Check, key, reason string, then ...expect) {
	if c.d == nil {
		c.d = diverged(check, key, reason, then...)
	}
}

func (c *checker) exact(path string, want any) {
	got := c.b.Get(path)
	wantJSON := jsonOf(want)
	same := got.Exists() && match.JSONEqual(got, gjson.Parse(wantJSON))
	if id, isID := want.(int64); isID {
		same = idText(got) == strconv.FormatInt(id, 10) // exactly, never as floats
	}
	if !same && c.adopts(path, got, want) {
		return
	}
	if !same {
		c.fail(policy.CheckField, "field "+path, fmt.Sprintf("%s is %s, the reference's %s", path, match.Describe(got), wantJSON), expectValue(expectIs, path, Lit(wantJSON)))
	}
}

// adopts takes the target's value of a field into the reference where it
// is the target's to choose, and reports whether it did: a value of a
// silent operator (stored otherwise than sent, or a default for a field
// left out), or an email in another letter case (RFC 5321 2.4: the same
// address). Only a 200 of the step's own does: a read shows what the step
// left, compared.
func (c *checker) adopts(path string, got gjson.Result, want any) bool {
	if c.reading || c.patch == nil {
		return false
	}
	if got.Type == gjson.Null && slices.Contains(c.adopt, path) {
		// A silent null taken as none: the stored value cleared, where the
		// reference kept it.
		return c.patch(path, nil)
	}
	if got.Type != gjson.String && got.Type != gjson.Number && got.Type != gjson.True && got.Type != gjson.False {
		return false
	}
	ws, isString := want.(string)
	sameAddress := path == "email" && isString && strings.EqualFold(got.String(), ws)
	if !sameAddress && !slices.Contains(c.adopt, path) {
		return false
	}
	return c.patch(path, plainJSON(got))
}

// plainJSON is an answered value as a body carries it.
func plainJSON(v gjson.Result) any {
	switch v.Type {
	case gjson.String:
		return v.String()
	case gjson.Number:
		return json.Number(v.Raw)
	}
	return v.Bool()
}

// optional: a value the spec lets the answer leave out, null standing for
// none (policy.OptionalFields).
func (c *checker) optional(path string, want *string) {
	got := c.b.Get(path)
	if !got.Exists() || got.Type == gjson.Null {
		if want == nil {
			c.omitted(path, got) // cleared: the reading, if the step left it out
		}
	}
	if !got.Exists() {
		return
	}
	if want == nil {
		if got.Type != gjson.Null && !c.omitted(path, got) {
			c.fail(policy.CheckField, "field "+path, fmt.Sprintf("%s is %s, the reference holds none (%s)", path, match.Describe(got), policy.OptionalFields.ID), expectAt(expectNull, path))
		}
		return
	}
	c.exact(path, *want)
}

// omitted reads an optional field a PUT left out, which the reference
// cleared: the target may have kept the value stored before
// (policy.OmittedOptional). Its first answer is its reading for the run,
// held; kept, the reference keeps it too. It reports whether got is the
// reading's value.
func (c *checker) omitted(path string, got gjson.Result) bool {
	before, left := c.kept[path]
	if !left || c.reading {
		return false
	}
	reading := "cleared"
	if got.Exists() && got.Type != gjson.Null {
		if got.Type != gjson.String || got.String() != before {
			return false // neither cleared nor kept
		}
		reading = "kept"
	}
	key := "reading:" + policy.OmittedOptional.ID
	k := c.k
	k.mu.Lock()
	prev, known := k.learned[key]
	if !known {
		k.learned[key] = learnedValue{raw: reading, where: fmt.Sprintf("sequence %d, step %d", c.s.n, c.i+1)}
	}
	k.mu.Unlock()
	if known && prev.raw != reading {
		line := expectAt(expectNull, path)
		if prev.raw == "kept" {
			line = expectValue(expectIs, path, Lit(jsonOf(before)))
		}
		c.fail(policy.CheckHeld, "held "+path, fmt.Sprintf("%s left out of a PUT is %s; the target %s such a field before (%s): the spec leaves the choice to it, once (%s)",
			path, reading, prev.raw, prev.where, policy.OmittedOptional.ID), line)
		return true
	}
	if reading == "kept" && c.patch != nil {
		c.patch(path, before)
	}
	return true
}

// id compares an id by identity, exactly as written (policy.Identity):
// the same entity has the same id, two entities never share one.
func (c *checker) id(kind, path string, ref int64, fresh bool) string {
	v := c.b.Get(path)
	tid := idText(v)
	if tid == "" {
		c.fail(policy.CheckID, "id "+path, fmt.Sprintf("%s is %s, not a whole number (2: ids are Numbers)", path, match.Describe(v)), expectTyped(path, "number"))
		return ""
	}
	s := c.s
	if t, ok := s.ids[kind][ref]; ok {
		if t != tid {
			c.fail(policy.CheckID, "id "+path, fmt.Sprintf("%s is %s: the same %s was answered with the id %s before", path, tid, kind, t), c.idLine(path, kind, t, "is"))
		}
		return tid
	}
	if r, ok := s.rids[kind][tid]; ok && r != ref {
		c.fail(policy.CheckID, "id "+path, fmt.Sprintf("%s is %s, the id of another %s of this sequence", path, tid, kind), c.idLine(path, kind, tid, "differs from"))
		return tid
	}
	k := c.k
	k.mu.Lock()
	where, seen := k.seen[kind+":"+tid]
	if !seen {
		k.seen[kind+":"+tid] = fmt.Sprintf("sequence %d, step %d", s.n, c.i+1)
	}
	k.mu.Unlock()
	if fresh && seen {
		c.fail(policy.CheckID, "id "+path, fmt.Sprintf("%s is %s, the id of another %s (%s)", path, tid, kind, where), expectValue(expectDiffers, path, Lit(tid)))
	}
	s.bind(kind, ref, tid, c.i)
	return tid
}

// idLine asserts an id against the one a step of the sequence answered.
func (c *checker) idLine(path, kind, tid, verb string) expect {
	if verb == "is" {
		return expectValue(expectIs, path, c.idRef(kind, tid))
	}
	return expectValue(expectDiffers, path, c.idRef(kind, tid))
}

// date compares a date as the instant it names (policy.Dates): a date the
// reference made now is within the clock skew of the runner's clock; a date
// answered before names the same instant again.
func (c *checker) date(kind, tid, field string, ref time.Time) {
	v := c.b.Get(field)
	if v.Type != gjson.String || !match.IsISO8601(v.String()) {
		c.fail(policy.CheckDate, "date "+field, fmt.Sprintf("%s is %s, not an ISO 8601 date (1)", field, match.Describe(v)), expectValue(expectPattern, field, Lit(`^\d{4}-?\d{2}-?\d{2}`)))
		return
	}
	got, _ := match.ParseISORange(v.String())
	wd, k := c.wd, c.k
	if !ref.Equal(unknownDate) && wd.seedDate(ref) {
		// A date the target showed when the run began: nothing the
		// reference did moved it.
		if ref.Before(got.Lo.Add(-time.Second)) || ref.After(got.Hi.Add(time.Second)) {
			was := ref.UTC().Format(time.RFC3339Nano)
			first := c.d == nil
			c.fail(policy.CheckDate, "date "+field, fmt.Sprintf("%s is %s; it was %s and nothing the spec names moved it", field, v.String(), was), expectValue(expectSameInstant, field, Lit(was)))
			if owner := wd.ownerOf(tid); first && c.d != nil && kind == "user" && owner != "" {
				// The reproducer reads the date it began with, not the
				// run's: the suite's own restores set a password again.
				c.d.expect = []expect{expectValue(expectSameInstant, field, Of(NamedVar("began_"+field)))}
				c.d.opening = &stateRead{path: Text{Before: "/users/", Var: AccountVar(owner, "userId")}, as: owner,
					remember: []remembered{{field, "began_" + field}}}
			}
		}
		return
	}
	// The event a date is of: an entity's creation, or the password change
	// of a step of this sequence (two changes may fall in one second).
	key := fmt.Sprintf("%s:%s:%s:", kind, tid, field)
	if field == "passwordLastChanged" {
		// Unchanged since the run last set the password, across sequences;
		// or of the change a step of this sequence made.
		key += "unchanged"
		if ep, ok := c.s.pwEpoch[c.s.rids["user"][tid]]; ok {
			key = fmt.Sprintf("%s:%s:%s:%d:%d", kind, tid, field, c.s.uid, ep)
		}
	}
	k.mu.Lock()
	prev, known := k.learned[key]
	if !known {
		k.learned[key] = learnedValue{raw: v.String(), where: fmt.Sprintf("sequence %d, step %d", c.s.n, c.i+1)}
		c.s.dateStep[key] = c.i
	}
	k.mu.Unlock()
	if known {
		p, _ := match.ParseISORange(prev.raw)
		if !(got.Lo.Before(p.Hi) && p.Lo.Before(got.Hi)) {
			line := expectValue(expectSameInstant, field, Lit(prev.raw))
			if at, ok := c.s.dateStep[key]; ok {
				line = expectValue(expectSameInstant, field, Of(AnswerVar(at, field)))
			}
			c.fail(policy.CheckDate, "date "+field, fmt.Sprintf("%s is %s; the same %s answered %s before (%s) and nothing changed it", field, v.String(), kind, prev.raw, prev.where), line)
		}
		return
	}
	if ref.Equal(unknownDate) {
		return
	}
	if ref.Before(got.Lo.Add(-wd.skew)) || ref.After(got.Hi.Add(wd.skew)) {
		c.fail(policy.CheckDate, "date "+field, fmt.Sprintf("%s is %s, %s from the runner's clock (%s) beyond the clock skew %s: a date of an event that just happened",
			field, v.String(), ref.Sub(got.Lo).Round(time.Second), ref.Format(time.RFC3339), wd.skew), expectAt(expectWithinSkew, field))
	}
}

// ownerOf is the account whose user id the target gave as tid ("" none).
func (wd *world) ownerOf(tid string) string {
	for name, a := range wd.acct {
		if a.userID == tid {
			return name
		}
	}
	return ""
}

// seedDate reports whether a date the reference holds is one the target
// showed when the run began (an account's), not one of now.
func (wd *world) seedDate(d time.Time) bool {
	for _, a := range wd.acct {
		u, c, _ := a.state()
		if d.Equal(u.Created) || d.Equal(u.PasswordLastChanged) || d.Equal(c.CreatedDate) {
			return true
		}
	}
	return false
}

// learn compares a value the reference cannot know with the one the
// target first answered.
func (c *checker) learn(key, path string) {
	v := c.b.Get(path)
	if !v.Exists() {
		c.fail(policy.CheckField, "field "+path, fmt.Sprintf("%s is absent", path), expectAt(expectPresent, path))
		return
	}
	k := c.k
	k.mu.Lock()
	prev, known := k.learned[key]
	if !known {
		lv := learnedValue{raw: v.Raw, where: fmt.Sprintf("sequence %d, step %d", c.s.n, c.i+1)}
		if !c.reading && c.i < len(c.s.steps) {
			taught := c.s.steps[c.i]
			lv.taught = &taught
		}
		k.learned[key] = lv
	}
	k.mu.Unlock()
	if known && !match.JSONEqual(v, gjson.Parse(prev.raw)) {
		c.fail(policy.CheckLearned, "learned "+path, fmt.Sprintf("%s is %s, the target answered %s for the same %s before (%s)", path, match.Describe(v), prev.raw, key, prev.where),
			expectValue(expectIs, path, Lit(prev.raw)))
		if prev.taught != nil && !prev.taught.GherkinPath.Var.Answered() && c.d != nil && c.d.taught == nil {
			// Both answers in the reproducer: the one that taught the
			// value, then this one, which must agree with it.
			want := Of(NamedVar("taught"))
			if strings.HasPrefix(prev.raw, `"`) {
				want.Before, want.After = `"`, `"` // a string: the remembered text, quoted
			}
			c.d.expect = []expect{expectValue(expectIs, path, want)}
			c.d.taught, c.d.taughtPath = prev.taught, path
		}
	}
}

func (c *checker) user(u pricing.User) {
	if pw := c.b.Get("password"); pw.Exists() && pw.Type != gjson.Null {
		c.fail(policy.CheckPassword, "password", fmt.Sprintf("the user carries a password, %s (2.1: the password is never returned)", match.Describe(pw)), expectAt(expectAbsent, "password"))
	}
	tid := c.id("user", "id", u.ID, false)
	c.date("user", tid, "created", u.Created)
	c.exact("email", u.Email)
	c.date("user", tid, "passwordLastChanged", u.PasswordLastChanged)
	c.exact("firstName", u.FirstName)
	c.exact("lastName", u.LastName)
	c.exact("subscribeWelcome", u.SubscribeWelcome)
	c.exact("subscribeBlog", u.SubscribeBlog)
	c.exact("subscribeHowto", u.SubscribeHowto)
	c.exact("subscribeOnboarding", u.SubscribeOnboarding)
	c.exact("timezone", u.Timezone)
	c.exact("phoneCountry.id", u.PhoneCountryID)
	nd := c.wd.cat.phoneCountries[u.PhoneCountryID]
	if nd[0] == unknownPhone || nd[0] == "" {
		c.learn(fmt.Sprintf("phoneCountry:%d:name", u.PhoneCountryID), "phoneCountry.name")
		c.learn(fmt.Sprintf("phoneCountry:%d:dialCode", u.PhoneCountryID), "phoneCountry.dialCode")
	} else {
		c.exact("phoneCountry.name", nd[0])
		c.exact("phoneCountry.dialCode", nd[1])
	}
	name, dial := c.b.Get("phoneCountry.name").String(), c.b.Get("phoneCountry.dialCode").String()
	if !strings.HasPrefix(dial, "+") || !strings.Contains(name, "("+dial+")") {
		line := expectValue(expectPattern, "phoneCountry.dialCode", Lit(`^\+`))
		if strings.HasPrefix(dial, "+") {
			line = expectValue(expectPattern, "phoneCountry.name", Lit(`\(`+regexp.QuoteMeta(dial)+`\)`))
		}
		c.fail(policy.CheckField, "field phoneCountry", fmt.Sprintf("phoneCountry is %s: 2.1 wants the dial code with a leading plus, in brackets in the name", match.Describe(c.b.Get("phoneCountry"))), line)
	}
	c.exact("phoneNumber", u.PhoneNumber)
	if u.PhoneExtension == nil {
		c.optional("phoneExtension", nil)
	} else {
		c.exact("phoneExtension", *u.PhoneExtension)
	}
}

func (c *checker) client(cl pricing.Client, fresh bool) {
	tid := c.id("client", "id", cl.ID, fresh)
	c.date("client", tid, "createdDate", cl.CreatedDate)
	c.exact("name", cl.Name)
	c.exact("addressLine1", cl.AddressLine1)
	c.optional("addressLine2", cl.AddressLine2)
	c.exact("addressCity", cl.AddressCity)
	c.exact("addressPostcode", cl.AddressPostcode)
	c.exact("addressCountry", cl.AddressCountry)
	c.optional("vat", cl.VAT)
	c.exact("currency.id", cl.CurrencyID)
	code := c.wd.cat.currencies[cl.CurrencyID]
	if code == unknownCode || code == "" {
		c.learn(fmt.Sprintf("currency:%d:code", cl.CurrencyID), "currency.code")
	} else if got := c.b.Get("currency.code"); !strings.EqualFold(got.String(), code) || got.Type != gjson.String {
		// Any letter case (policy.CurrencyCode).
		c.fail(policy.CheckField, "field currency.code", fmt.Sprintf("currency.code is %s, the code of currency %d is %s (2.2; %s)", match.Describe(got), cl.CurrencyID, code, policy.CurrencyCode.ID),
			expectValue(expectPattern, "currency.code", Lit("(?i)^"+code+"$")))
	}
}

func (c *checker) app(a pricing.App) {
	tid := c.id("app", "id", a.ID, true)
	c.date("app", tid, "created", a.Created)
	if a.MarketappHash != nil {
		c.learn("marketapp:"+*a.MarketappHash+":name", "name")
		c.learn("marketapp:"+*a.MarketappHash+":platform", "platform.id")
		if got := c.b.Get("marketapp.hash"); !strings.EqualFold(got.String(), *a.MarketappHash) {
			c.fail(policy.CheckField, "field marketapp.hash", fmt.Sprintf("marketapp.hash is %s, the app was made from %s", match.Describe(got), *a.MarketappHash),
				expectValue(expectPattern, "marketapp.hash", Lit("(?i)^"+*a.MarketappHash+"$")))
		}
	} else {
		c.exact("name", a.Name)
		c.exact("platform.id", a.PlatformID)
	}
	pid, _ := strconv.ParseInt(idText(c.b.Get("platform.id")), 10, 64)
	if name, ok := c.wd.cat.platforms[pid]; ok && name != unknownName {
		c.exact("platform.name", name)
	} else if ok {
		c.learn(fmt.Sprintf("platform:%d:name", pid), "platform.name")
	}
	wk := c.b.Get("writeKey")
	if !writeKeyRE.MatchString(wk.String()) {
		c.fail(policy.CheckWriteKey, "field writeKey", fmt.Sprintf("writeKey is %s, not 32 hexadecimal characters (2.3)", match.Describe(wk)), expectValue(expectPattern, "writeKey", Lit(`^[0-9a-fA-F]{32}$`)))
	} else {
		k := c.k
		k.mu.Lock()
		where, seen := k.seen["writeKey:"+strings.ToLower(wk.String())]
		k.seen["writeKey:"+strings.ToLower(wk.String())] = fmt.Sprintf("sequence %d, step %d", c.s.n, c.i+1)
		k.mu.Unlock()
		if seen {
			c.fail(policy.CheckWriteKey, "writeKey shared", fmt.Sprintf("writeKey %s is the write key of another app (%s)", wk.String(), where), expectValue(expectDiffers, "writeKey", Lit(strconv.Quote(wk.String()))))
		}
	}
	c.planFlags()
}

// planFlags: the flags an app answers are those of a plan of the catalogue
// (policy.PlanFlags: a next plan may apply later).
func (c *checker) planFlags() {
	var got [4]bool
	for i, k := range []string{"isLite", "isPro", "isDynamic", "needBilling"} {
		v := c.b.Get("plan." + k)
		if !v.IsBool() {
			c.fail(policy.CheckPlan, "field plan."+k, fmt.Sprintf("plan.%s is %s, not a Boolean (2.3)", k, match.Describe(v)), expectTyped("plan."+k, "boolean"))
			return
		}
		got[i] = v.Bool()
	}
	for _, name := range c.wd.cat.plans {
		lite, pro, dyn, billing, ok := planFlags(name)
		if !ok {
			return // a plan whose flags the explorer cannot know
		}
		if got == [4]bool{lite, pro, dyn, billing} {
			return
		}
	}
	c.fail(policy.CheckPlan, "field plan", fmt.Sprintf("plan is %s, the flags of no plan of the catalogue (%s)", c.b.Get("plan").Raw, policy.PlanFlags.ID),
		expectValue(expectDiffers, "plan.isLite", Lit(strconv.FormatBool(got[0]))))
}

func (c *checker) session(sess pricing.Session) {
	c.id("user", "userId", sess.UserID, false)
	c.id("user", "creatorUserId", sess.CreatorUserID, false)
	id := c.b.Get("id")
	if idText(id) == "" {
		c.fail(policy.CheckID, "id id", fmt.Sprintf("id is %s, not a whole number (2.4)", match.Describe(id)), expectTyped("id", "number"))
	}
	u, _ := c.s.ref.User(sess.UserID)
	cid := idText(c.b.Get("clientId"))
	ok := false
	for _, ref := range u.ClientIDs {
		// Any client of the user (policy.SessionClient).
		if t, bound := c.s.ids["client"][ref]; bound && t == cid {
			ok = true
		}
	}
	actor := c.s.actorOf(sess.UserID)
	if !ok {
		c.fail(policy.CheckSession, "field clientId", fmt.Sprintf("clientId is %s, no client of the user (%s)", match.Describe(c.b.Get("clientId")), policy.SessionClient.ID),
			expectValue(expectIs, "clientId", Of(AccountVar(actor, "clientId"))))
	}
	tok := c.b.Get("token")
	if tok.Type != gjson.String || tok.String() == "" {
		c.fail(policy.CheckSession, "field token", fmt.Sprintf("token is %s, not a string (2.4)", match.Describe(tok)), expectTyped("token", "string"))
		return
	}
	owner := c.label + actor
	k := c.k
	k.mu.Lock()
	was, seen := k.tokens[tok.String()]
	k.tokens[tok.String()] = owner
	k.mu.Unlock()
	if seen && was != owner {
		c.fail(policy.CheckSession, "token shared", fmt.Sprintf("token is the token of account %s, answered to account %s", was, owner), expectValue(expectDiffers, "token", Lit(strconv.Quote(tok.String()))))
		return
	}
	if created := c.b.Get("created"); created.Type == gjson.String {
		if r, err := match.ParseISORange(created.String()); err == nil && r.Hi.Sub(r.Lo) > time.Hour {
			c.fail(policy.CheckDate, "date created", fmt.Sprintf("created is %s, a date without a time (2.4: an ISO 8601 date-time)", created.Raw),
				expectValue(expectPattern, "created", Lit(`T\d\d`)))
			return
		}
	}
	if !seen {
		// A new session is dated now; a login may also answer the session
		// the user already has (policy.LoginSession).
		c.date("session", idText(id), "created", sess.Created)
	}
	c.s.tok[actor], c.s.tokStep[actor] = tok.String(), c.i
	// The account's newest session, for the sequences after this one: a
	// target may keep a bounded number of them (freedom session-end).
	c.wd.acct[actor].setToken(tok.String())
}

// platforms: the collection lists every platform of the catalogue, each
// with its name where it gives one; ids compared exactly.
func (c *checker) platforms() {
	list := c.b.Get("platforms")
	if !list.IsArray() {
		c.fail(policy.CheckPlatforms, "field platforms", fmt.Sprintf("platforms is %s, not an array in a wrapper object (2.5)", match.Describe(list)), expectTyped("platforms", "array"))
		return
	}
	items := map[string]gjson.Result{}
	for _, it := range list.Array() {
		items[idText(it.Get("id"))] = it
	}
	for _, id := range c.wd.cat.ids()["platforms"] {
		name := c.wd.cat.platforms[id]
		tid := strconv.FormatInt(id, 10)
		item, ok := items[tid]
		if !ok {
			c.fail(policy.CheckPlatforms, "field platforms", fmt.Sprintf("the platforms collection has no platform %s", tid), expectAt(expectPresent, fmt.Sprintf("platforms.#(id==%s)", tid)))
			return
		}
		if n := item.Get("name"); n.Exists() && name != unknownName && n.String() != name {
			c.fail(policy.CheckPlatforms, "field platforms.name", fmt.Sprintf("platform %s is named %s, not %s", tid, n.Raw, name), expectValue(expectIs, fmt.Sprintf("platforms.#(id==%s).name", tid), Lit(strconv.Quote(name))))
		}
	}
}

// idRef is an id as the reproducer names it: the variable of the step
// whose answer showed it, or the id.
func (c *checker) idRef(kind, tid string) Text {
	if at, ok := c.s.idStep[kind+":"+tid]; ok && at >= 0 {
		return Of(AnswerVar(at, "id"))
	}
	return Lit(tid)
}
