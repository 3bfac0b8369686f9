package explore

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

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
	// unboundApps are the apps the reference made whose answer showed no
	// id (an app with its client), which a list of the caller's apps
	// cannot tell apart: no list may show more new apps than these.
	unboundApps map[int64]bool
	steps       []Step
	status      []int
	cur         int // the step being judged
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
		posted: map[string][]posted{}, unbindable: map[int64]bool{}, unboundApps: map[int64]bool{}, pwEpoch: map[int64]int{}, apiKeys: map[string]string{},
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
	// later are fields a 400 may leave unnamed where it names a field
	// whose own value is refused (offending): an id that names no entry of
	// a catalogue, a member needed for want of another (an app's name
	// without a hash), which a server may judge once the values given are
	// valid (freedom check-order).
	later []string
	// offending are the fields whose own value, as the step changed it, is
	// refused: naming one, a 400 may leave the later ones unnamed.
	offending []string
	// adopt are the fields whose value in a 200 is the target's to choose
	// (readingSet.adopt): the reference takes what it answers.
	adopt []string
	// heldKey names the kind of input and its place, where the step's one
	// change is a value no sentence of the spec judges: the target's
	// answer is held there for the run (judgement.hold); heldField is the
	// field.
	heldKey, heldField string
	// bound: the verdict takes a refusal of the create for the target's
	// bound on what an account keeps (freedom bounds), which names no
	// field of the body, as the suite's does (target.CreateBound); a
	// refusal that names one is judged as the reference reads the body.
	bound bool
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
	// nulled are the fields of kept the body sent as null rather than
	// leaving them out: a reading of its own, held apart.
	nulled map[string]bool
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
	v.later = append(v.later, o.later...)
	v.offending = append(v.offending, o.offending...)
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

// unknownRef is a path id that names nothing in the reference.
const unknownRef = "999999999999"

func (wd *world) other(actor string) string {
	if actor == "A" {
		return "B"
	}
	return "A"
}

func (wd *world) serves(v string) bool {
	return slices.Contains(wd.forms, v) || (v == "v1" || v == "v1.0") && len(wd.forms) == 0
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

// keptOf is what a PUT leaves out of the optional fields it replaces (the
// rows of its body's table marked so), which the reference clears and a
// server may keep (policy.OmittedOptional): the value stored before, and
// whether the body sent null for it.
func keptOf(s *seqState, st Step, plan api.Plan) (kept map[string]string, nulled map[string]bool) {
	kept, nulled = map[string]string{}, map[string]bool{}
	var tb *pricing.Table
	var before any
	var err error
	switch st.Op {
	case OpPutUser:
		tb = pricing.UserBody
		before, err = s.ref.User(plan.Caller)
	case OpPutClient:
		tb = pricing.ClientBody
		before, err = s.ref.Client(s.clientOf(st))
	default:
		return kept, nulled
	}
	if err != nil {
		return kept, nulled
	}
	for _, row := range tb.Leaves() {
		if !row.Optional || row.Put != pricing.PutReplaces || strings.Contains(row.Path, ".") {
			continue
		}
		v, _ := leafValue(before, row.Path)
		// Left out, or null, which a server may read as left out (2: the
		// field is optional).
		if was, _ := v.(*string); was != nil {
			if sent, ok := plan.Body[row.Path]; !ok || sent == nil {
				kept[row.Path], nulled[row.Path] = *was, ok
			}
		}
	}
	return kept, nulled
}

// userBody is the body of PUT /users that changes nothing: the user as the
// reference holds it.
func userBody(u pricing.User) map[string]any { return unchangedBody(pricing.UserBody, u) }

// clientBody is the body of PUT /clients that changes nothing; it carries
// the terms, which are not stored (4.4).
func clientBody(c pricing.Client) map[string]any {
	b := unchangedBody(pricing.ClientBody, c)
	b["terms"] = "I agree"
	return b
}

// unchangedBody is the body of a PUT that changes nothing: every leaf of
// tb a PUT stores, with obj's value (the reference's user or client, by
// leafValue); null where null keeps it (the password), an optional value
// without one left out, any other null, an id as a JSON number.
func unchangedBody(tb *pricing.Table, obj any) map[string]any {
	b := map[string]any{}
	for _, row := range tb.Leaves() {
		v, ok := leafValue(obj, row.Path)
		if !row.Stored() || !ok && row.Put != pricing.PutNullKeeps {
			continue
		}
		at, names := b, strings.Split(row.Path, ".")
		for _, name := range names[:len(names)-1] {
			o, _ := at[name].(map[string]any)
			if o == nil {
				o = map[string]any{}
				at[name] = o
			}
			at = o
		}
		name := names[len(names)-1]
		switch v := v.(type) {
		case *string:
			if v != nil {
				at[name] = *v
			} else if !row.Optional {
				at[name] = nil
			}
		case int64:
			at[name] = json.Number(strconv.FormatInt(v, 10))
		default:
			at[name] = v
		}
		if row.Put == pricing.PutNullKeeps {
			at[name] = nil
		}
	}
	return b
}

// refAPI is the reference: the mock's HTTP semantics (mockserver/api),
// with no limit on a body's size but a generous one, since a server's size
// limit is its own choice (freedom size-limit, judged apart).
var refAPI = api.New(api.Options{MaxBody: 64 << 20})
