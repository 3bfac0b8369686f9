package explore

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The reference's verdict on a step: its request as the reference takes
// it, the credentials, the resource, the body and the login.

// refRequest is a step as the reference reads it: the request the target
// gets, with the reference's ids, session tokens and version in place of
// the target's; the rest (the credential's place and form, the content
// type, the body) as sent. Header names are the reference's to read in any
// case (RFC 9110 5.1).
func (wd *world) refRequest(s *seqState, st Step, sent string) api.Request {
	a := st.Actor
	h, q := wd.credentialOf(&st, secrets{wd.acct[a].apiKey, s.refTok[a]}, secrets{wd.acct[wd.other(a)].apiKey, s.refTok[wd.other(a)]})
	header := http.Header{}
	for k, vs := range h {
		for _, v := range vs {
			header.Add(k, v)
		}
	}
	body := []byte(sent)
	switch {
	case st.Op == OpLogin && st.Wire == "":
		var lh http.Header
		lh, sent = loginBody(wd.form, loginMembers(st.Login, wd.acct))
		header.Set("Content-Type", lh.Get("Content-Type"))
		body = []byte(sent)
	case st.Op == OpLogin:
		header.Set("Content-Type", "application/json")
	case st.Op.HasBody():
		header.Set("Content-Type", "application/json")
		if st.ContentType != "" {
			header.Set("Content-Type", st.ContentType)
		}
	default:
		body = nil
	}
	if st.Accept != "" {
		header.Set("Accept", st.Accept)
	}
	version := "v1"
	if st.Version != "" && !wd.serves(st.Version) {
		version = "v0" // a version the reference serves none of either
	}
	return api.Request{Method: st.Op.Method(), Path: "/" + version + wd.refPath(s, st), Query: q, Header: header, Body: body}
}

// refPath is the path of a step's endpoint below the version, with the
// reference's ids.
func (wd *world) refPath(s *seqState, st Step) string {
	switch st.Op {
	case OpPutUser:
		return "/users/" + wd.refPathID(s, st, "user")
	case OpPutClient:
		return "/clients/" + wd.refPathID(s, st, "client")
	case OpPostClient:
		return "/clients"
	case OpPostApp:
		return "/apps"
	case OpLogin:
		return "/sessions"
	}
	return "/platforms"
}

// refPathID is the id a step's path operator names, in the reference.
func (wd *world) refPathID(s *seqState, st Step, kind string) string {
	who := st.Actor
	switch st.Path {
	case "", "own", "percent-encoded":
	case "other":
		who = wd.other(st.Actor)
	case "created":
		if p, ok := s.createdFor(st); ok {
			return strconv.FormatInt(p.ref, 10)
		}
	case "leading-zero":
		return "0" + strconv.FormatInt(refID(who), 10)
	case "neighbour":
		if ref, ok := s.rids[kind][st.PathID]; ok {
			return strconv.FormatInt(ref, 10)
		}
		return unknownRef
	case "unknown":
		return unknownRef
	default:
		return st.PathID // no id at all: the reference reads it as the target does
	}
	return strconv.FormatInt(refID(who), 10)
}

// credReading is how a step's credential reads: the request the reference
// reads, whether the credential authenticates there (authentic), and
// whether a correct server may read it otherwise (lenient: as the
// account's, where the reference refuses it; refuse: 401, where the
// reference takes it).
func (wd *world) credReading(s *seqState, st Step, sent string) (req api.Request, authentic, lenient, refuse bool) {
	req = wd.refRequest(s, st, sent)
	_, authentic = api.Authenticate(s.ref, req)
	if authentic && st.Cred.Scheme != "api-key" && s.sessionMayHaveEnded(st.Actor) {
		// A session opened before its user's password changed: the
		// target may have ended it (freedom session-end).
		refuse = true
	}
	switch st.Cred.Op {
	case "scheme-word-case", "scheme-spaces", credBesideOwn:
		return req, authentic, false, authentic
	case "secret-upper-case":
		// The reference's token is not the target's: what matters is
		// whether the target's secret has a letter to change.
		canon := st
		canon.Cred.Op = "as-specified"
		creq := wd.refRequest(s, canon, sent)
		_, ok := api.Authenticate(s.ref, creq)
		sentSecret := wd.acct[st.Actor].apiKey
		if st.Cred.Scheme != "api-key" {
			sentSecret = s.tok[st.Actor]
		}
		if strings.ToUpper(sentSecret) == sentSecret {
			return creq, ok, false, false
		}
		return creq, false, ok, false
	}
	return req, authentic, false, refuse
}

