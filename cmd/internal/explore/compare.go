package explore

import (
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/steps/match"
)

// answer is the target's answer to one request.
type answer struct {
	status int
	body   []byte
	header http.Header
	err    string
}

// divergence is where a target departs from the reference.
type divergence struct {
	reason string
	// then are the Gherkin lines that assert what the reference answers,
	// after the request that diverged (or after a read of the state).
	then []string
	// read is the read of the state that showed it ("" the step's own
	// answer): the path to GET as account readAs.
	read, readAs string
	// taught is a request sent first, whose answer's value at taughtPath
	// the reproducer remembers as "taught": a value the reference cannot
	// know, which two answers give differently.
	taught     *step
	taughtPath string
}

func diverged(reason string, then ...string) *divergence {
	return &divergence{reason: reason, then: then}
}

var writeKeyRE = regexp.MustCompile(`^[0-9a-fA-F]{32}$`)

// judge compares the target's answer to a step with the reference's
// verdict; on a 200 the reference takes the step too.
func (e *explorer) judge(s *seqState, i int, st step, v verdict, got answer) *divergence {
	if got.status < 0 {
		return diverged("no answer: " + got.err)
	}
	if got.status >= 500 {
		return diverged(fmt.Sprintf("answered %d: no request earns a 5xx; the spec's answer is %s", got.status, v.statusText()), v.statusLine())
	}
	if !v.allows(got.status) {
		return diverged(fmt.Sprintf("answered %d, the spec's answer is %s (%s)", got.status, v.statusText(), v.rule), v.statusLine())
	}
	if d := e.leak(s, st, got.body); d != nil {
		return d
	}
	if got.status != 200 && got.status != 400 {
		return nil
	}
	if !gjson.ValidBytes(got.body) {
		return diverged(fmt.Sprintf("answered %d with a body that is not JSON (1: bodies are JSON)", got.status), "Then the response is JSON")
	}
	if mt, _, _ := mime.ParseMediaType(got.header.Get("Content-Type")); mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return diverged(fmt.Sprintf("answered JSON labelled %q (1: bodies are JSON)", got.header.Get("Content-Type")), "Then the response is JSON")
	}
	if got.status == 400 {
		if st.raw != nil {
			return nil // a body that is no JSON object has no field to name
		}
		return v.errorsDiverge(got.body)
	}
	if v.accept == nil {
		return nil
	}
	w, err := v.accept()
	if err != nil {
		return diverged("the reference could not take the step: " + err.Error())
	}
	return e.matches(s, i, w, gjson.ParseBytes(got.body))
}

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

// statusLine is the suite's phrase for the statuses a verdict allows.
func (v verdict) statusLine() string {
	switch {
	case v.any4xx && slices.Contains(v.statuses, 200):
		return "Then the response status is 200 or 4xx but not 401"
	case v.any4xx:
		return "Then the response status is 4xx but not 401"
	case len(v.statuses) == 1:
		return fmt.Sprintf("Then the response status is %d", v.statuses[0])
	case len(v.statuses) == 2:
		return fmt.Sprintf("Then the response status is %d or %d", v.statuses[0], v.statuses[1])
	}
	return "Then the response status is 4xx"
}

