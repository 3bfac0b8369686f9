package explore

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/steps"
)

// A pair explores with one pair of accounts of the pool: it draws
// sequences, sends them, judges the answers and reads the state back,
// and puts its accounts back after each sequence. The pairs of a pool run
// at once; a pair's requests that do not depend on each other (the reads
// after a step, the writes of a restore) go out at once.
type pair struct {
	n       int
	wd      *world
	w       *wire
	run     *runState
	profile steps.Profile // this pair's accounts as pair 1, for the reproducers
	lists   lists
	// gate lets the lanes of one account run at once (read lock), and a
	// sequence of both accounts, shrinking or a reproducer alone (write).
	gate sync.RWMutex
}

// lists are the clients of each user and the apps of each client the
// target listed when last read (GET /users/:id/clients, GET
// /clients/:id/apps), so that a client or an app no request made shows.
type lists struct {
	mu      sync.Mutex
	clients map[string]map[string]bool // user id -> client ids
	apps    map[string]map[string]bool // client id -> app ids
}

// forget drops the lists: a sequence ended without its reads (it diverged,
// or the suite ran a reproducer), so the next read of each only learns it.
func (l *lists) forget() {
	l.mu.Lock()
	l.clients, l.apps = map[string]map[string]bool{}, map[string]map[string]bool{}
	l.mu.Unlock()
}

// swap records a list as read now, and returns what it held before.
func (l *lists) swap(m func(*lists) map[string]map[string]bool, owner string, now map[string]bool) (map[string]bool, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	before, known := m(l)[owner]
	m(l)[owner] = now
	return before, known
}

// tokVar is the reproducer's variable of an account's session token now.
func tokVar(s *seqState, a string) Var {
	if at := s.tokStep[a]; at >= 0 {
		return AnswerVar(at, "token")
	}
	return SessionVar(a)
}

// materialize is the request of a step, as sent; it fills in the step's
// path as sent and as the reproducer writes it, and its token variable.
func (p *pair) materialize(s *seqState, st *Step) (request, string) {
	wd := p.wd
	a := st.Actor
	st.Token, st.OtherToken = tokVar(s, a), tokVar(s, wd.other(a))
	switch st.Op {
	case OpPutUser, OpPutClient:
		st.Sent, st.GherkinPath = p.idPath(s, st)
	case OpPostClient:
		st.Sent, st.GherkinPath = "/clients", Lit("/clients")
	case OpPostApp:
		st.Sent, st.GherkinPath = "/apps", Lit("/apps")
	case OpLogin:
		st.Sent, st.GherkinPath = "/sessions", Lit("/sessions")
	case OpPlatforms:
		st.Sent, st.GherkinPath = wd.p.MustValue("platforms_path"), Of(NamedVar("platformsPath"))
	}
	h, q := wd.credentialOf(st, secrets{wd.acct[a].apiKey, s.tok[a]}, secrets{wd.acct[wd.other(a)].apiKey, s.tok[wd.other(a)]})
	var body string
	switch {
	case st.Op == OpLogin && st.Wire == "":
		var lh http.Header
		lh, body = p.w.loginBody(map[string]any{"email": expandLogin(st.Login[0], wd.acct), "password": expandLogin(st.Login[1], wd.acct)})
		h.Set("Content-Type", lh.Get("Content-Type"))
	case st.Op == OpLogin:
		body = Step{Base: map[string]any{"email": expandLogin(st.Login[0], wd.acct), "password": expandLogin(st.Login[1], wd.acct)}, Wire: st.Wire}.Encode()
		h.Set("Content-Type", "application/json")
	case st.Op.HasBody():
		body = st.Encode()
		h.Set("Content-Type", "application/json")
		if st.ContentType != "" {
			h.Set("Content-Type", st.ContentType)
		}
	}
	if st.Accept != "" {
		h.Set("Accept", st.Accept)
	}
	target := versioned(wd.p.BaseURL, st.Version) + "/" + strings.TrimLeft(st.Sent, "/")
	if len(q) > 0 {
		target += "?" + encodeQuery(q, credential(st.Cred))
	}
	return request{method: st.Op.Method(), url: target, header: h, body: body, chunked: st.Chunked}, body
}