// sessionMayHaveEnded reports whether the account's session token now was
// opened before a change of its password that a step of this sequence
// made.
func (s *seqState) sessionMayHaveEnded(actor string) bool {
	changed, ok := s.pwEpoch[refID(actor)]
	return ok && changed >= s.tokStep[actor]
}

// verdictOf is what the spec answers to a step, in the order its rules
// apply: the version (9), authentication (5, before anything about the
// resource or the body), the resource (7.2), the body (7.1, 7.3, 8). The
// rules are the reference's (api.Explain); this reads what it refuses
// through the freedoms. It does not change the reference: accept does, on
// a 200.
func (wd *world) verdictOf(s *seqState, st Step, sent string) verdict {
	big := len(sent) > policy.SizeLimit
	v := wd.verdictOfSized(s, st, sent)
	if st.Wire == WireDeep {
		// A body nested past the server's limit may be refused for it, at
		// any point of the order of the checks.
		for _, status := range policy.NestingLimit.Statuses {
			if !slices.Contains(v.statuses, status) {
				v.statuses = append(v.statuses, status)
			}
		}
		v.grant(policy.NestingLimit)
		v.noField, v.anyNames = true, true
	}
	if st.Chunked && !slices.Contains(v.statuses, 411) {
		// A body in chunks may be refused for wanting a length, at any
		// point of the order of the checks (RFC 9112 6.3).
		v.statuses = append(v.statuses, policy.LengthRequired.Statuses...)
		v.grant(policy.LengthRequired)
	}
	if big {
		// A body over the size limit may be refused for its size, at any
		// point of the order of the checks, as a whole: 413, or a 400 that
		// names no field of it (a body a server stops reading is no body).
		for _, status := range policy.SizeLimitFreedom.Statuses {
			if !slices.Contains(v.statuses, status) {
				v.statuses = append(v.statuses, status)
			}
		}
		v.grant(policy.SizeLimitFreedom)
		v.noField, v.anyNames = true, true
	}
	return v
}

func (wd *world) verdictOfSized(s *seqState, st Step, sent string) verdict {
	req, authentic, lenient, refuse := wd.credReading(s, st, sent)
	plan := refAPI.Explain(s.ref, req)
	if plan.Refused(api.RuleUnknownVersion) {
		v := verdict{statuses: []int{404}, rule: "9: one version is available; " + st.Version + " is none of it"}
		if plan.Route.Auth && !authentic || refuse {
			v.statuses = append(v.statuses, 401)
			v.grant(policy.UnknownVersion)
		}
		return v
	}
	if st.Op == OpLogin {
		v := wd.loginVerdict(s, st, plan)
		if st.Cred.Op == credAtLogin.Name {
			// Another account's credential beside the body: the session
			// is the body's account's, or the login is refused.
			v.also(verdict{statuses: policy.CredentialAtLogin.Statuses, anyNames: true, noField: true})
			v.grant(policy.CredentialAtLogin)
		}
		return v
	}
	if st.Op == OpPlatforms {
		v := verdict{statuses: []int{200}, rule: "4.5", accept: func() (*want, error) { return &want{kind: "platforms"}, nil }}
		if !authentic || refuse {
			v.statuses = append(v.statuses, 401)
			v.grant(policy.PlatformsAuth)
		}
		return v
	}
	unauthenticated := verdict{statuses: []int{401}, rule: "5: a request not authenticated correctly is answered 401"}
	if st.Cred.Op == credBesideOther {
		return wd.eitherAccount(s, st, sent, unauthenticated)
	}
	if plan.Refused(api.RuleMalformedID) {
		// An id that is no id names no resource: refused as a path the
		// server does not serve (a router with typed parameters), before
		// or after the credentials are read (freedom malformed-id); never
		// by a credential's 403. An id with leading zeros too: a server
		// may read it as no plain decimal (or as the decimal: 401).
		unauthenticated.also(verdict{statuses: policy.MalformedIDWithoutCredentials, anyNames: true, noField: true})
		unauthenticated.grant(policy.MalformedID)
	}
	if !authentic && !lenient {
		return unauthenticated
	}
	v := wd.resourceVerdict(s, st, req, plan)
	switch {
	case lenient:
		// A secret in another case: 401, or the account's answer.
		unauthenticated.also(v)
		unauthenticated.grant(policy.SecretForms)
		return unauthenticated
	case refuse:
		v.also(verdict{statuses: []int{401}})
		switch st.Cred.Op {
		case "scheme-word-case", "scheme-spaces":
			v.grant(policy.SchemeWord)
		case credBesideOwn:
			v.grant(policy.CredentialsTogether)
		default:
			v.grant(policy.SessionEnd)
		}
	}
	return v
}

