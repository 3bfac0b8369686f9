package explore

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The third stage: the reference. Each sequence starts a store of the
// mock's domain (mockserver/pricing) seeded with what the explorer knows of
// the target, and asks it what the spec answers to each step: the
// statuses, what a 400 must name, and on a 200 the entity the answer must
// show. Where the spec leaves the answer open the verdict takes in every
// answer package freedom lists, and nothing else.

// seqState is one sequence: the reference's store and what maps its
// entities to the target's.
type seqState struct {
	n      int
	ref    *pricing.Store
	refTok map[string]string // the reference's session token of each account
	tok    map[string]string // the target's latest session token of each account
	// tokStep is the step whose answer gave it (-1: before the sequence).
	tokStep  map[string]int
	password map[string]string           // each account's password now
	apiKeys  map[string]string           // each account's api key (the reference's are the target's)
	ids      map[string]map[int64]string // kind: reference id -> the target's id
	rids     map[string]map[string]int64 // kind: the target's id -> reference id
	idStep   map[string]int              // kind:target id -> the step whose answer showed it first
	dateStep map[string]int              // learned key -> the step whose answer showed it first
	posted   map[string][]posted         // the clients each account made
	// uid tells this sequence from every other of the run, replays included.
	uid int64
	// pwEpoch is, for each user, the step whose accepted request last gave
	// it a password (-1: none): a date learned is one of that change.
	pwEpoch map[int64]int
	// unbindable are clients the reference made (PUT /users with a client,
	// whose answer shows no id) before the explorer could read the list
	// they joined: their ids are not known.
	unbindable map[int64]bool
	steps      []Step
	status     []int
	cur        int // the step being judged
	// broken: the reference could not take a step the target accepted,
	// and no longer holds what the target holds (policy.CheckReference).
	broken bool
}

// sequenceUID numbers the sequences of the process.
var sequenceUID atomic.Int64

// posted is a client a sequence made: its id in the reference, the step
// that made it and that step's label (Step.Recorded).
type posted struct {
	ref   int64
	at    int
	label string
}

func (s *seqState) user(actor string) pricing.User {
	u, _ := s.ref.User(refID(actor))
	return u
}

// bind records that the reference's entity ref is the target's tid.
func (s *seqState) bind(kind string, ref int64, tid string, at int) {
	if s.ids[kind] == nil {
		s.ids[kind], s.rids[kind] = map[int64]string{}, map[string]int64{}
	}
	s.ids[kind][ref], s.rids[kind][tid] = tid, ref
	if _, ok := s.idStep[kind+":"+tid]; !ok {
		s.idStep[kind+":"+tid] = at
	}
}

func (s *seqState) actorOf(userID int64) string {
	if userID == 2 {
		return "B"
	}
	return "A"
}

// clientOf is the client a PUT /clients step names: the actor's own, or
// one it made.
func (s *seqState) clientOf(st Step) int64 {
	if p, ok := s.createdFor(st); st.Path == "created" && ok {
		return p.ref
	}
	return refID(st.Actor)
}

// createdFor is the client a "created" path names: the one the step whose
// label is PathID made (a recording's), or else the last one the actor
// made whose id the target showed.
func (s *seqState) createdFor(st Step) (posted, bool) {
	if st.PathID == "" {
		return s.created(st.Actor)
	}
	for _, p := range s.posted[st.Actor] {
		if _, bound := s.ids["client"][p.ref]; bound && p.label == st.PathID {
			return p, true
		}
	}
	return posted{}, false
}

// created is the last client an account made whose id the target showed:
// the one a "created" path names.
func (s *seqState) created(actor string) (posted, bool) {
	ps := s.posted[actor]
	for i := len(ps) - 1; i >= 0; i-- {
		if _, bound := s.ids["client"][ps[i].ref]; bound {
			return ps[i], true
		}
	}
	return posted{}, false
}

