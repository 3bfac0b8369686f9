package explore

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
)

// A generator of one pair: its random source and what it draws from (the
// accounts, the unique words, the templates of a login, the paths and
// versions, the bodies of new entities).

// generator draws the steps of one pair's sequences.
type generator struct {
	wd       *world
	r        *rand.Rand
	coverage *coverage
	cells    []Cell
	counter  *atomic.Int64 // the run's unique words
	// mint records a unique word the generator made (knowledge.minted).
	mint    func(string)
	pending *Cell // a cell whose setup step came first
	// only is the one account of a lane's sequences ("" both): it draws
	// no cell that reaches the other account's resources (crossCell).
	only       string
	crossCells []Cell
}

// cross are the generator's cells that reach the other account.
func (g *generator) cross() []Cell {
	if g.crossCells == nil {
		for _, c := range g.cells {
			if crossCell(c) {
				g.crossCells = append(g.crossCells, c)
			}
		}
	}
	if len(g.crossCells) == 0 {
		return g.cells
	}
	return g.crossCells
}

// actor is the account of a step: the lane's, or either.
func (g *generator) actor() string {
	if g.only != "" {
		return g.only
	}
	return []string{"A", "B"}[g.r.IntN(2)]
}

// unique is a word no other draw of the run makes: four letters and a
// counter, so that two pairs never ask for one new email at once.
func (g *generator) unique() string {
	var b strings.Builder
	for i := 0; i < 4; i++ {
		b.WriteByte(byte('a' + g.r.IntN(26)))
	}
	b.WriteString(strconv.FormatInt(g.counter.Add(1), 36))
	if g.mint != nil {
		g.mint(b.String())
	}
	return b.String()
}

// emailTemplate and passwordTemplate are an account's credentials now, as
// a login writes them: the profile's as its placeholders.
func (g *generator) emailTemplate(s *seqState, actor string) string {
	if e := s.user(actor).Email; e != g.wd.acct[actor].email {
		return e
	}
	return "{{" + actor + ".email}}"
}

func (g *generator) passwordTemplate(s *seqState, actor string) string {
	if pw := s.password[actor]; pw != g.wd.acct[actor].password {
		return pw
	}
	return "{{" + actor + ".password}}"
}

// accounts are the accounts a generator's steps act as.
func (g *generator) accounts() []string {
	if g.only != "" {
		return []string{g.only}
	}
	return []string{"A", "B"}
}

// any reports whether one of the generator's accounts holds.
func (g *generator) any(f func(string) bool) bool {
	for _, a := range g.accounts() {
		if f(a) {
			return true
		}
	}
	return false
}

func (g *generator) madeClient(s *seqState) bool {
	return g.any(func(a string) bool { _, ok := s.created(a); return ok })
}

func (g *generator) emailChanged(s *seqState) bool {
	return g.any(func(a string) bool { return s.user(a).Email != g.wd.acct[a].email })
}

func (g *generator) longPassword(s *seqState) bool {
	return g.any(func(a string) bool { return len(s.password[a]) > 72 })
}

func (g *generator) passwordChanged(s *seqState) bool {
	return g.any(func(a string) bool { return s.password[a] != g.wd.acct[a].password })
}

// changedActor is an account whose email (or password) a setup changed.
func (g *generator) changedActor(s *seqState, changed func(string) bool, fallback string) string {
	for _, a := range g.accounts() {
		if changed(a) {
			return a
		}
	}
	return fallback
}

// pathID is the literal id a path operator sends.
func (g *generator) pathID(s *seqState, st *Step) {
	kind, who := "user", st.Actor
	if st.Op == OpPutClient {
		kind = "client"
	}
	own := s.ids[kind][refID(who)]
	switch st.Path {
	case "unknown":
		st.PathID = "999999999"
	case "neighbour":
		st.PathID = addOne(own)
	case "zero":
		st.PathID = "0"
	case "negative":
		st.PathID = "-1"
	case "decimal":
		st.PathID = own + ".5"
	case "letters":
		st.PathID = "abc"
	case "past-int64":
		st.PathID = "99999999999999999999"
	case "leading-zero":
		st.PathID = "0" + own
	case "created":
		if _, ok := s.created(st.Actor); !ok {
			st.Path = "own"
		}
	}
}

