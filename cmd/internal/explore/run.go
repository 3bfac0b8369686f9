package explore

import (
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// sequence is a sequence that diverged, as the reproducer writes it.
type sequence struct {
	steps  []step
	div    *divergence
	reason string
	// subst: the accounts' secrets and emails, which the reproducer
	// writes as the suite's placeholders ({{A.email}}), so that it runs
	// against any target with the same profile.
	subst map[string]string
}

// posted is a client a sequence made with POST /clients: its id in the
// reference and the step that made it.
type posted struct {
	ref int64
	at  int
}

// startSequence makes the reference of a new sequence, in the state the
// target's accounts were put back into, with a session for each account.
func (e *explorer) startSequence() (*seqState, error) {
	ref, err := e.newReference()
	if err != nil {
		return nil, err
	}
	s := &seqState{
		ref: ref, refTok: map[string]string{}, tok: map[string]string{}, tokStep: map[string]int{},
		password: map[string]string{}, posted: map[string][]posted{}, ids: map[string]map[int64]int64{}, rids: map[string]map[int64]int64{},
		idStep: map[string]int{}, dateStep: map[string]int{}, acctIDs: map[string][2]int64{}, apiKey: map[string]string{},
	}
	for name, a := range e.acct {
		sess, err := ref.CreateSession(a.user.ID)
		if err != nil {
			return nil, err
		}
		s.refTok[name], s.tok[name], s.tokStep[name] = sess.Token, a.token, -1
		s.password[name], s.apiKey[name] = a.password, a.apiKey
		s.acctIDs[name] = [2]int64{a.user.ID, a.clientSeed.ID}
		// The reference holds the target's ids of the accounts.
		s.bind("user", a.user.ID, a.user.ID, -1)
		s.bind("client", a.clientSeed.ID, a.clientSeed.ID, -1)
	}
	return s, nil
}

// restore puts the accounts a sequence changed back as it found them, on
// the target: the user and client as the sequence started, the password
// where the profile's no longer logs in, and, after a sequence that
// logged in, the new session of each account.
func (e *explorer) restore(s *seqState) {
	start, err := e.newReference()
	if err != nil {
		return
	}
	loggedIn := false
	for _, st := range s.steps {
		loggedIn = loggedIn || st.op == opLogin
	}
	// A then B, as when the run began: a reproducer logs in in the same
	// order, so that a target whose sessions depend on the order of the
	// logins answers it as it answered the sequence.
	for _, name := range []string{"A", "B"} {
		a := e.acct[name]
		h := http.Header{"Authorization": {"api-key " + a.apiKey}}
		u, _ := start.User(a.user.ID)
		put := func(b map[string]any) {
			_, _, _ = e.do(http.MethodPut, fmt.Sprintf("/users/%d", a.user.ID), h, bodyText(b))
		}
		put(userBody(u))
		c, _ := start.Client(a.clientSeed.ID)
		_, _, _ = e.do(http.MethodPut, fmt.Sprintf("/clients/%d", a.clientSeed.ID), h, bodyText(clientBody(c)))
		status, body, err := e.loginTarget(u.Email, a.password)
		if err != nil || status != http.StatusOK {
			// The password is not the profile's any more: a sequence
			// changed it, or a wrong server stored one it refused or took
			// "password": null for one. Set it again; its date is then the
			// target's to tell, read where it can be.
			ub := userBody(u)
			ub["password"] = a.password
			put(ub)
			e.mu.Lock()
			for k := range e.learned {
				if strings.HasPrefix(k, fmt.Sprintf("user:%d:passwordLastChanged:", a.user.ID)) {
					delete(e.learned, k)
				}
			}
			e.mu.Unlock()
			a.user.PasswordLastChanged = unknownDate
			if e.hasRead {
				e.readAccount(a)
			}
			status, body, err = e.loginTarget(u.Email, a.password)
		}
		if !loggedIn {
			continue
		}
		// The sequence logged in: each account takes the new session, so
		// that its token stays among the newest where a target keeps a
		// bounded number of sessions.
		if err == nil && status == http.StatusOK {
			if tok := gjson.GetBytes(body, "token").String(); tok != "" {
				a.token = tok
				e.mu.Lock()
				e.tokens[tok] = name
				e.mu.Unlock()
			}
		}
	}
}

// bodyText is a body as a step sends it.
func bodyText(b map[string]any) string { return step{body: b}.jsonBody() }

// send sends a step to the target; it fills in the step's path as sent and
// as the reproducer writes it.
func (e *explorer) send(s *seqState, st *step) answer {
	h := http.Header{}
	q := url.Values{}
	tok := s.tok[st.actor]
	key := s.apiKey[st.actor]
	st.tokVar = "token" + st.actor + "0"
	if at := s.tokStep[st.actor]; at >= 0 {
		st.tokVar = rememberName(at, "token")
	}
	if c, ok := credPlaces[st.cred]; ok && c.query {
		q.Set(c.name, c.with(key, tok))
	} else if ok {
		h.Set(c.name, c.with(key, tok))
	}
	method, body := http.MethodPost, st.jsonBody()
	switch st.op {
	case opPutUser:
		method = http.MethodPut
		st.sent, st.gpath = e.idPath(s, st, "users")
	case opPutClient:
		method = http.MethodPut
		st.sent, st.gpath = e.idPath(s, st, "clients")
	case opPostClient:
		st.sent, st.gpath = "/clients", "/clients"
	case opPostApp:
		st.sent, st.gpath = "/apps", "/apps"
	case opLogin:
		st.sent, st.gpath = "/sessions", "/sessions"
		h, body = e.loginHeader(), e.loginBody(st.login[0], st.login[1])
	case opPlatforms:
		method, body = http.MethodGet, ""
		st.sent, st.gpath = e.p.MustValue("platforms_path"), "{{platformsPath}}"
	}
	base := strings.TrimRight(e.p.BaseURL, "/")
	if st.version != "" {
		if u, err := url.Parse(base); err == nil {
			dir, _ := path.Split(strings.TrimRight(u.Path, "/"))
			u.Path, u.RawPath = dir+st.version, ""
			base = u.String()
		}
	}
	target := base + "/" + strings.TrimLeft(st.sent, "/")
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	status, b, header, err := e.doFull(method, target, h, body)
	if err != nil {
		return answer{status: -1, err: err.Error()}
	}
	return answer{status: status, body: b, header: header}
}

// idPath is the path of a PUT on its drawn id, as sent and as the
// reproducer writes it.
func (e *explorer) idPath(s *seqState, st *step, res string) (sent, gherkin string) {
	k, word := 0, "userId"
	if res == "clients" {
		k, word = 1, "clientId"
	}
	who := st.actor
	switch st.path {
	case "unknown":
		return "/" + res + "/999999999", "/" + res + "/999999999"
	case "malformed":
		return "/" + res + "/" + url.PathEscape(st.badID), "/" + res + "/" + url.PathEscape(st.badID)
	case "other":
		who = e.other(st.actor)
	case "created":
		if p := s.posted[st.actor]; len(p) > 0 {
			last := p[len(p)-1]
			if tid, ok := s.ids["client"][last.ref]; ok {
				return "/clients/" + strconv.FormatInt(tid, 10), "/clients/{{" + rememberName(last.at, "id") + "}}"
			}
		}
	}
	return fmt.Sprintf("/%s/%d", res, s.acctIDs[who][k]), "/" + res + "/{{" + who + "." + word + "}}"
}

// readBack reads, where the target has the read extensions, the user and
// client a step named, and compares them with the reference: a refused
// request changes nothing, an accepted one is kept.
func (e *explorer) readBack(s *seqState, i int, st step) *divergence {
	if st.op != opPutUser && st.op != opPutClient {
		return nil
	}
	who := st.actor
	switch st.path {
	case "other":
		who = e.other(st.actor)
	case "unknown", "malformed":
		return nil
	}
	h := http.Header{"Authorization": {"api-key " + s.apiKey[who]}}
	u := s.user(who)
	cl, _ := s.ref.Client(s.acctIDs[who][1])
	gu := fmt.Sprintf("/users/{{%s.userId}}", who)
	gc := fmt.Sprintf("/clients/{{%s.clientId}}", who)
	if st.op == opPutClient && st.path == "created" {
		if p := s.posted[st.actor]; len(p) > 0 {
			cl, _ = s.ref.Client(p[len(p)-1].ref)
			gc = "/clients/{{" + rememberName(p[len(p)-1].at, "id") + "}}"
		}
	}
	reads := []struct {
		path, gherkin string
		check         func(*checker)
	}{
		{fmt.Sprintf("/users/%d", u.ID), gu, func(c *checker) { c.user(u) }},
		{fmt.Sprintf("/clients/%d", s.ids["client"][cl.ID]), gc, func(c *checker) { c.client(cl, false) }},
	}
	for _, r := range reads {
		status, body, err := e.do(http.MethodGet, r.path, h, "")
		if err != nil || status != http.StatusOK || !gjson.ValidBytes(body) {
			continue // the read extension is the target's to have
		}
		c := checker{e: e, s: s, i: i, b: gjson.ParseBytes(body), reading: true}
		r.check(&c)
		if c.d != nil {
			c.d.reason = "afterwards GET " + r.path + ": " + c.d.reason
			c.d.read, c.d.readAs = r.gherkin, who
			return c.d
		}
	}
	return nil
}

// take is step i of a sequence: the reference's verdict, the target's
// answer, their comparison and, where the target has the read
// extensions, the state the step left.
func (e *explorer) take(s *seqState, i int, st *step) *divergence {
	s.cur = i
	v := e.verdictOf(s, *st)
	got := e.send(s, st)
	s.steps = append(s.steps, *st)
	s.status = append(s.status, got.status)
	d := e.judge(s, i, *st, v, got)
	if d == nil && e.hasRead {
		d = e.readBack(s, i, *st)
	}
	if d == nil && e.hasRead {
		d = e.appsBack(s, i, *st)
	}
	return d
}

// replay sends a fixed sequence from the known state and reports the
// divergence of its last step (nil: none, or an earlier step diverged).
func (e *explorer) replay(steps []step) *sequence {
	s, err := e.startSequence()
	if err != nil {
		return nil
	}
	defer e.restore(s)
	for i, st := range steps {
		if d := e.take(s, i, &st); d != nil {
			if i < len(steps)-1 {
				return nil
			}
			return &sequence{steps: s.steps, div: d, reason: st.describe() + ": " + d.reason}
		}
	}
	return nil
}

// minimize drops, one at a time, the steps a divergence does not need:
// rapid shrinks the draws, this the sequence itself.
func (e *explorer) minimize(seq *sequence, res *result) *sequence {
	for i := 0; i < len(seq.steps)-1; {
		try := append(append([]step{}, seq.steps[:i]...), seq.steps[i+1:]...)
		res.requests += len(try)
		if d := e.replay(try); d != nil {
			seq = d
			continue
		}
		i++
	}
	seq.subst = map[string]string{}
	for name, a := range e.acct {
		seq.subst[a.user.Email] = "{{" + name + ".email}}"
		seq.subst[a.password] = "{{" + name + ".password}}"
	}
	return seq
}

// appsBack reads, where the target has GET /clients/:clientId/apps, the
// apps of each client of the caller after it made an app (POST /apps, or
// POST /clients with an app): every app the sequence made is listed under
// the client the reference put it in, and under no other.
func (e *explorer) appsBack(s *seqState, i int, st step) *divergence {
	if (st.op != opPostApp && st.op != opPostClient) || s.status[len(s.status)-1] != http.StatusOK {
		return nil
	}
	h := http.Header{"Authorization": {"api-key " + s.apiKey[st.actor]}}
	u := s.user(st.actor)
	for _, cid := range u.ClientIDs {
		tcid, ok := s.ids["client"][cid]
		if !ok {
			continue
		}
		status, body, err := e.do(http.MethodGet, fmt.Sprintf("/clients/%d/apps", tcid), h, "")
		if err != nil || status != http.StatusOK {
			continue // the read extension is the target's to have
		}
		list := gjson.GetBytes(body, "apps")
		if !list.IsArray() {
			continue
		}
		listed := map[int64]bool{}
		for _, a := range list.Array() {
			listed[a.Get("id").Int()] = true
		}
		apps, _ := s.ref.AppsOfClient(cid)
		mine := map[int64]bool{}
		for _, a := range apps {
			mine[a.ID] = true
		}
		gclient := fmt.Sprintf("{{%s.clientId}}", st.actor)
		if at, ok := s.idStep["client:"+strconv.FormatInt(tcid, 10)]; ok && at >= 0 {
			gclient = "{{" + rememberName(at, "id") + "}}"
		}
		if at, ok := s.idStep["client:"+strconv.FormatInt(tcid, 10)]; ok && at >= 0 && len(list.Array()) != len(apps) {
			// A client of this sequence: all its apps are the reference's.
			return &divergence{read: "/clients/" + gclient + "/apps", readAs: st.actor,
				reason: fmt.Sprintf("afterwards GET /clients/%d/apps: %d apps, the reference made %d under this client", tcid, len(list.Array()), len(apps)),
				then:   []string{fmt.Sprintf(`Then the JSON at "apps.#" is %d`, len(apps))}}
		}
		for ref, tid := range s.ids["app"] {
			at := s.idStep["app:"+strconv.FormatInt(tid, 10)]
			if mine[ref] == listed[tid] || at < 0 {
				continue
			}
			d := &divergence{read: "/clients/" + gclient + "/apps", readAs: st.actor}
			app := "{{" + rememberName(at, "id") + "}}"
			if mine[ref] {
				d.reason = fmt.Sprintf("afterwards GET /clients/%d/apps: app %d, made under this client, is not among its apps", tcid, tid)
				d.then = []string{fmt.Sprintf(`Then the JSON at "apps.#(id==%s)" is present`, app)}
			} else {
				d.reason = fmt.Sprintf("afterwards GET /clients/%d/apps: app %d, made under another client, is among its apps", tcid, tid)
				d.then = []string{fmt.Sprintf(`Then the JSON at "apps.#(id==%s)" is absent`, app)}
			}
			return d
		}
	}
	return nil
}
