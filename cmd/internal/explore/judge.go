package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/steps/match"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// The fourth stage: the judgement. judge compares the target's answer to a
// step with the reference's verdict and returns a divergence as data (nil:
// none): a function of the verdict, the answer, and what the run knows of
// the target (ids, learned values), the freedoms of package freedom already
// in the verdict.

// judge compares the target's answer to a step with the verdict; on an
// allowed 200 the reference takes the step too.
func (j judgement) judge(st Step, v verdict, got wireAnswer) *divergence {
	if got.status < 0 {
		return diverged(policy.CheckNoAnswer, "no-answer", "no answer: "+got.err)
	}
	if got.status >= 500 {
		return diverged(policy.CheckServerError, "5xx", fmt.Sprintf("answered %d: no request earns a 5xx; the spec's answer is %s", got.status, v.statusText()), expectStatuses(v.statuses, v.any4xx))
	}
	if v.bound && !slices.Contains(v.statuses, got.status) && got.status >= 400 && got.status < 500 &&
		(got.status == http.StatusNotFound || got.status == http.StatusRequestEntityTooLarge || !target.NamesNoField(got.body)) {
		// A bound refuses what the account would keep, naming no field,
		// and not for a path or a size (as the suite's bound reads it): a
		// refusal that names a field is judged as the reference reads
		// the step.
		return diverged(policy.CheckStatus, fmt.Sprintf("status %d", got.status),
			fmt.Sprintf("answered %d, the spec's answer is %s (%s%s)", got.status, v.statusText(), v.rule, v.freedomsText()), expectStatuses(v.statuses, false))
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
	return j.matches(w, gjson.ParseBytes(got.body), got)
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
	fields = v.qualify(fields)
	if len(v.alone) > 0 {
		alone := true
		for _, f := range fields {
			alone = alone && (namedAmong(f, v.alone) || f == "" && slices.Contains(v.alone, ""))
		}
		if alone {
			return nil // refused for what a freedom lets a server refuse
		}
	}
	var missing, wrong []string
	for _, f := range v.required {
		if !namedAmong(f, fields) && !v.excusedAmong(f, fields) && !v.lookedUpLater(f, fields) {
			missing = append(missing, f)
		}
	}
	for _, f := range fields {
		if !slices.Contains(v.required, f) && !v.mayNameField(f) {
			wrong = append(wrong, f)
		}
	}
	if len(missing) > 0 || len(wrong) > 0 {
		return v.namesDiverge(fields, missing, wrong)
	}
	return v.codesDiverge(codes, fields)
}

// qualify reads each name of a 400 that is no field the verdict knows as
// the nested field it ends: a server that checks a nested client or app
// with the validator of its own endpoint names client.terms "terms" (the
// spec gives fieldName as the field's name, and a nested field's name is
// the server's to write).
func (v verdict) qualify(fields []string) []string {
	known := slices.Concat(v.required, v.mayName)
	out := slices.Clone(fields)
	for i, f := range fields {
		if f == "" || slices.ContainsFunc(known, func(k string) bool { return related(k, f) }) {
			continue
		}
		for _, k := range known {
			if strings.HasSuffix(k, "."+f) {
				out[i] = k
				break
			}
			// Below a known field, named within its object: app.nextplan
			// (a string where the object was) named "nextplan.id".
			if head, _, ok := strings.Cut(f, "."); ok && strings.HasSuffix(k, "."+head) {
				out[i] = k + f[len(head):]
				break
			}
		}
	}
	return out
}

// lookedUpLater reports whether f is a field a 400 may leave unnamed
// because it names another field whose own value is refused: an id looked
// up, or a member needed for want of another (an app's name without a
// hash), once the values given are valid.
func (v verdict) lookedUpLater(f string, fields []string) bool {
	// A field of a nested object (a client in a user's body, an app in a
	// client's) may wait for a refused field around the object.
	later, nested := slices.Contains(v.later, f), objectOf(f) != ""
	if !later && !nested {
		return false
	}
	if objectJudged := nested && slices.ContainsFunc(fields, func(g string) bool { return strings.HasPrefix(g, objectOf(f)) }); objectJudged {
		// The object was judged: each of its offending fields is named,
		// but for one judged later within it.
		nested = false
	}
	for _, g := range fields {
		if g == "" || related(g, f) {
			continue
		}
		if later && slices.Contains(v.offending, g) {
			return true
		}
		// A field of a nested object waits for the fields around the
		// object that the server refused (a value the spec refuses, or
		// one a freedom lets it refuse), not for those beside it.
		refused := slices.Contains(v.offending, g) || slices.Contains(v.required, g) || v.mayNameField(g)
		if nested && refused && !strings.HasPrefix(g, objectOf(f)) {
			return true
		}
	}
	return false
}

// namedAmong reports whether a field is named among names: by its name, or
// by the object above or a field below it (an object left out named as
// itself, or by its id).
func namedAmong(f string, names []string) bool {
	for _, g := range names {
		if g == f || strings.HasPrefix(g, f+".") || strings.HasPrefix(f, g+".") {
			return true
		}
	}
	return false
}

// excusedAmong reports whether a field may go unnamed: it is judged with
// others, and one of them is named among fields.
func (v verdict) excusedAmong(f string, fields []string) bool {
	for _, u := range v.unless {
		if u[0] == f && namedAmong(u[1], fields) {
			return true
		}
	}
	for _, group := range v.together {
		if !slices.Contains(group, f) {
			continue
		}
		for _, g := range group {
			if g != f && namedAmong(g, fields) {
				return true
			}
		}
	}
	return false
}

// namesDiverge is the divergence of a 400 that leaves offending fields
// unnamed (missing) or names valid ones (wrong).
func (v verdict) namesDiverge(fields, missing, wrong []string) *divergence {
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

// codesDiverge is the divergence of a 400 whose field=code pairs do not
// give a field the code 7.3 names for it (nil: each does).
func (v verdict) codesDiverge(codes, fields []string) *divergence {
	for _, c := range v.codes {
		f, code, _ := strings.Cut(c, "=")
		if !namedAmong(f, fields) {
			continue // left unnamed where the names allow it (excused, looked up later)
		}
		var with []string
		for _, fc := range codes {
			if g, gc, _ := strings.Cut(fc, "="); gc == code {
				with = append(with, g)
			}
		}
		if !namedAmong(f, with) {
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
	if st.Op == OpLogin && loginSent(st.Login[1]) {
		pws = append(pws, expandLogin(st.Login[1], wd.acct))
	}
	sent, _ := json.Marshal(PlainValue(b))
	known := match.SentStrings(sent)
	known = append(known, s.user("A").Email, s.user("B").Email)
	if loginSent(st.Login[0]) {
		known = append(known, expandLogin(st.Login[0], wd.acct))
	}
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