// addOne is a decimal id plus one, exactly, whatever its size.
func addOne(id string) string {
	b := []byte(id)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '0' || b[i] > '9' {
			return id + "1"
		}
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// version is the version segment a version operator sends.
func (g *generator) version(op string) string {
	if op == "unknown-version" {
		// Another major version: a later minor one (v1.1) is backwards
		// compatible with v1 (9), and a server may serve it as v1.
		return []string{"v2", "v3", "v0"}[g.r.IntN(3)]
	}
	own := g.wd.p.BaseURL[strings.LastIndexByte(g.wd.p.BaseURL, '/')+1:]
	for _, f := range g.wd.forms {
		if f != own {
			return f
		}
	}
	return ""
}

// login draws a login's email or password operator.
func (g *generator) login(s *seqState, st *Step, pos, op string) {
	a, other := st.Actor, g.wd.other(st.Actor)
	switch op {
	case "login-email-case":
		st.Login[0] = "{{upper:" + a + ".email}}"
		if e := s.user(a).Email; e != g.wd.acct[a].email {
			st.Login[0] = strings.ToUpper(e)
		}
	case "login-email-plus":
		st.Login[0] = strings.Replace(expandLogin(st.Login[0], g.wd.acct), "@", "+x@", 1)
	case "login-email-extended":
		st.Login[0] += "x"
	case "login-email-other-account":
		st.Login[0] = g.emailTemplate(s, other)
	case "login-email-unknown":
		st.Login[0] = "contract-" + g.unique() + "@" + g.wd.domain
	case "login-email-before-change":
		a = g.changedActor(s, func(x string) bool { return s.user(x).Email != g.wd.acct[x].email }, a)
		st.Actor = a
		st.Login = [2]string{"{{" + a + ".email}}", g.passwordTemplate(s, a)}
	case "login-email-after-change":
		a = g.changedActor(s, func(x string) bool { return s.user(x).Email != g.wd.acct[x].email }, a)
		st.Actor = a
		st.Login = [2]string{g.emailTemplate(s, a), g.passwordTemplate(s, a)}
	case "login-email-empty":
		st.Login[0] = ""
	case "login-email-absent":
		st.Login[0] = loginLeftOut
	case "login-password-extended":
		st.Login[1] += "x"
	case "login-password-prefixed":
		st.Login[1] = "x" + st.Login[1]
	case "login-password-upper-case":
		if strings.HasPrefix(st.Login[1], "{{") {
			st.Login[1] = "{{upper:" + a + ".password}}"
		} else {
			st.Login[1] = strings.ToUpper(st.Login[1])
		}
	case "login-password-trailing-space":
		st.Login[1] += " "
	case "login-password-other-account":
		st.Login[1] = g.passwordTemplate(s, other)
	case "login-password-72-byte-prefix":
		a = g.changedActor(s, func(x string) bool { return len(s.password[x]) > 72 }, a)
		st.Actor = a
		pw := s.password[a]
		if len(pw) > 72 {
			pw = pw[:72]
		}
		st.Login = [2]string{g.emailTemplate(s, a), pw + "-other"}
	case "login-password-sql":
		st.Login[1] = "' OR '1'='1"
	case "login-password-empty":
		st.Login[1] = ""
	case "login-password-absent":
		st.Login[1] = loginLeftOut
	case "login-password-null":
		st.Login[1] = loginNull
	case "login-password-new":
		a = g.changedActor(s, func(x string) bool { return s.password[x] != g.wd.acct[x].password }, a)
		st.Actor = a
		st.Login = [2]string{g.emailTemplate(s, a), g.passwordTemplate(s, a)}
	case "login-password-before-change":
		a = g.changedActor(s, func(x string) bool { return s.password[x] != g.wd.acct[x].password }, a)
		st.Actor = a
		st.Login = [2]string{g.emailTemplate(s, a), "{{" + a + ".password}}"}
	}
}

// newClientBody is a valid body of POST /clients, with an app or not.
func (g *generator) newClientBody(withApp bool) map[string]any {
	p := g.wd.p
	b := map[string]any{
		"name": "contract-" + g.unique(), "addressLine1": p.MustValue("address_line1"), "addressLine2": p.MustValue("address_line2"),
		"addressCity": p.MustValue("address_city"), "addressPostcode": p.MustValue("address_postcode"),
		"addressCountry": p.MustValue("address_country"), "vat": p.MustValue("vat"),
		"currency": map[string]any{"id": json.Number(strconv.FormatInt(g.wd.cat.currencyID, 10))}, "terms": "I agree",
	}
	if withApp {
		b["app"] = g.newAppBody((g.wd.byHash || g.wd.hashOnce) && g.r.IntN(2) == 0)
	}
	return b
}

// newAppBody is a valid body of POST /apps: from the profile's marketplace
// app, or from a name and a platform.
// batchAppBody is the body of an app a batch makes at once with another:
// from the profile's marketplace app alone (its name and platform null)
// where a marketplace app may have several apps, so that a target that
// makes apps only from a store takes both and their ids can race; by name
// elsewhere. A name or platform beside the hash a server may refuse
// (freedom platform-beside-hash), which would leave no race to see.
func (g *generator) batchAppBody() map[string]any {
	b := g.newAppBody(false)
	// Where a marketplace app has one app, a client's second is refused
	// (the batch's MayRefuse); the two clients' first are both taken.
	if g.wd.byHash || g.wd.hashOnce {
		b["marketapp"] = map[string]any{"hash": g.wd.cat.hash}
		b["name"], b["platform"] = nil, map[string]any{"id": nil}
	}
	return b
}

func (g *generator) newAppBody(byHash bool) map[string]any {
	ids := g.wd.cat.ids()
	pick := func(list []int64) json.Number {
		return json.Number(strconv.FormatInt(list[g.r.IntN(len(list))], 10))
	}
	// Every field of the body table, none being marked optional (2): a
	// server may ask for each. "None" is written as the table allows it:
	// a null name and platform id beside a hash, a marketplace app with no
	// hash beside a name.
	b := map[string]any{"nextplan": map[string]any{"id": pick(ids["plans"])}}
	if byHash {
		b["marketapp"] = map[string]any{"hash": g.wd.cat.hash}
		b["name"], b["platform"] = nil, map[string]any{"id": nil}
		if g.r.IntN(2) == 0 {
			// Name and platform beside the hash: the marketplace app's win
			// (4.2: they are used when no hash is given).
			b["name"] = "contract-app-" + g.unique()
			b["platform"] = map[string]any{"id": pick(ids["platforms"])}
		}
	} else {
		b["marketapp"] = map[string]any{}
		b["name"] = "contract-app-" + g.unique()
		b["platform"] = map[string]any{"id": pick(ids["platforms"])}
	}
	return b
}