// eitherAccount is the answer to a request that carries the actor's
// credential and the other account's beside it (freedom
// credentials-together): 401, the actor's answer, or the other account's.
// The cells draw it where the other account's answer is no 200 of its own
// (a PUT of the actor's record), the same (GET platforms, answered before
// this), or its own update (a PUT of the other's record, which the
// reference then applies as the other account): no create, which would be
// the other account's.
func (wd *world) eitherAccount(s *seqState, st Step, sent string, unauthenticated verdict) verdict {
	v := unauthenticated
	alone := st
	alone.Cred.Op = "as-specified"
	req := wd.refRequest(s, alone, sent)
	if _, ok := api.Authenticate(s.ref, req); ok {
		v.also(wd.resourceVerdict(s, alone, req, refAPI.Explain(s.ref, req)))
	}
	b, _ := besidePlace(st.Cred)
	other := wd.other(st.Actor)
	oreq := req
	oreq.Header = req.Header.Clone()
	oreq.Header.Del("Authorization")
	oreq.Header.Del("session-token")
	oreq.Query = url.Values{}
	if b.query {
		oreq.Query.Set(b.name, b.with(wd.acct[other].apiKey, s.refTok[other]))
	} else {
		oreq.Header.Set(b.name, b.with(wd.acct[other].apiKey, s.refTok[other]))
	}
	if _, ok := api.Authenticate(s.ref, oreq); ok {
		ov := wd.resourceVerdict(s, alone, oreq, refAPI.Explain(s.ref, oreq))
		if st.Path != "other" {
			// The other account's 200 would be a record of its own the
			// sequence does not follow; on its own record (a PUT of the
			// other's id) it is the update the reference applies as it.
			ov.statuses = slices.DeleteFunc(slices.Clone(ov.statuses), func(s int) bool { return s == 200 })
			ov.accept = nil
		}
		v.also(ov)
	}
	v.grant(policy.CredentialsTogether)
	return v
}

// resourceVerdict is the answer to an authenticated caller: the path's
// resource, then the body.
func (wd *world) resourceVerdict(s *seqState, st Step, req api.Request, plan api.Plan) verdict {
	var path verdict
	switch {
	case plan.Refused(api.RuleForbidden) || plan.Refused(api.RuleNoClient):
		path = verdict{statuses: []int{403}, rule: "5: the caller may not view or modify the resource: 403"}
	case plan.Refused(api.RuleUnknownID):
		path = verdict{statuses: policy.UnknownID.Statuses, rule: "7.2: an id that names nothing"}
		path.grant(policy.UnknownID)
	case plan.Refused(api.RuleMalformedID) && st.Path == "leading-zero":
		// Read as the decimal it writes, or refused as no plain id.
		v := verdict{statuses: policy.MalformedID.Statuses, anyNames: true, noField: true, rule: "4: an id that is no plain decimal"}
		v.grant(policy.MalformedID)
		decimal := req
		decimal.Path = strings.Replace(req.Path, "/0", "/", 1)
		v.also(wd.bodyVerdict(s, st, decimal, refAPI.Explain(s.ref, decimal)))
		return v
	case plan.Refused(api.RuleMalformedID):
		// Any client error: a typed route refuses it 400, 404, 405 or 422.
		path = verdict{statuses: policy.MalformedID.Statuses, any4xx: true, anyNames: true, noField: true, rule: "7.2: an id that is no id"}
		path.grant(policy.MalformedID)
	default:
		return wd.bodyVerdict(s, st, req, plan)
	}
	if body := wd.bodyVerdict(s, st, req, plan); body.refuses() || body.any4xx {
		// Refused for its path and for its body, or for a body a server
		// may refuse: a server may check either first (freedom
		// check-order). The body's 200 is none: the path refuses.
		body.statuses = slices.DeleteFunc(slices.Clone(body.statuses), func(s int) bool { return s == 200 })
		body.accept = nil
		path.also(body)
		path.accept = nil
		path.grant(policy.CheckOrder)
	}
	return path
}