// idPath is the path of a PUT on its drawn id, as sent and as the
// reproducer writes it.
func (p *pair) idPath(s *seqState, st *Step) (sent string, gherkin Text) {
	res, kind, word := "users", "user", "userId"
	if st.Op == OpPutClient {
		res, kind, word = "clients", "client", "clientId"
	}
	who := st.Actor
	switch st.Path {
	case "other":
		who = p.wd.other(st.Actor)
	case "created":
		if last, ok := s.createdFor(*st); ok {
			return "/clients/" + s.ids["client"][last.ref], Text{Before: "/clients/", Var: AnswerVar(last.at, "id")}
		}
	case "leading-zero":
		return "/" + res + "/0" + s.ids[kind][refID(who)], Text{Before: "/" + res + "/0", Var: AccountVar(who, word)}
	case "own", "":
	default:
		return "/" + res + "/" + url.PathEscape(st.PathID), Lit("/" + res + "/" + url.PathEscape(st.PathID))
	}
	return "/" + res + "/" + s.ids[kind][refID(who)], Text{Before: "/" + res + "/", Var: AccountVar(who, word)}
}

// take is step i of a sequence: the reference's verdict, the target's
// answer, their comparison and, where the target has the read extensions,
// the state the step left.
func (p *pair) take(ctx context.Context, s *seqState, i int, st *Step) *divergence {
	_, _, d := p.judged(ctx, s, i, st)
	return d
}

// judged is take with the verdict and the answer it compared. A recorded
// step's body is first read as the operators that describe it (classify).
func (p *pair) judged(ctx context.Context, s *seqState, i int, st *Step) (verdict, answer, *divergence) {
	s.cur = i
	if st.Recorded != "" && st.Muts == nil {
		st.Muts = p.wd.classify(s, *st)
	}
	req, sent := p.materialize(s, st)
	v := p.wd.verdictOf(s, *st, sent)
	j := judgement{wd: p.wd, k: p.run.k, s: s, i: i, pair: strconv.Itoa(p.n)}
	j.bounded(*st, &v)
	got := p.w.do(ctx, req)
	s.steps = append(s.steps, *st)
	s.status = append(s.status, got.status)
	d := j.isolation(*st, req, got)
	if d == nil {
		d = j.judge(*st, v, got)
	}
	if d == nil {
		d = j.hold(v, got)
	}
	if d == nil {
		j.wrote(*st, sent, got.status)
		j.counted(*st, got.status)
	}
	if d == nil && p.wd.hasRead {
		d = p.readBack(ctx, j, *st)
	}
	if d == nil {
		d = p.probeOther(ctx, j, *st, got)
	}
	p.run.cover(st.Cells, v, d != nil)
	return v, got, d
}

// read is one read of the state after a step: the path as sent and as
// the reproducer writes it.
type read struct {
	path    string
	gherkin Text
	as      string // the account whose api key reads it
	check   func(c *checker, body gjson.Result)
}