// errorsDiverge compares a 400's array with the fields the reference
// names: each offending field named, no valid one (7.1), with the code of
// 7.3 where it names one.
func (v verdict) errorsDiverge(body []byte) *divergence {
	fields, codes, why := errorsOf(body, v.noField)
	if why != "" {
		lines := []string{`Then the response matches the shape "errors"`}
		var i int
		var key string
		if _, err := fmt.Sscanf(why, "element %d of the errors has the %s", &i, &key); err == nil {
			if key == "fieldName" && v.noField {
				lines = append(lines, fmt.Sprintf(`And the JSON at "%d.%s" is a string`, i, key))
			} else {
				lines = append(lines, fmt.Sprintf(`And the JSON at "%d.%s" matches the pattern "\\S"`, i, key))
			}
		}
		return diverged(why, lines...)
	}
	if v.anyNames {
		return nil
	}
	var missing, wrong []string
	for _, f := range v.fields {
		if !slices.Contains(fields, f) {
			missing = append(missing, f)
		}
	}
	for _, f := range fields {
		if !slices.Contains(v.fields, f) && !v.mayName(f) {
			wrong = append(wrong, f)
		}
	}
	if len(missing) > 0 || len(wrong) > 0 {
		reason := fmt.Sprintf("the errors name %q, the offending fields are %q (7.1: each offending field named, no valid one)", fields, v.fields)
		if len(v.extra) == 0 {
			return diverged(reason, nameOnly(v.fields)...)
		}
		var lines []string
		for _, f := range missing {
			lines = append(lines, fmt.Sprintf("Then the errors name the field %q", f))
		}
		for _, f := range wrong {
			lines = append(lines, fmt.Sprintf(`Then the JSON at "#(fieldName==%q)" is absent`, f))
		}
		return diverged(reason, lines...)
	}
	for _, c := range v.codes {
		if !slices.Contains(codes, c) {
			f, code, _ := strings.Cut(c, "=")
			return diverged(fmt.Sprintf("the error of %s is not %s (7.3)", f, code),
				fmt.Sprintf("Then the errors include the code %q for the field %q", code, f))
		}
	}
	return nil
}

func nameOnly(fields []string) []string {
	var lines []string
	for _, f := range fields {
		lines = append(lines, fmt.Sprintf("Then the errors name the field %q", f))
	}
	if len(fields) == 0 {
		return lines
	}
	q := make([]string, len(fields))
	for i, f := range fields {
		q[i] = strconv.Quote(f)
	}
	switch len(q) {
	case 1:
		return append(lines, "And the errors name only the field "+q[0])
	case 2:
		return append(lines, "And the errors name only the fields "+q[0]+" and "+q[1])
	}
	return append(lines, "And the errors name only the fields "+strings.Join(q[:len(q)-1], ", ")+" and "+q[len(q)-1])
}

// leak: no answer carries a password, in clear or in any hash form (2.1).
func (e *explorer) leak(s *seqState, st step, body []byte) *divergence {
	if len(body) == 0 {
		return nil
	}
	pws := []string{e.acct["A"].password, e.acct["B"].password, s.password["A"], s.password["B"]}
	if p, ok := st.body["password"].(string); ok {
		pws = append(pws, p)
	}
	if st.op == opLogin {
		pws = append(pws, st.login[1])
	}
	known := match.SentStrings([]byte(st.jsonBody()))
	known = append(known, st.login[0], s.user("A").Email, s.user("B").Email)
	for _, pw := range slices.Compact(pws) {
		if len(pw) < 6 {
			continue
		}
		if where := match.PasswordIn(body, pw, known...); where != "" {
			return diverged(fmt.Sprintf("the answer carries the password (%s; 2.1: the password is never returned)", where),
				fmt.Sprintf("Then the response does not carry the password %q", pw))
		}
	}
	return nil
}

// matches compares a 200's body with what the reference holds.
func (e *explorer) matches(s *seqState, i int, w *want, b gjson.Result) *divergence {
	if !b.IsObject() {
		return diverged("a 200 whose body is no JSON object", `Then the JSON at "@this" is an object`)
	}
	c := checker{e: e, s: s, i: i, b: b}
	switch w.kind {
	case "user":
		c.user(w.user)
	case "client":
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
	e       *explorer
	s       *seqState
	i       int
	b       gjson.Result
	d       *divergence
	reading bool // the answer is a read of the state, not the step's own
}

func (c *checker) fail(reason string, then ...string) {
	if c.d == nil {
		c.d = diverged(reason, then...)
	}
}

func (c *checker) exact(path string, want any) {
	got := c.b.Get(path)
	wantJSON := jsonOf(want)
	if !got.Exists() || !match.JSONEqual(got, gjson.Parse(wantJSON)) {
		c.fail(fmt.Sprintf("%s is %s, the reference's %s", path, describe(got), wantJSON), fmt.Sprintf("Then the JSON at %q is %s", path, wantJSON))
	}
}

// optional: a value the spec lets the answer leave out; null stands for none.
func (c *checker) optional(path string, want *string) {
	got := c.b.Get(path)
	if !got.Exists() {
		return
	}
	if want == nil {
		if got.Type != gjson.Null {
			c.fail(fmt.Sprintf("%s is %s, the reference holds none", path, describe(got)), fmt.Sprintf("Then the JSON at %q is null", path))
		}
		return
	}
	c.exact(path, *want)
}

// describe shows a value briefly, as the suite's steps do.
func describe(v gjson.Result) string { return match.Describe(v) }

func jsonOf(v any) string {
	s := match.JSONString(fmt.Sprint(v))
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case nil:
		return "null"
	case string:
		return s
	}
	return fmt.Sprint(v)
}