// newSequence starts the reference of a sequence: a store of the world's
// seed, with a session for each account.
func (wd *world) newSequence() (*seqState, error) {
	seed, err := wd.seed()
	if err != nil {
		return nil, err
	}
	s := &seqState{
		ref:    pricing.NewStore(seed, pricing.NewSource(nil), pricing.Deviations{}),
		refTok: map[string]string{}, tok: map[string]string{}, tokStep: map[string]int{}, password: map[string]string{},
		ids: map[string]map[int64]string{}, rids: map[string]map[string]int64{}, idStep: map[string]int{}, dateStep: map[string]int{},
		posted: map[string][]posted{}, unbindable: map[int64]bool{}, pwEpoch: map[int64]int{}, apiKeys: map[string]string{},
		uid: sequenceUID.Add(1),
	}
	for name, a := range wd.acct {
		sess, err := s.ref.CreateSession(refID(name))
		if err != nil {
			return nil, err
		}
		_, _, tok := a.state()
		s.refTok[name], s.tok[name], s.tokStep[name] = sess.Token, tok, -1
		s.password[name] = a.password
		s.apiKeys[name] = a.apiKey
		s.bind("user", refID(name), a.userID, -1)
		s.bind("client", refID(name), a.clientID, -1)
	}
	return s, nil
}

// verdict is the reference's answer to a step: the statuses the spec
// allows, what a 400 must and may name, and what a 200 shows.
type verdict struct {
	statuses []int
	any4xx   bool     // any 4xx but 401
	required []string // fields a 400 must name
	// mayName are fields a 400 may name beside them (and what is below
	// each); "" stands for the body as a whole.
	mayName  []string
	codes    []string // field=code pairs a 400 must carry (7.3)
	anyNames bool     // a 400 about no field the spec names: its names are the server's
	noField  bool     // a 400's fieldName may be empty
	// accept applies the step to the reference when the target answered
	// 200, and says what the answer must show.
	accept func() (*want, error)
	rule   string
	// freedoms are the freedoms the verdict grants, for the reason line.
	freedoms []string
	// alone are fields a 400 may name alone, however the rest of the body
	// is: what a freedom lets a server refuse ("" the body as a whole).
	alone []string
	// together are fields a server may judge together: naming one of a
	// group, a 400 may leave the others of it unnamed (an address checked
	// by its country's form, freedom unstated-validity).
	together [][]string
	// unless are a field a 400 may leave unnamed where it names the
	// other of the pair: what the spec decides beside what it leaves open.
	unless [][2]string
	// adopt are the fields whose value in a 200 is the target's to choose
	// (readingSet.adopt): the reference takes what it answers.
	adopt []string
	// heldKey names the kind of input and its place, where the step's one
	// change is a value no sentence of the spec judges: the target's
	// answer is held there for the run (judgement.hold); heldField is the
	// field.
	heldKey, heldField string
}

// want is what a 200 answer must show.
type want struct {
	kind   string // user, client, app, session, platforms
	user   pricing.User
	client pricing.Client
	app    pricing.App
	sess   pricing.Session
	fresh  bool // the entity is new: its id is bound now
	// adopt are the fields whose value is the target's to choose
	// (verdict.adopt).
	adopt []string
	// kept are the optional fields a PUT /clients body left out that the
	// reference cleared, with the value stored before: a server may keep
	// it (policy.OmittedOptional).
	kept map[string]string
}