// readBack reads, where the target has the read extensions, what a step
// may have changed, all reads at once, and compares each with the
// reference: a refused request changes nothing, an accepted one is kept, a
// list holds what was made and nothing else.
func (p *pair) readBack(ctx context.Context, j judgement, st Step) *divergence {
	s, wd := j.s, p.wd
	var reads []read
	who := st.Actor
	if st.Path == "other" {
		who = wd.other(st.Actor)
	}
	userTid := s.ids["user"][refID(who)]
	switch st.Op {
	case OpPutUser:
		if st.Path != "own" && st.Path != "other" && st.Path != "leading-zero" {
			break
		}
		u := s.user(who)
		reads = append(reads, read{"/users/" + userTid, Text{Before: "/users/", Var: AccountVar(who, "userId")}, who, func(c *checker, b gjson.Result) { c.b = b; c.user(u) }})
		if _, hasClient := st.Body()["client"]; hasClient && wd.clientsList != "" {
			reads = append(reads, p.clientsRead(s, who))
		}
	case OpPutClient:
		id := refID(who)
		gc := Text{Before: "/clients/", Var: AccountVar(who, "clientId")}
		if st.Path == "created" {
			if last, ok := s.createdFor(st); ok {
				id, gc.Var = last.ref, AnswerVar(last.at, "id")
			}
		} else if st.Path != "own" && st.Path != "other" && st.Path != "leading-zero" {
			break
		}
		cl, err := s.ref.Client(id)
		tid, bound := s.ids["client"][id]
		if err == nil && bound {
			reads = append(reads, read{"/clients/" + tid, gc, who, func(c *checker, b gjson.Result) { c.b = b; c.client(cl, false) }})
		}
	case OpPostClient:
		if wd.clientsList != "" {
			reads = append(reads, p.clientsRead(s, st.Actor))
		}
		if _, withApp := st.Body()["app"]; withApp {
			reads = append(reads, p.appsReads(s, st.Actor)...)
		}
	case OpPostApp:
		reads = append(reads, p.appsReads(s, st.Actor)...)
	}
	if len(reads) == 0 {
		return nil
	}
	type got struct {
		status int
		body   []byte
		err    error
	}
	answers := make([]got, len(reads))
	var wg sync.WaitGroup
	for i, r := range reads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, body, err := p.w.get(ctx, r.path, http.Header{"Authorization": {"api-key " + wd.acct[r.as].apiKey}})
			answers[i] = got{status, body, err}
		}()
	}
	wg.Wait()
	for i, r := range reads {
		a := answers[i]
		if a.err != nil || a.status != http.StatusOK || !gjson.ValidBytes(a.body) {
			continue // the read extension is the target's to have (freedom.ReadExtensions)
		}
		c := checker{judgement: j, reading: true}
		r.check(&c, gjson.ParseBytes(a.body))
		if c.d != nil {
			c.d.reason = "afterwards GET " + r.path + ": " + c.d.reason
			c.d.key = "read " + r.gherkin.Before + ": " + c.d.key // the path up to its variable
			c.d.read = &stateRead{path: r.gherkin, as: r.as}
			return c.d
		}
	}
	return nil
}

// clientsRead compares GET /users/:userId/clients with the reference: every
// client the user holds listed, none that no request made.
func (p *pair) clientsRead(s *seqState, who string) read {
	userTid := s.ids["user"][refID(who)]
	path, gherkin := "/users/"+userTid+"/clients", Text{Before: "/users/", Var: AccountVar(who, "userId"), After: "/clients"}
	if p.wd.clientsList == "/clients" {
		// The target lists the caller's clients at /clients instead.
		path, gherkin = "/clients", Lit("/clients")
	}
	return read{path, gherkin, who, func(c *checker, b gjson.Result) {
		list := b.Get("clients")
		if !list.IsArray() {
			return
		}
		listed := map[string]bool{}
		for _, it := range list.Array() {
			listed[idText(it.Get("id"))] = true
		}
		held, _ := s.ref.ClientsOfUser(refID(who))
		made := map[string]bool{}
		var unbound []int64 // made by PUT /users with a client, whose answer shows no id
		for _, cl := range held {
			tid, bound := s.ids["client"][cl.ID]
			if !bound {
				if !s.unbindable[cl.ID] {
					unbound = append(unbound, cl.ID)
				}
				continue
			}
			made[tid] = true
			if !listed[tid] {
				c.fail(policy.CheckState, "clients missing", fmt.Sprintf("client %s of the user is not among its clients", tid),
					expect{kind: expectPresent, path: c.listed("clients", "client", tid)})
				return
			}
		}
		before, known := p.lists.swap(func(l *lists) map[string]map[string]bool { return l.clients }, userTid, listed)
		if !known {
			// No list to compare with: the clients made so far cannot be
			// told from the old ones.
			for _, id := range unbound {
				s.unbindable[id] = true
			}
			return
		}
		var fresh []string
		for id := range listed {
			if !before[id] && !made[id] {
				fresh = append(fresh, id)
			}
		}
		sortIDs(fresh)
		switch {
		case len(fresh) > len(unbound):
			c.fail(policy.CheckState, "clients grew", fmt.Sprintf("clients lists the client %s, which no request of the sequence made (%d listed before)", fresh[len(unbound)], len(before)),
				expectValue(expectIs, "clients.#", Of(NamedVar("listedBefore"))))
			c.d.remember(remembered{"clients.#", "listedBefore"})
		case len(fresh) < len(unbound):
			c.fail(policy.CheckState, "clients not grown", fmt.Sprintf("clients lists %d new clients, the reference made %d (4.1: a client is created too)", len(fresh), len(unbound)),
				expectValue(expectDiffers, "clients.#", Of(NamedVar("listedBefore"))))
			c.d.remember(remembered{"clients.#", "listedBefore"})
		case len(fresh) == 1:
			s.bind("client", unbound[0], fresh[0], c.i)
		default:
			// Several new clients: which is which, ids do not tell.
			for _, id := range unbound {
				s.unbindable[id] = true
			}
		}
	}}
}