// id compares an id by identity: the same entity has the same id, two
// entities never share one.
func (c *checker) id(kind string, path string, ref int64, fresh bool) int64 {
	v := c.b.Get(path)
	if v.Type != gjson.Number || v.Raw != strconv.FormatInt(v.Int(), 10) {
		c.fail(fmt.Sprintf("%s is %s, not a whole number (2: ids are Numbers)", path, describe(v)), fmt.Sprintf("Then the JSON at %q is a number", path))
		return 0
	}
	tid := v.Int()
	s, e := c.s, c.e
	if t, ok := s.ids[kind][ref]; ok {
		if t != tid {
			c.fail(fmt.Sprintf("%s is %d: the same %s was answered with the id %d before", path, tid, kind, t), c.idLine(path, kind, t, "is"))
		}
		return tid
	}
	if r, ok := s.rids[kind][tid]; ok && r != ref {
		c.fail(fmt.Sprintf("%s is %d, the id of another %s of this sequence", path, tid, kind), c.idLine(path, kind, tid, "differs from"))
		return tid
	}
	e.mu.Lock()
	where, seen := e.seen[kind+":"+strconv.FormatInt(tid, 10)]
	if !seen {
		e.seen[kind+":"+strconv.FormatInt(tid, 10)] = fmt.Sprintf("sequence %d, step %d", s.n, c.i+1)
	}
	e.mu.Unlock()
	if fresh && seen {
		c.fail(fmt.Sprintf("%s is %d, the id of another %s (%s)", path, tid, kind, where), fmt.Sprintf("Then the JSON at %q differs from %d", path, tid))
	}
	s.bind(kind, ref, tid, c.i)
	return tid
}

// idLine asserts an id against the one a step of the sequence answered.
func (c *checker) idLine(path, kind string, tid int64, verb string) string {
	if at, ok := c.s.idStep[kind+":"+strconv.FormatInt(tid, 10)]; ok && at >= 0 {
		return fmt.Sprintf("Then the JSON at %q %s {{%s}}", path, verb, rememberName(at, "id"))
	}
	return fmt.Sprintf("Then the JSON at %q %s %d", path, verb, tid)
}

func (s *seqState) bind(kind string, ref, tid int64, at int) {
	if s.ids[kind] == nil {
		s.ids[kind], s.rids[kind] = map[int64]int64{}, map[int64]int64{}
	}
	s.ids[kind][ref], s.rids[kind][tid] = tid, ref
	if _, ok := s.idStep[kind+":"+strconv.FormatInt(tid, 10)]; !ok {
		s.idStep[kind+":"+strconv.FormatInt(tid, 10)] = at
	}
}