// patch writes a value the target chose into the reference's user or
// client of id (res "/users/" or "/clients/"), through the reference's own
// PUT with the value's conditions waived, and refreshes held (a
// *pricing.User or *pricing.Client) with what the reference now holds. It
// reports whether the reference took it.
func (s *seqState) patch(res string, id int64, path string, v any, held any) bool {
	var body map[string]any
	key := ""
	switch res {
	case "/users/":
		u, err := s.ref.User(id)
		if err != nil {
			return false
		}
		body = userBody(u)
		key = s.apiKeys[s.actorOf(id)]
	default:
		c, err := s.ref.Client(id)
		if err != nil {
			return false
		}
		body = clientBody(c)
		for _, name := range []string{"A", "B"} {
			if s.ref.IsMember(refID(name), id) {
				key = s.apiKeys[name]
			}
		}
	}
	SetPath(body, path, v, false)
	req := api.Request{Method: http.MethodPut, Path: "/v1" + res + strconv.FormatInt(id, 10),
		Header: http.Header{"Authorization": {"api-key " + key}, "Content-Type": {"application/json"}}, Body: []byte(Step{Base: body}.Encode())}
	plan := refAPI.ExplainWaiving(s.ref, req, func(string, pricing.Condition) bool { return true })
	if !plan.Accepted() || plan.Commit().Status != http.StatusOK {
		return false
	}
	switch h := held.(type) {
	case *pricing.User:
		*h, _ = s.ref.User(id)
	case *pricing.Client:
		*h, _ = s.ref.Client(id)
	}
	return true
}

func (v verdict) allows(status int) bool {
	return slices.Contains(v.statuses, status) || v.any4xx && status >= 400 && status < 500 && status != 401
}

func (v *verdict) grant(f policy.Freedom) {
	if !slices.Contains(v.freedoms, f.ID) {
		v.freedoms = append(v.freedoms, f.ID)
	}
}