// sortIDs sorts decimal ids by their value.
func sortIDs(ids []string) {
	sort.Slice(ids, func(i, j int) bool {
		if len(ids[i]) != len(ids[j]) {
			return len(ids[i]) < len(ids[j])
		}
		return ids[i] < ids[j]
	})
}

// appsReads compare GET /clients/:clientId/apps of each client of the
// caller with the reference: the apps the sequence made under it, no app
// it made under another, none that no request made.
func (p *pair) appsReads(s *seqState, who string) []read {
	held, _ := s.ref.ClientsOfUser(refID(who))
	var out []read
	for _, cl := range held {
		ctid, bound := s.ids["client"][cl.ID]
		if !bound {
			continue
		}
		gclient := AccountVar(who, "clientId")
		if at, ok := s.idStep["client:"+ctid]; ok && at >= 0 {
			gclient = AnswerVar(at, "id")
		}
		cref := cl.ID
		out = append(out, read{"/clients/" + ctid + "/apps", Text{Before: "/clients/", Var: gclient, After: "/apps"}, who, func(c *checker, b gjson.Result) {
			list := b.Get("apps")
			if !list.IsArray() {
				return
			}
			listed := map[string]bool{}
			for _, it := range list.Array() {
				listed[idText(it.Get("id"))] = true
			}
			made := map[string]bool{}
			for ref, tid := range s.ids["app"] {
				a, err := s.ref.App(ref)
				if err != nil {
					continue
				}
				mine := a.ClientID == cref
				if mine {
					made[tid] = true
				}
				if mine != listed[tid] {
					verb, line := "is not among its apps", expect{kind: expectPresent, path: c.listed("apps", "app", tid)}
					if !mine {
						verb, line = "made under another client, is among its apps", expect{kind: expectAbsent, path: c.listed("apps", "app", tid)}
					}
					c.fail(policy.CheckState, "apps of a client", fmt.Sprintf("app %s %s", tid, verb), line)
					return
				}
			}
			before, known := p.lists.swap(func(l *lists) map[string]map[string]bool { return l.apps }, ctid, listed)
			if !known {
				return
			}
			for id := range listed {
				if !before[id] && !made[id] {
					c.fail(policy.CheckState, "apps grew", fmt.Sprintf("apps lists the app %s, which no request of the sequence made (%d listed before)", id, len(before)),
						expectValue(expectIs, "apps.#", Of(NamedVar("listedBefore"))))
					c.d.remember(remembered{"apps.#", "listedBefore"})
					return
				}
			}
		}})
	}
	return out
}

// idRef is an id as the reproducer names it: the variable of the step
// whose answer showed it, or the id.
func (c *checker) idRef(kind, tid string) Text {
	if at, ok := c.s.idStep[kind+":"+tid]; ok && at >= 0 {
		return Of(AnswerVar(at, "id"))
	}
	return Lit(tid)
}

// listed is the path of an entity of kind in a list of the answer (clients,
// apps): its member whose id is tid.
func (c *checker) listed(list, kind, tid string) Text {
	id := c.idRef(kind, tid)
	id.Before, id.After = list+".#(id=="+id.Before, id.After+")"
	return id
}

// redate forgets the date of the account's password, set again (by a
// restore, or by the suite's own around a reproducer): the target tells it,
// where it can be read.
func (p *pair) redate(ctx context.Context, a *account) {
	a.mu.Lock()
	a.user.PasswordLastChanged = unknownDate
	a.mu.Unlock()
	p.run.k.forget(fmt.Sprintf("user:%s:passwordLastChanged:", a.userID))
	if p.wd.hasRead {
		p.wd.readAccount(ctx, p.w, a, false)
	}
}

// align writes each account's user and client as the world holds them,
// before the first sequence, on a target that cannot be read back: what the
// profile does not give (a phone extension, a name) the world can only
// assume, and until a restore wrote it the target's own value would look
// like a divergence that no reproducer repeats (every reproducer runs after
// a restore).
func (p *pair) align(ctx context.Context) {
	start, err := p.wd.newSequence()
	if err != nil {
		return
	}
	// A restore from the sequence's own start, on a target it cannot read
	// back, writes every account as the reference holds it.
	p.restore(ctx, start, false, []string{"A", "B"})
}