// date compares a date as the instant it names: a date the reference made
// now is within the clock skew of the reference's clock; a date answered
// before names the same instant again.
func (c *checker) date(kind string, tid int64, field string, ref time.Time) {
	v := c.b.Get(field)
	if v.Type != gjson.String || !match.IsISO8601(v.String()) {
		c.fail(fmt.Sprintf("%s is %s, not an ISO 8601 date (1)", field, describe(v)), fmt.Sprintf("Then the JSON at %q matches the pattern %q", field, `^\d{4}-?\d{2}-?\d{2}`))
		return
	}
	got, _ := match.ParseISORange(v.String())
	if !ref.Equal(unknownDate) && c.e.seedDate(ref) {
		// A date the target showed when the run began (an account's):
		// nothing the reference did moved it.
		if ref.Before(got.Lo.Add(-time.Second)) || ref.After(got.Hi.Add(time.Second)) {
			was := ref.UTC().Format(time.RFC3339Nano)
			c.fail(fmt.Sprintf("%s is %s; it was %s and nothing the spec names moved it", field, v.String(), was),
				fmt.Sprintf("Then the JSON at %q names the same instant as %q", field, was))
		}
		return
	}
	key := fmt.Sprintf("%s:%d:%s:%d", kind, tid, field, ref.Unix())
	e := c.e
	e.mu.Lock()
	prev, known := e.learned[key]
	if !known {
		e.learned[key] = learnedValue{raw: v.String(), step: fmt.Sprintf("sequence %d, step %d", c.s.n, c.i+1)}
		c.s.dateStep[key] = c.i
	}
	e.mu.Unlock()
	if known {
		p, _ := match.ParseISORange(prev.raw)
		if !(got.Lo.Before(p.Hi) && p.Lo.Before(got.Hi)) {
			line := fmt.Sprintf("Then the JSON at %q names the same instant as %q", field, prev.raw)
			if at, ok := c.s.dateStep[key]; ok {
				line = fmt.Sprintf("Then the JSON at %q names the same instant as \"{{%s}}\"", field, rememberName(at, field))
			}
			c.fail(fmt.Sprintf("%s is %s; the same %s answered %s before (%s) and nothing changed it", field, v.String(), kind, prev.raw, prev.step), line)
		}
		return
	}
	if ref.Equal(unknownDate) {
		return
	}
	if ref.Before(got.Lo.Add(-e.skew)) || ref.After(got.Hi.Add(e.skew)) {
		c.fail(fmt.Sprintf("%s is %s, %s from the runner's clock (%s) beyond the clock skew %s: a date of an event that just happened",
			field, v.String(), ref.Sub(got.Lo).Round(time.Second), ref.Format(time.RFC3339), e.skew),
			fmt.Sprintf("Then the JSON at %q names an instant within the clock skew of now", field))
	}
}