// also adds the answers of another reading: its statuses, what it names
// and its 200. A 400 is correct when either reading's 400 is: what both
// require, where both answer 400.
func (v *verdict) also(o verdict) {
	v400, o400 := v.allows(400), o.allows(400)
	for _, s := range o.statuses {
		if !slices.Contains(v.statuses, s) {
			v.statuses = append(v.statuses, s)
		}
	}
	v.any4xx = v.any4xx || o.any4xx
	switch {
	case o400 && !v400:
		v.required, v.codes = o.required, o.codes
	case o400 && v400:
		v.required = intersect(v.required, o.required)
		v.codes = intersect(v.codes, o.codes)
	}
	v.mayName = append(append(v.mayName, o.required...), o.mayName...)
	v.anyNames = v.anyNames || o.anyNames
	v.alone = append(v.alone, o.alone...)
	v.together = append(v.together, o.together...)
	v.unless = append(v.unless, o.unless...)
	v.adopt = append(v.adopt, o.adopt...)
	v.noField = v.noField || o.noField
	if v.accept == nil {
		v.accept = o.accept
	}
	for _, f := range o.freedoms {
		if !slices.Contains(v.freedoms, f) {
			v.freedoms = append(v.freedoms, f)
		}
	}
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// refuses reports whether every answer the verdict allows is a refusal.
func (v verdict) refuses() bool { return !slices.Contains(v.statuses, 200) }

// mayNameField reports whether a 400 may name f: f is, or is below, or
// above, a field the verdict names.
func (v verdict) mayNameField(f string) bool {
	for _, x := range append(slices.Clone(v.required), v.mayName...) {
		if f == x || x != "" && (strings.HasPrefix(f, x+".") || strings.HasPrefix(x, f+".")) {
			return true
		}
	}
	return false
}

// refAPI is the reference: the mock's HTTP semantics (mockserver/api),
// with no limit on a body's size but a generous one, since a server's size
// limit is its own choice (freedom size-limit, judged apart).
var refAPI = api.New(api.Options{MaxBody: 64 << 20})

// unknownRef is a path id that names nothing in the reference.
const unknownRef = "999999999999"

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
		lh, sent = loginBody(wd.form, map[string]any{"email": expandLogin(st.Login[0], wd.acct), "password": expandLogin(st.Login[1], wd.acct)})
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
	case "", "own":
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
	if big {
		// A body over the size limit may be refused for its size, at any
		// point of the order of the checks.
		v.statuses = append(v.statuses, 413)
		v.grant(policy.SizeLimitFreedom)
		v.noField, v.mayName = true, append(v.mayName, "")
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
// (a PUT of the actor's record) or the same (GET platforms, answered
// before this): no create, which would be the other account's.
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
		ov.statuses = slices.DeleteFunc(slices.Clone(ov.statuses), func(s int) bool { return s == 200 })
		ov.accept = nil
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
		path = verdict{statuses: policy.MalformedID.Statuses, anyNames: true, noField: true, rule: "7.2: an id that is no id"}
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

func (wd *world) other(actor string) string {
	if actor == "A" {
		return "B"
	}
	return "A"
}

func (wd *world) serves(v string) bool {
	return slices.Contains(wd.forms, v) || (v == "v1" || v == "v1.0") && len(wd.forms) == 0
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
	if len(errs) == 0 {
		for _, m := range mays.refuse {
			v.alone = append(v.alone, m.field)
		}
		v.statuses, v.accept = []int{200}, wd.acceptOf(s, st, plan)
		if len(mays.refuse) > 0 {
			v.any4xx = true
		}
		return v
	}
	v.statuses = []int{400}
	for _, fe := range errs {
		r, covered := mays.of(fe.FieldName)
		switch {
		case !covered || r.reading == strict:
			v.required = append(v.required, fe.FieldName)
		case r.reading == openRefusal:
			v.any4xx = true
			v.mayName = append(v.mayName, r.field)
			v.grant(policy.UnstatedRefusal)
		case r.reading == silent:
			// Refused by the reference where the spec is silent: any 4xx,
			// or taken (below).
			v.any4xx = true
			v.mayName = append(v.mayName, r.field)
			v.grant(policy.Silent)
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
	// A lenient reading of the body (1.0 read as 1, no terms on an update,
	// a platform beside a hash ignored) that the reference takes: its 200
	// is correct too.
	for _, alt := range mays.alts {
		// The target's own values stay its own in a lenient reading too.
		req := wd.refRequest(s, st, Step{Base: PlainValue(alt.body).(map[string]any)}.Encode())
		if ap := refAPI.ExplainWaiving(s.ref, req, waiving(own)); ap.Accepted() {
			v.statuses = append(v.statuses, 200)
			v.any4xx = true
			v.accept = wd.acceptOf(s, st, ap)
			v.grant(alt.f)
			break
		}
	}
	if len(mays.silent) > 0 {
		// The target may take the values the spec does not judge: the
		// reference adopts that reading, waiving their conditions, and
		// keeping (or the target defaulting) a field left out.
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
			if ap := refAPI.ExplainWaiving(s.ref, wd.refRequest(s, st, alt.Encode()), waiving(paths)); ap.Accepted() && !slices.Contains(v.statuses, 200) {
				v.statuses = append(v.statuses, 200)
				v.accept = wd.acceptOf(s, st, ap)
				v.grant(policy.Silent)
				break
			}
		}
	}
	for _, m := range mays.refuse {
		// A refusal for what a freedom lets a server refuse may name that
		// alone (a duplicate member refused before the fields are read).
		v.alone = append(v.alone, m.field)
	}
	return v
}

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
			if !st.Mutated(e.FieldName) {
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

// readings reads each operator of a step where it meets the reference's
// errors: the spec's code it requires, the freedom it grants.
func (wd *world) readings(st Step, body map[string]any, errs []pricing.FieldError) readingSet {
	var rs readingSet
	var emptyHashes []string // the empty marketapp.hash fields (freedom empty-hash)
	refused := func(path string) bool {
		for _, e := range errs {
			if e.FieldName == path || strings.HasPrefix(e.FieldName, path+".") || strings.HasPrefix(path, e.FieldName+".") {
				return true
			}
		}
		return false
	}
	for _, m := range st.Muts {
		f, ok := fieldOf(st.Op, m.Field)
		if !ok {
			if m.Op == opUnnamedField {
				// A field the spec does not name, as a recording sent it.
				rs.refuse = append(rs.refuse, fieldReading{field: m.Field, reading: mayRefuse, f: policy.UnnamedField})
			}
			continue
		}
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
		if (m.Remove || m.Value == nil && f.kind != kExtension || emptyObject(m.Value)) && !f.optional && !refused(m.Field) {
			// Left out where the mock takes a default: a server may ask
			// for it (2: only what is marked optional may be omitted).
			r.reading, r.f = mayRefuse, policy.OmittedFields
		}
		if f.form && !m.Remove && m.Value != nil {
			// Another postcode, country or VAT number: a server may check
			// them together by the country's form (7.3), so that a 400
			// naming one of them may leave the others unjudged.
			var group []string
			for _, g := range bodyFields(st.Op) {
				if g.form && parentOf(g.path) == parentOf(m.Field) {
					group = append(group, g.path)
				}
			}
			rs.together = append(rs.together, group)
			if !coded && !refused(m.Field) {
				// And refuse any of them, where the reference accepts.
				r.reading, r.f = mayRefuse, policy.UnstatedValidity
				for _, g := range group {
					if g != m.Field {
						rs.refuse = append(rs.refuse, fieldReading{field: g, reading: mayRefuse, f: policy.UnstatedValidity})
					}
				}
			}
		}
		if strings.HasSuffix("."+m.Field, ".marketapp.hash") && (m.Remove || m.Value == nil || m.Value == "") {
			// No hash, or a null one: whether a hash is given decides
			// whether the name and the platform are needed, and a server
			// may judge the three together (the refusal of a null hash
			// standing for the missing name).
			prefix := strings.TrimSuffix(m.Field, "marketapp.hash")
			rs.together = append(rs.together, []string{m.Field, prefix + "name", prefix + "platform.id"})
			if m.Value == "" && !m.Remove {
				// An empty hash: refused as no 40 hexadecimal characters
				// (8), or read as no hash given (4.2), when the name and
				// the platform are needed (freedom empty-hash); adopted,
				// then held.
				r.reading, r.f = silent, policy.EmptyHash
				rs.silent = append(rs.silent, m)
				for _, f := range []string{prefix + "name", prefix + "platform.id"} {
					rs.refuse = append(rs.refuse, fieldReading{field: f, reading: mayRefuse, f: policy.EmptyHash})
				}
				emptyHashes = append(emptyHashes, m.Field)
			}
		}
		if st.Op == OpPutClient && m.Field == "terms" && m.Alt != nil {
			// No terms on an update: a server may not ask for them again.
			r.reading, r.f = mayReadAs, policy.PutClientTerms
		}
		switch r.reading {
		case mayRefuse, silent:
			if !refused(m.Field) {
				rs.refuse = append(rs.refuse, r)
			}
		}
		rs.byPath = append(rs.byPath, r)
	}
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
	if at := besideHash(st.Op, body); at != "" {
		// A platform beside a hash: a server may refuse it, or ignore it
		// whatever it is (4.2: it is used when no hash is given).
		rs.refuse = append(rs.refuse, fieldReading{field: at, reading: mayRefuse, f: policy.PlatformBesideHash})
		ignored := DeepCopy(body).(map[string]any)
		SetPath(ignored, strings.TrimSuffix(at, ".id"), nil, true)
		rs.alts = append(rs.alts, altReading{policy.PlatformBesideHash, ignored})
	}
	if app, where := appOf(st.Op, body); app != nil && neitherHashNorName(app) {
		// Neither a hash nor a name: 7.3 decides the name's refusal; the
		// platform is "used when marketapp.hash is not given" (4.2), and
		// whether a server judges it without a name the spec leaves open.
		prefix := strings.TrimPrefix(where+".", ".")
		rs.unless = append(rs.unless, [2]string{prefix + "platform.id", prefix + "name"})
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
	return rs
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

// parentOf is the path of the object a field is in ("" the body).
func parentOf(path string) string {
	i := strings.LastIndex(path, ".")
	if i < 0 {
		return ""
	}
	return path[:i]
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

// neitherHashNorName reports whether an app body gives neither a
// marketplace hash nor a name.
func neitherHashNorName(app map[string]any) bool {
	m, _ := app["marketapp"].(map[string]any)
	return m["hash"] == nil && app["name"] == nil
}

// besideHash is the path of a platform.id an app body gives beside a
// marketplace hash ("" none).
func besideHash(op Op, body map[string]any) string {
	app, where := appOf(op, body)
	if app == nil {
		return ""
	}
	m, hasHash := app["marketapp"].(map[string]any)
	p, hasPlatform := app["platform"].(map[string]any)
	if !hasHash || m["hash"] == nil || !hasPlatform || p["id"] == nil {
		return ""
	}
	if where != "" {
		where += "."
	}
	return where + "platform.id"
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

// acceptOf is what a 200 does to the reference: the plan's change
// committed, and what the answer must show (nil: the plan refuses).
func (wd *world) acceptOf(s *seqState, st Step, plan api.Plan) func() (*want, error) {
	if !plan.Accepted() {
		return nil
	}
	return func() (*want, error) {
		kept := map[string]string{}
		if st.Op == OpPutClient {
			if before, err := s.ref.Client(s.clientOf(st)); err == nil {
				for field, v := range map[string]*string{"addressLine2": before.AddressLine2, "vat": before.VAT} {
					if _, sent := plan.Body[field]; !sent && v != nil {
						kept[field] = *v
					}
				}
			}
		}
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
			return &want{kind: "user", user: u}, err
		case OpPutClient:
			c, err := s.ref.Client(id)
			return &want{kind: "client", client: c, kept: kept}, err
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

// statusText is the statuses a verdict allows, in words.
func (v verdict) statusText() string {
	var parts []string
	for _, s := range v.statuses {
		parts = append(parts, strconv.Itoa(s))
	}
	if v.any4xx {
		parts = append(parts, "a 4xx")
	}
	return strings.Join(parts, " or ")
}

// freedomsText names the freedoms granted, for a reason line.
func (v verdict) freedomsText() string {
	if len(v.freedoms) == 0 {
		return ""
	}
	return fmt.Sprintf("; freedoms granted: %s", strings.Join(v.freedoms, ", "))
}

// userBody is the body of PUT /users that changes nothing: the user as the
// reference holds it.
func userBody(u pricing.User) map[string]any {
	b := map[string]any{
		"email": u.Email, "firstName": u.FirstName, "lastName": u.LastName,
		"subscribeWelcome": u.SubscribeWelcome, "subscribeBlog": u.SubscribeBlog,
		"subscribeHowto": u.SubscribeHowto, "subscribeOnboarding": u.SubscribeOnboarding,
		"timezone": u.Timezone, "password": nil,
		"phoneCountry": map[string]any{"id": json.Number(strconv.FormatInt(u.PhoneCountryID, 10))}, "phoneNumber": u.PhoneNumber,
		"phoneExtension": nil,
	}
	if u.PhoneExtension != nil {
		b["phoneExtension"] = *u.PhoneExtension
	}
	return b
}

// clientBody is the body of PUT /clients that changes nothing.
func clientBody(c pricing.Client) map[string]any {
	b := map[string]any{
		"name": c.Name, "addressLine1": c.AddressLine1, "addressCity": c.AddressCity,
		"addressPostcode": c.AddressPostcode, "addressCountry": c.AddressCountry,
		"currency": map[string]any{"id": json.Number(strconv.FormatInt(c.CurrencyID, 10))}, "terms": "I agree",
	}
	if c.AddressLine2 != nil {
		b["addressLine2"] = *c.AddressLine2
	}
	if c.VAT != nil {
		b["vat"] = *c.VAT
	}
	return b
}