// restore puts the accounts a sequence changed back as it found them, on the
// target: each user and client whose state the reference changed (every
// one after a divergence, or where the target cannot be read back), the
// password where it no longer logs in, and after a sequence that logged
// in, a new session of each account. The writes go out at once. names are
// the accounts of the sequence's lane (A and B, or one of them).
func (p *pair) restore(ctx context.Context, s *seqState, diverged bool, names []string) {
	wd := p.wd
	start, err := wd.newSequence()
	if err != nil {
		return
	}
	loggedIn, putUser := false, false
	for _, st := range s.steps {
		loggedIn = loggedIn || st.Op == OpLogin
		putUser = putUser || st.Op == OpPutUser
	}
	all := diverged || !wd.hasRead
	redate := func(a *account) { p.redate(ctx, a) }
	var wg sync.WaitGroup
	for _, name := range names {
		a := wd.acct[name]
		h := http.Header{"Authorization": {"api-key " + a.apiKey}}
		u0, u1 := start.user(name), s.user(name)
		changed := s.password[name] != a.password
		c0, _ := start.ref.Client(refID(name))
		c1, _ := s.ref.Client(refID(name))
		wg.Add(1)
		go func() {
			defer wg.Done()
			var inner sync.WaitGroup
			if all || changed || fmt.Sprint(userBody(u0)) != fmt.Sprint(userBody(u1)) {
				ub := userBody(u0)
				if changed {
					// Only a password the sequence changed: setting it
					// again moves its date (a wrong server's change shows
					// at the login below).
					ub["password"] = a.password
				}
				inner.Add(1)
				go func() {
					defer inner.Done()
					_, _, _ = p.w.put(ctx, "/users/"+a.userID, h, Step{Base: ub}.Encode())
				}()
			}
			if all || fmt.Sprint(clientBody(c0)) != fmt.Sprint(clientBody(c1)) {
				inner.Add(1)
				go func() {
					defer inner.Done()
					_, _, _ = p.w.put(ctx, "/clients/"+a.clientID, h, Step{Base: clientBody(c0)}.Encode())
				}()
			}
			inner.Wait()
			if changed {
				redate(a)
			}
		}()
	}
	wg.Wait()
	if diverged {
		p.lists.forget()
	}
	if !loggedIn && !all && !putUser {
		return
	}
	// Every account logs in with the profile's password (a wrong server may
	// have stored one it refused); after a sequence that logged in, A then
	// B, as when the run began: a reproducer logs in in the same order, so
	// that a target whose sessions depend on the order of the logins
	// answers it as it answered the sequence.
	login := func(name string) bool {
		a := wd.acct[name]
		status, body, err := p.w.login(ctx, a.email, a.password)
		if err != nil || status != http.StatusOK {
			return false
		}
		// The login's session is the account's now: an older one may have
		// ended (freedom session-end: a password set again, a target that
		// keeps a bounded number of sessions).
		if tok := gjson.GetBytes(body, "token").String(); tok != "" {
			a.setToken(tok)
			p.run.k.mu.Lock()
			p.run.k.tokens[tok] = strconv.Itoa(p.n) + name
			p.run.k.mu.Unlock()
		}
		return true
	}
	ok := map[string]bool{}
	var mu sync.Mutex
	if loggedIn {
		for _, name := range names {
			ok[name] = login(name)
		}
	} else {
		for _, name := range names {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := login(name)
				mu.Lock()
				ok[name] = r
				mu.Unlock()
			}()
		}
		wg.Wait()
	}
	for _, name := range names {
		if ok[name] {
			continue
		}
		// The profile's password no longer logs in: set it again.
		a := wd.acct[name]
		ub := userBody(start.user(name))
		ub["password"] = a.password
		_, _, _ = p.w.put(ctx, "/users/"+a.userID, http.Header{"Authorization": {"api-key " + a.apiKey}}, Step{Base: ub}.Encode())
		redate(a)
		login(name)
	}
}

// forget drops the learned values whose keys start with prefix.
func (k *knowledge) forget(prefix string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for key := range k.learned {
		if strings.HasPrefix(key, prefix) {
			delete(k.learned, key)
		}
	}
}