// seedDate reports whether a date the reference holds is one the target
// showed when the sequence began (an account's), not one of now.
func (e *explorer) seedDate(d time.Time) bool {
	for _, a := range e.acct {
		if d.Equal(a.user.Created) || d.Equal(a.user.PasswordLastChanged) || d.Equal(a.clientSeed.CreatedDate) {
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
		c.fail(fmt.Sprintf("%s is absent", path), fmt.Sprintf("Then the JSON at %q is present", path))
		return
	}
	e := c.e
	e.mu.Lock()
	prev, known := e.learned[key]
	if !known {
		lv := learnedValue{raw: v.Raw, step: fmt.Sprintf("sequence %d, step %d", c.s.n, c.i+1)}
		if !c.reading && c.i < len(c.s.steps) {
			taught := c.s.steps[c.i]
			lv.taught = &taught
		}
		e.learned[key] = lv
	}
	e.mu.Unlock()
	if known && !match.JSONEqual(v, gjson.Parse(prev.raw)) {
		c.fail(fmt.Sprintf("%s is %s, the target answered %s for the same %s before (%s)", path, describe(v), prev.raw, key, prev.step),
			fmt.Sprintf("Then the JSON at %q is %s", path, prev.raw))
		if prev.taught != nil && !strings.Contains(prev.taught.gpath, "{{step") && c.d != nil && c.d.taught == nil {
			// Both answers in the reproducer: the one that taught the
			// value, then this one, which must agree with it.
			want := "{{taught}}"
			if strings.HasPrefix(prev.raw, `"`) {
				want = `"{{taught}}"`
			}
			c.d.then = []string{fmt.Sprintf("Then the JSON at %q is %s", path, want)}
			c.d.taught, c.d.taughtPath = prev.taught, path
		}
	}
}

func (c *checker) user(u pricing.User) {
	if pw := c.b.Get("password"); pw.Exists() && pw.Type != gjson.Null {
		c.fail(fmt.Sprintf("the user carries a password, %s (2.1: the password is never returned)", describe(pw)), `Then the JSON at "password" is absent`)
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
	nd := c.e.cat.phoneCountries[u.PhoneCountryID]
	if nd[0] == unknownPhone {
		c.learn(fmt.Sprintf("phoneCountry:%d:name", u.PhoneCountryID), "phoneCountry.name")
		c.learn(fmt.Sprintf("phoneCountry:%d:dialCode", u.PhoneCountryID), "phoneCountry.dialCode")
	} else {
		c.exact("phoneCountry.name", nd[0])
		c.exact("phoneCountry.dialCode", nd[1])
	}
	name, dial := c.b.Get("phoneCountry.name").String(), c.b.Get("phoneCountry.dialCode").String()
	if !strings.HasPrefix(dial, "+") || !strings.Contains(name, "("+dial+")") {
		c.fail(fmt.Sprintf("phoneCountry is %s: 2.1 wants the dial code with a leading plus, in brackets in the name", describe(c.b.Get("phoneCountry"))),
			`Then the JSON at "phoneCountry.dialCode" matches the pattern "^\+"`)
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
	code := c.e.cat.currencies[cl.CurrencyID]
	if code == unknownCode || code == "" {
		c.learn(fmt.Sprintf("currency:%d:code", cl.CurrencyID), "currency.code")
	} else if got := c.b.Get("currency.code"); !strings.EqualFold(got.String(), code) || got.Type != gjson.String {
		c.fail(fmt.Sprintf("currency.code is %s, the code of currency %d is %s (2.2)", describe(got), cl.CurrencyID, code),
			fmt.Sprintf("Then the JSON at \"currency.code\" matches the pattern \"(?i)^%s$\"", code))
	}
}

func (c *checker) app(a pricing.App) {
	tid := c.id("app", "id", a.ID, true)
	c.date("app", tid, "created", a.Created)
	if a.MarketappHash != nil {
		c.learn("marketapp:"+*a.MarketappHash+":name", "name")
		c.learn("marketapp:"+*a.MarketappHash+":platform", "platform.id")
		if got := c.b.Get("marketapp.hash"); !strings.EqualFold(got.String(), *a.MarketappHash) {
			c.fail(fmt.Sprintf("marketapp.hash is %s, the app was made from %s", describe(got), *a.MarketappHash),
				fmt.Sprintf("Then the JSON at \"marketapp.hash\" matches the pattern \"(?i)^%s$\"", *a.MarketappHash))
		}
	} else {
		c.exact("name", a.Name)
		c.exact("platform.id", a.PlatformID)
	}
	pid := c.b.Get("platform.id").Int()
	if name, ok := c.e.cat.platforms[pid]; ok && name != unknownName {
		c.exact("platform.name", name)
	}
	wk := c.b.Get("writeKey")
	if !writeKeyRE.MatchString(wk.String()) {
		c.fail(fmt.Sprintf("writeKey is %s, not 32 hexadecimal characters (2.3)", describe(wk)), `Then the JSON at "writeKey" matches the pattern "^[0-9a-fA-F]{32}$"`)
	} else {
		c.e.mu.Lock()
		where, seen := c.e.seen["writeKey:"+strings.ToLower(wk.String())]
		c.e.seen["writeKey:"+strings.ToLower(wk.String())] = fmt.Sprintf("sequence %d, step %d", c.s.n, c.i+1)
		c.e.mu.Unlock()
		if seen {
			c.fail(fmt.Sprintf("writeKey %s is the write key of another app (%s)", wk.String(), where), fmt.Sprintf("Then the JSON at \"writeKey\" differs from %q", wk.String()))
		}
	}
	c.planFlags()
}

// planFlags: the flags an app answers are those of a plan of the
// catalogue (which one is a choice: a next plan may apply later).
func (c *checker) planFlags() {
	var got [4]bool
	for i, k := range []string{"isLite", "isPro", "isDynamic", "needBilling"} {
		v := c.b.Get("plan." + k)
		if !v.IsBool() {
			c.fail(fmt.Sprintf("plan.%s is %s, not a Boolean (2.3)", k, describe(v)), fmt.Sprintf("Then the JSON at %q is a boolean", "plan."+k))
			return
		}
		got[i] = v.Bool()
	}
	for _, name := range c.e.cat.plans {
		lite, pro, dyn, billing, ok := planFlags(name)
		if !ok {
			return // a plan whose flags the explorer cannot know
		}
		if got == [4]bool{lite, pro, dyn, billing} {
			return
		}
	}
	c.fail(fmt.Sprintf("plan is %s, the flags of no plan of the catalogue", c.b.Get("plan").Raw), `Then the JSON at "plan.isLite" differs from `+strconv.FormatBool(got[0]))
}

func (c *checker) session(sess pricing.Session) {
	c.id("user", "userId", sess.UserID, false)
	c.id("user", "creatorUserId", sess.CreatorUserID, false)
	id := c.b.Get("id")
	if id.Type != gjson.Number {
		c.fail(fmt.Sprintf("id is %s, not a number (2.4)", describe(id)), `Then the JSON at "id" is a number`)
	}
	u, _ := c.s.ref.User(sess.UserID)
	cid := c.b.Get("clientId")
	ok := false
	for _, ref := range u.ClientIDs {
		if t, bound := c.s.ids["client"][ref]; bound && cid.Type == gjson.Number && t == cid.Int() {
			ok = true
		}
	}
	if !ok {
		c.fail(fmt.Sprintf("clientId is %s, no client of the user", describe(cid)), `Then the JSON at "clientId" is {{`+c.s.actorOf(sess.UserID)+`.clientId}}`)
	}
	tok := c.b.Get("token")
	if tok.Type != gjson.String || tok.String() == "" {
		c.fail(fmt.Sprintf("token is %s, not a string (2.4)", describe(tok)), `Then the JSON at "token" is a string`)
		return
	}
	actor := c.s.actorOf(sess.UserID)
	c.e.mu.Lock()
	owner, seen := c.e.tokens[tok.String()]
	c.e.tokens[tok.String()] = actor
	c.e.mu.Unlock()
	if seen && owner != actor {
		c.fail(fmt.Sprintf("token is the token of account %s, answered to account %s", owner, actor), `Then the JSON at "token" differs from "`+tok.String()+`"`)
		return
	}
	if !seen {
		// A new session is dated now; a login may also answer the
		// session the user already has (its lifetime is not shown).
		c.date("session", id.Int(), "created", sess.Created)
	}
	c.s.tok[actor], c.s.tokStep[actor] = tok.String(), c.i
}

func (s *seqState) actorOf(userID int64) string {
	for name, id := range s.acctIDs {
		if id[0] == userID {
			return name
		}
	}
	return "A"
}

func (c *checker) platforms() {
	list := c.b.Get("platforms")
	if !list.IsArray() {
		c.fail(fmt.Sprintf("platforms is %s, not an array in a wrapper object (2.5)", describe(list)), `Then the JSON at "platforms" is an array`)
		return
	}
	for id, name := range c.e.cat.platforms {
		item := list.Get(fmt.Sprintf("#(id==%d)", id))
		if !item.Exists() {
			c.fail(fmt.Sprintf("the platforms collection has no platform %d", id), fmt.Sprintf("Then the JSON at \"platforms.#(id==%d)\" is present", id))
			return
		}
		if n := item.Get("name"); n.Exists() && name != unknownName && n.String() != name {
			c.fail(fmt.Sprintf("platform %d is named %s, not %s", id, n.Raw, name), fmt.Sprintf("Then the JSON at \"platforms.#(id==%d).name\" is %q", id, name))
		}
	}
}

// rememberName is the variable a reproducer remembers a value of step at
// under.
func rememberName(at int, field string) string {
	return fmt.Sprintf("step%d.%s", at+1, strings.ReplaceAll(field, ".", "_"))
}
