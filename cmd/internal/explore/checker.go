package explore

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/steps/match"
)

// The comparison of a 200's body with the entity the reference holds,
// field by field; the first difference is kept.

// matches compares a 200's body with what the reference holds.
func (j judgement) matches(w *want, b gjson.Result, got wireAnswer) *divergence {
	if !b.IsObject() {
		return diverged(policy.CheckEntity, "not-object", "a 200 whose body is no JSON object", expectTyped("@this", "object"))
	}
	c := checker{judgement: j, b: b, adopt: w.adopt, kept: w.kept, nulled: w.nulled, sent: got.sent, received: got.received}
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
	// kept are the optional fields the step left out or sent as null,
	// with the value stored before (want.kept, want.nulled).
	kept   map[string]string
	nulled map[string]bool
	// sent and received: when the step went out and its answer came
	// back, by the runner's clock (zero for a read of the state).
	sent, received time.Time
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
	sameAddress := path == "email" && isString && sameMailbox(got.String(), ws)
	if !sameAddress && !slices.Contains(c.adopt, path) {
		return false
	}
	return c.patch(path, plainJSON(got))
}

// sameMailbox reports whether an email answered is the address sent, as
// a server may read it: its domain in any letter case (RFC 5321 2.4), and
// the whole address in any case where the step sent one's own address in
// capitals (a change of case only, which a server may keep as it was). A
// new address's local part is case-sensitive: stored as sent.
func sameMailbox(got, sent string) bool {
	if !strings.EqualFold(got, sent) {
		return false
	}
	if strings.ToUpper(sent) == sent {
		return true
	}
	i, j := strings.LastIndexByte(got, '@'), strings.LastIndexByte(sent, '@')
	return i >= 0 && j >= 0 && got[:i] == sent[:j]
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
	if c.nulled[path] {
		key += " null"
	}
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
	defer c.k.clockSeen(got.Lo, c.received)
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
		return
	}
	// After the skew: a server whose every date is far off shows there,
	// and a reproducer of the floor would read its login dated off too.
	if d := c.staleEvent(field, v.String(), got, ref); d != "" {
		first := c.d == nil
		c.fail(policy.CheckDate, "date "+field, d, expectValue(expectNoEarlier, field, Of(NamedVar("clock"))))
		if first && c.d != nil {
			c.d.clock = true
		}
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

// user compares a user with the reference's, leaf by leaf of the user
// object's table (mockserver/pricing/fields.go), the phone's after the
// others, with the catalogue's name and dial code.
func (c *checker) user(u pricing.User) {
	if pw := c.b.Get("password"); pw.Exists() && pw.Type != gjson.Null {
		c.fail(policy.CheckPassword, "password", fmt.Sprintf("the user carries a password, %s (2.1: the password is never returned)", match.Describe(pw)), expectAt(expectAbsent, "password"))
	}
	tid := c.id("user", "id", u.ID, false)
	rows := pricing.UserObject.Leaves()
	phone := func(f pricing.Field) int {
		if strings.HasPrefix(f.Path, "phone") {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(rows, func(a, b pricing.Field) int { return phone(a) - phone(b) })
	for _, row := range rows {
		switch row.Path {
		case "id", "phoneCountry.dialCode":
		case "phoneCountry.name":
			c.samePhoneCountry(u.PhoneCountryID)
		default:
			c.sameLeaf("user", tid, row, u)
		}
	}
}

// sameLeaf compares the field at row's path with obj's (the reference's),
// by its Go type: a date as a date, a value optional or null as such, any
// other exactly.
func (c *checker) sameLeaf(kind, tid string, row pricing.Field, obj any) {
	v, _ := leafValue(obj, row.Path)
	switch v := v.(type) {
	case time.Time:
		c.date(kind, tid, row.Path, v)
	case *string:
		if v == nil || row.Optional {
			c.optional(row.Path, v)
		} else {
			c.exact(row.Path, *v)
		}
	case nil:
		// No field of the reference's holds it: TestCheckerReadsEveryLeaf.
	default:
		c.exact(row.Path, v)
	}
}

// samePhoneCountry compares the name and dial code of the user's phone country
// with the catalogue's, or with what the target answered before.
func (c *checker) samePhoneCountry(id int64) {
	nd := c.wd.cat.phoneCountries[id]
	if nd[0] == unknownPhone || nd[0] == "" {
		c.learn(fmt.Sprintf("phoneCountry:%d:name", id), "phoneCountry.name")
		c.learn(fmt.Sprintf("phoneCountry:%d:dialCode", id), "phoneCountry.dialCode")
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
}

// client compares a client with the reference's, leaf by leaf of the
// client object's table, the currency's code with the catalogue's.
func (c *checker) client(cl pricing.Client, fresh bool) {
	tid := c.id("client", "id", cl.ID, fresh)
	for _, row := range pricing.ClientObject.Leaves() {
		switch row.Path {
		case "id":
		case "currency.code":
			c.sameCurrencyCode(cl.CurrencyID)
		default:
			c.sameLeaf("client", tid, row, cl)
		}
	}
}

// sameCurrencyCode compares the code of the client's currency with the
// catalogue's, or with what the target answered before.
func (c *checker) sameCurrencyCode(id int64) {
	code := c.wd.cat.currencies[id]
	if code == unknownCode || code == "" {
		c.learn(fmt.Sprintf("currency:%d:code", id), "currency.code")
	} else if got := c.b.Get("currency.code"); !strings.EqualFold(got.String(), code) || got.Type != gjson.String {
		// Any letter case (policy.CurrencyCode).
		c.fail(policy.CheckField, "field currency.code", fmt.Sprintf("currency.code is %s, the code of currency %d is %s (2.2; %s)", match.Describe(got), id, code, policy.CurrencyCode.ID),
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
// (policy.PlanFlags: a next plan may apply later); needBilling only a
// Boolean, which 2.3 ties to billing details, not to a plan.
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
		lite, pro, dyn, _, ok := planFlags(name)
		if !ok {
			return // a plan whose flags the explorer cannot know
		}
		if [3]bool(got[:3]) == [3]bool{lite, pro, dyn} {
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

// staleEvent judges the date of the step's own event (a new entity, a new
// password) against the target's clock as the run has seen it: every date
// an answer carried names an instant the target had reached when the
// answer arrived, so the target's clock runs at least floor ahead of the
// runner's; the step's event happened after it was sent, so its date is
// no earlier than sent plus floor. One clock, the target's, with no skew
// to allow: an event dated when the server started, or at the last
// password change, shows (policy.Dates). A date the reference made before
// the step was sent is of an earlier event (an entity first read now).
func (c *checker) staleEvent(field, raw string, got match.ISORange, ref time.Time) string {
	// The reference writes its dates to the second.
	if c.sent.IsZero() || ref.Before(c.sent.Truncate(time.Second)) {
		return ""
	}
	floor, ok := c.k.clockFloor()
	if !ok {
		return ""
	}
	// A second for a server that truncates a date written to the
	// millisecond, or rounds it.
	earliest := c.sent.Add(floor).Add(-time.Second)
	if got.Hi.Before(earliest) {
		return fmt.Sprintf("%s is %s, the date of this step's event, yet the target's own dates answered before put its clock past %s when the step was sent (%s earlier): an event dated before it happened",
			field, raw, earliest.Add(time.Second).UTC().Format(time.RFC3339Nano), earliest.Sub(got.Hi).Round(time.Millisecond))
	}
	return ""
}