// hashReadings adds what a marketplace hash lets a server do beyond the
// reference: name the app's missing name and platform beside a malformed
// hash it reads as none (freedom malformed-hash), and refuse a second app
// of a marketplace app that has one (the profile's apps_per_marketapp):
// 400 naming its hash, perhaps alone.
func (v *verdict) hashReadings(mays readingSet, refused bool) {
	if refused && len(mays.alsoName) > 0 {
		v.mayName = append(v.mayName, mays.alsoName...)
		v.grant(policy.MalformedHash)
	}
	for _, at := range mays.second {
		if !slices.Contains(v.statuses, 400) && !refused {
			v.statuses = append(v.statuses, 400)
		}
		v.mayName, v.alone = append(v.mayName, at), append(v.alone, at)
		v.grant(policy.OneAppPerMarketapp)
	}
}

// fieldErrors are the errors a plan's body refusal names (nil: none).
func fieldErrors(plan api.Plan) []pricing.FieldError {
	for _, f := range plan.Refusals {
		if f.Rule == api.RuleFields {
			return f.Errors
		}
	}
	return nil
}

// unreadBody reports whether the reference refused the body before its
// fields: no JSON, no object, too deep.
func unreadBody(plan api.Plan) bool {
	return plan.Refused(api.RuleNotJSON) || plan.Refused(api.RuleNotObject) || plan.Refused(api.RuleBodyShape) || plan.Refused(api.RuleBodyTooLarge)
}

// bodyVerdict judges the body of a request, as the reference's plan read
// it.
func (wd *world) bodyVerdict(s *seqState, st Step, req api.Request, plan api.Plan) verdict {
	if RawWire(st.Wire) {
		v := verdict{any4xx: true, anyNames: true, noField: true, rule: "7.2: a body that is no JSON object is a client's mistake"}
		v.grant(policy.UnstatedRefusal)
		return v
	}
	if unreadBody(plan) || plan.Body == nil {
		return verdict{any4xx: true, anyNames: true, noField: true, rule: "7.2: a body that is no JSON object"}
	}
	own := ownValues(st, fieldErrors(plan))
	if len(own) > 0 {
		// A field no operator touched holds the target's own value, which
		// the target took before: the reference takes it too.
		plan = refAPI.ExplainWaiving(s.ref, req, waiving(own))
	}
	body, errs := plan.Body, fieldErrors(plan)
	v := verdict{rule: "7.1, 7.3, 8"}
	mays := wd.readings(st, body, errs)
	v.together, v.unless, v.adopt = mays.together, mays.unless, mays.adopt
	for _, m := range mays.refuse {
		// A body a server may refuse as a whole (a duplicate member, a
		// member the spec does not name, its size or its type), with any
		// 4xx but 401 and no field named, before it reads the fields.
		if m.field == "" {
			v.noField, v.any4xx = true, true
		}
	}
	if m := mays.silent; len(m) == 1 && len(st.Muts) == 1 && plainForm(st) && !judgedByItsCountry(st.Op, m[0].Field) {
		// The kind of input, its place, and what the reference made of it:
		// the reference's answer tells the contexts the spec's rules tell
		// apart (an empty app name beside a hash, or without one).
		v.heldKey = fmt.Sprintf("%s | %s | %s | %s | the reference %s it", st.Op, m[0].Field, m[0].Op, m[0].Shape, map[bool]string{true: "refuses", false: "takes"}[len(errs) > 0])
		v.heldField = m[0].Field
	}
	for _, m := range mays.refuse {
		v.mayName = append(v.mayName, m.field)
		v.grant(m.f)
	}
	v.hashReadings(mays, len(errs) > 0)
	if len(errs) == 0 {
		for _, m := range mays.refuse {
			v.alone = append(v.alone, m.field)
		}
		v.statuses, v.accept = append([]int{200}, v.statuses...), wd.acceptOf(s, st, plan)
		if len(mays.refuse) > 0 {
			v.any4xx = true
		}
		return v
	}
	v.statuses = []int{400}
	for _, m := range mays.refuse {
		if m.f.ID == policy.AppByName.ID {
			// An app by name a server refuses as of no store, with any
			// 4xx but 401, whatever else the body holds: it may look the
			// app up before it reads the rest.
			v.any4xx = true
		}
	}
	v.readErrors(errs, mays)
	// Another reading of the body is sent where this one is (a leading
	// zero's path read as its decimal).
	at := func(body string) api.Request {
		// At the step's path, with the credentials the step was read
		// with (a secret in capitals read as the account's own).
		r := wd.refRequest(s, st, body)
		r.Path, r.Header, r.Query = req.Path, req.Header, req.Query
		return r
	}
	wd.lenientAccept(s, st, &v, mays, own, at)
	if len(mays.silent) > 0 {
		wd.silentAccept(s, st, &v, mays, own, at)
	}
	for _, m := range mays.refuse {
		// A refusal for what a freedom lets a server refuse may name that
		// alone (a duplicate member refused before the fields are read).
		v.alone = append(v.alone, m.field)
	}
	return v
}

// readErrors reads each field the reference's 400 names: one a server
// must name (with the spec's code), or one it may name or refuse
// otherwise.
func (v *verdict) readErrors(errs []pricing.FieldError, mays readingSet) {
	for _, fe := range errs {
		r, covered := mays.of(fe.FieldName)
		if covered && r.later || slices.Contains(mays.conditional, fe.FieldName) {
			v.later = append(v.later, fe.FieldName)
		}
		if covered {
			v.offending = append(v.offending, fe.FieldName)
		}
		if mays.ignorable(fe.FieldName) {
			// Beside a hash a server may ignore it whatever it is
			// (freedom platform-beside-hash): named or not.
			v.mayName = append(v.mayName, fe.FieldName)
			continue
		}
		switch {
		case !covered || r.reading == strict:
			v.required = append(v.required, fe.FieldName)
		case r.reading == openRefusal:
			v.any4xx = true
			v.mayName = append(v.mayName, r.field)
			v.grant(policy.UnstatedRefusal)
			if r.whole {
				// A decoder of typed bodies refuses the body whole, or
				// names the field it stopped at alone.
				v.noField = true
				v.alone = append(v.alone, "", r.field)
			}
		case r.reading == silent:
			// Refused by the reference where the spec is silent: any 4xx,
			// or taken (below).
			v.any4xx = true
			v.mayName = append(v.mayName, r.field)
			v.grant(policy.Silent)
		case r.reading == badRequest:
			// 400, the spec says (7.2, 8); the field it names, or none.
			v.mayName = append(v.mayName, r.field)
		case r.reading == mayReadAs:
			// Refused with any 4xx, or read as it reads (below).
			v.any4xx = true
			v.mayName = append(v.mayName, r.field)
		default:
			v.mayName = append(v.mayName, r.field)
		}
	}
	slices.Sort(v.required)
	v.required = slices.Compact(v.required)
	for _, c := range mays.codes {
		f, _, _ := strings.Cut(c, "=")
		if slices.Contains(v.required, f) {
			v.codes = append(v.codes, c)
		}
	}
}

// objectOf is the nested object a field is one of ("client.", "app.",
// "client.app."), or "": a server may judge the object's fields once the
// fields around it are valid (freedom check-order).
func objectOf(field string) string {
	for _, p := range []string{"client.app.", "client.", "app."} {
		if strings.HasPrefix(field, p) {
			return p
		}
	}
	return ""
}

// lenientAccept adds the 200 of a lenient reading of the body (1.0 read as
// 1, no terms on an update, a platform beside a hash ignored) that the
// reference takes: it is correct too.
func (wd *world) lenientAccept(s *seqState, st Step, v *verdict, mays readingSet, own []string, at func(body string) api.Request) {
	for _, alt := range mays.alts {
		// The target's own values stay its own in a lenient reading too.
		if ap := refAPI.ExplainWaiving(s.ref, at(Step{Base: PlainValue(alt.body).(map[string]any)}.Encode()), waiving(own)); ap.Accepted() {
			v.statuses = append(v.statuses, 200)
			v.any4xx = true
			v.accept = wd.acceptOf(s, st, ap)
			v.grant(alt.f)
			break
		}
	}
}

// silentAccept adds the 200 of the target taking the values the spec does
// not judge: the reference adopts that reading, waiving their conditions,
// and keeping (or the target defaulting) a field left out.
func (wd *world) silentAccept(s *seqState, st Step, v *verdict, mays readingSet, own []string, at func(body string) api.Request) {
	taken := st.Body()
	if lenient, ok := st.AltBody(); ok {
		taken = lenient // 1.0 read as 1 beside a value taken as sent
	}
	paths := slices.Clone(own)
	for _, m := range mays.silent {
		paths = append(paths, m.Field)
		if kept, ok := GetPath(st.Base, m.Field); ok && (m.Remove || m.Value == nil) {
			SetPath(taken, m.Field, kept, false)
		}
	}
	// And each lenient reading with the values taken (a null app
	// read as none beside an empty address line).
	bodies := []map[string]any{taken}
	for _, a := range mays.alts {
		b := DeepCopy(a.body).(map[string]any)
		for _, m := range mays.silent {
			if kept, ok := GetPath(st.Base, m.Field); ok && (m.Remove || m.Value == nil) {
				SetPath(b, m.Field, kept, false)
			}
		}
		bodies = append(bodies, b)
	}
	for _, b := range bodies {
		alt := Step{Base: PlainValue(b).(map[string]any), Wire: st.Wire}
		if ap := refAPI.ExplainWaiving(s.ref, at(alt.Encode()), waiving(paths)); ap.Accepted() && !slices.Contains(v.statuses, 200) {
			v.statuses = append(v.statuses, 200)
			v.accept = wd.acceptOf(s, st, ap)
			v.grant(policy.Silent)
			break
		}
	}
}

// acceptOf is what a 200 does to the reference: the plan's change
// committed, and what the answer must show (nil: the plan refuses).
func (wd *world) acceptOf(s *seqState, st Step, plan api.Plan) func() (*want, error) {
	if !plan.Accepted() {
		return nil
	}
	return func() (*want, error) {
		kept, nulled := keptOf(s, st, plan)
		resp := plan.Commit()
		if resp.Status != http.StatusOK {
			return nil, fmt.Errorf("it answered %d %s", resp.Status, resp.Body)
		}
		ans := gjson.ParseBytes(resp.Body)
		id := ans.Get("id").Int()
		switch st.Op {
		case OpPutUser:
			caller := plan.Caller
			if pw, ok := plan.Body["password"].(string); ok {
				s.password[s.actorOf(caller)] = pw
				s.pwEpoch[caller] = s.cur
			}
			if _, ok := plan.Body["client"].(map[string]any); ok {
				if cs, _ := s.ref.ClientsOfUser(caller); len(cs) > 0 {
					s.posted[st.Actor] = append(s.posted[st.Actor], posted{ref: cs[len(cs)-1].ID, at: s.cur, label: st.Recorded})
				}
			}
			u, err := s.ref.User(caller)
			return &want{kind: "user", user: u, kept: kept, nulled: nulled}, err
		case OpPutClient:
			c, err := s.ref.Client(id)
			return &want{kind: "client", client: c, kept: kept, nulled: nulled}, err
		case OpPostClient:
			c, err := s.ref.Client(id)
			if err == nil {
				s.posted[st.Actor] = append(s.posted[st.Actor], posted{ref: c.ID, at: s.cur, label: st.Recorded})
			}
			return &want{kind: "client", client: c, fresh: true}, err
		case OpPostApp:
			a, err := s.ref.App(id)
			return &want{kind: "app", app: a, fresh: true}, err
		case OpLogin:
			created, err := time.Parse(time.RFC3339, ans.Get("created").String())
			sess := pricing.Session{ID: id, Created: created, CreatorUserID: ans.Get("creatorUserId").Int(),
				UserID: ans.Get("userId").Int(), ClientID: ans.Get("clientId").Int(), Token: ans.Get("token").String()}
			s.refTok[s.actorOf(sess.UserID)] = sess.Token
			return &want{kind: "session", sess: sess, fresh: true}, err
		}
		return &want{kind: "platforms"}, nil
	}
}

// loginVerdict: the credentials of an account open a session for it; any
// others are refused, 400 or 401 (policy.LoginRefused).
func (wd *world) loginVerdict(s *seqState, st Step, plan api.Plan) verdict {
	refused := verdict{statuses: policy.LoginRefused.Statuses, anyNames: true, noField: true, rule: "5: only an account's credentials open a session"}
	refused.grant(policy.LoginRefused)
	if RawWire(st.Wire) || unreadBody(plan) {
		refused.any4xx = true
		return refused
	}
	if !plan.Accepted() {
		return refused
	}
	v := verdict{statuses: []int{200}, rule: "5: an account's credentials open a session", accept: wd.acceptOf(s, st, plan)}
	email, _ := plan.Body["email"].(string)
	for _, name := range []string{"A", "B"} {
		if stored := s.user(name).Email; email != stored && strings.EqualFold(email, stored) {
			// The email in another letter case: a server may match it
			// exactly.
			v.also(refused)
			v.freedoms = slices.DeleteFunc(v.freedoms, func(f string) bool { return f == policy.LoginRefused.ID })
			v.grant(policy.LoginEmailCase)
		}
	}
	return v
}
