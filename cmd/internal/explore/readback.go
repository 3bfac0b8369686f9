package explore

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Reading the state back after a step: the target's lists of clients and
// apps, and the probe of the other account's resources, judged against
// what the reference holds.

// probeOther asks, as the other account, for the app an account has just
// made, by the paths a server names an app by (GET /apps/:appId, GET
// /apps?clientId=), with or without such an extension: whatever the
// status, the answer carries nothing of the app's owner (5: a caller may
// not view another's resources).
func (p *pair) probeOther(ctx context.Context, j judgement, st Step, got wireAnswer) *divergence {
	if st.Op != OpPostApp || got.status != http.StatusOK {
		return nil
	}
	id := idText(gjson.GetBytes(got.body, "id"))
	if id == "" {
		return nil
	}
	owner, other := st.Actor, p.wd.other(st.Actor)
	writeKey := gjson.GetBytes(got.body, "writeKey").String()
	probes := []listRead{{path: "/apps/" + id, gherkin: Text{Before: "/apps/", Var: AnswerVar(j.i, "id")}, as: other}}
	if ctid, ok := j.s.ids["client"][refID(owner)]; ok {
		probes = append(probes, listRead{path: "/apps?clientId=" + ctid, gherkin: Text{Before: "/apps?clientId=", Var: AccountVar(owner, "clientId")}, as: other})
	}
	for _, r := range probes {
		h := http.Header{"Authorization": {"api-key " + p.wd.acct[other].apiKey}}
		status, body, err := p.w.get(ctx, r.path, h)
		if err != nil {
			continue
		}
		req := wireRequest{method: http.MethodGet, url: p.w.base + r.path, header: h}
		d := j.isolation(Step{Op: OpPlatforms, Actor: other}, req, wireAnswer{status: status, body: body})
		if d == nil && len(writeKey) >= 8 && !req.carries(writeKey) && strings.Contains(strings.ToLower(string(body)), strings.ToLower(writeKey)) {
			d = diverged(policy.CheckIsolation, "write key of another account",
				fmt.Sprintf("answered %d to account %s with the write key of account %s's app (5: a caller may not view another's resources)", status, other, owner),
				expectValue(expectNoText, "", Of(AnswerVar(j.i, "writeKey"))))
		}
		if d != nil {
			d.reason = "afterwards GET " + r.path + " as account " + other + ": " + d.reason
			d.key = "probe " + r.gherkin.Before + ": " + d.key
			d.read = &stateRead{path: r.gherkin, as: other, anyStatus: true}
			return d
		}
	}
	return nil
}

// listRead is one read of the state after a step: the path as sent and as
// the reproducer writes it.
type listRead struct {
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
	var reads []listRead
	who := st.Actor
	if st.Path == "other" {
		who = wd.other(st.Actor)
	}
	userTid := s.ids["user"][refID(who)]
	switch st.Op {
	case OpPutUser:
		if !samePathAsOwn(st.Path) && st.Path != "other" {
			break
		}
		u := s.user(who)
		reads = append(reads, listRead{"/users/" + userTid, Text{Before: "/users/", Var: AccountVar(who, "userId")}, who, func(c *checker, b gjson.Result) { c.b = b; c.user(u) }})
		if _, hasClient := st.Body()["client"]; hasClient && wd.clientsList != "" {
			reads = append(reads, p.clientsRead(s, who))
		}
		if cl, _ := st.Body()["client"].(map[string]any); cl != nil && cl["app"] != nil && wd.appsOfCaller {
			// The caller's apps, which the client's app joins.
			reads = append(reads, p.appsReads(s, who)...)
		}
	case OpPutClient:
		id := refID(who)
		gc := Text{Before: "/clients/", Var: AccountVar(who, "clientId")}
		if st.Path == "created" {
			if last, ok := s.createdFor(st); ok {
				id, gc.Var = last.ref, AnswerVar(last.at, "id")
			}
		} else if !samePathAsOwn(st.Path) && st.Path != "other" {
			break
		}
		cl, err := s.ref.Client(id)
		tid, bound := s.ids["client"][id]
		if err == nil && bound {
			reads = append(reads, listRead{"/clients/" + tid, gc, who, func(c *checker, b gjson.Result) { c.b = b; c.client(cl, false) }})
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

// idsListed are the ids of the array at key of a list's answer; false
// where there is no array there.
func idsListed(b gjson.Result, key string) (map[string]bool, bool) {
	list := b.Get(key)
	if !list.IsArray() {
		return nil, false
	}
	listed := map[string]bool{}
	for _, it := range list.Array() {
		listed[idText(it.Get("id"))] = true
	}
	return listed, true
}

// clientsRead compares GET /users/:userId/clients with the reference: every
// client the user holds listed, none that no request made.
func (p *pair) clientsRead(s *seqState, who string) listRead {
	userTid := s.ids["user"][refID(who)]
	path, gherkin := "/users/"+userTid+"/clients", Text{Before: "/users/", Var: AccountVar(who, "userId"), After: "/clients"}
	if p.wd.clientsList == "/clients" {
		// The target lists the caller's clients at /clients instead.
		path, gherkin = "/clients", Lit("/clients")
	}
	return listRead{path, gherkin, who, func(c *checker, b gjson.Result) {
		listed, ok := idsListed(b, "clients")
		if !ok {
			return
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
		before, known := p.lists.swap(func(l *readLists) map[string]map[string]bool { return l.clients }, userTid, listed)
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
func (p *pair) appsReads(s *seqState, who string) []listRead {
	held, _ := s.ref.ClientsOfUser(refID(who))
	if p.wd.appsOfCaller {
		return []listRead{p.callerAppsRead(s, who, held)}
	}
	var out []listRead
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
		out = append(out, listRead{"/clients/" + ctid + "/apps", Text{Before: "/clients/", Var: gclient, After: "/apps"}, who, func(c *checker, b gjson.Result) {
			listed, ok := idsListed(b, "apps")
			if !ok {
				return
			}
			made, ok := appsAsHeld(c, s, listed, func(client int64) bool { return client == cref }, "a client")
			if !ok {
				return
			}
			before, known := p.lists.swap(func(l *readLists) map[string]map[string]bool { return l.apps }, ctid, listed)
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

// callerAppsRead compares GET /apps, the caller's apps, with the
// reference where the target lists no client's: every app of the user's
// clients listed, none of another's, none that no request made.
func (p *pair) callerAppsRead(s *seqState, who string, held []pricing.Client) listRead {
	mineOf := map[int64]bool{}
	for _, cl := range held {
		mineOf[cl.ID] = true
	}
	return listRead{"/apps", Lit("/apps"), who, func(c *checker, b gjson.Result) {
		listed, ok := idsListed(b, "apps")
		if !ok {
			return
		}
		made, ok := appsAsHeld(c, s, listed, func(client int64) bool { return mineOf[client] }, "the caller")
		if !ok {
			return
		}
		var unbound []int64 // made with their client: no answer showed their ids
		for _, cl := range held {
			apps, _ := s.ref.AppsOfClient(cl.ID)
			for _, a := range apps {
				if _, bound := s.ids["app"][a.ID]; !bound && !s.unboundApps[a.ID] {
					unbound = append(unbound, a.ID)
				}
			}
		}
		before, known := p.lists.swap(func(l *readLists) map[string]map[string]bool { return l.apps }, "caller "+who, listed)
		var fresh []string
		for id := range listed {
			if known && !before[id] && !made[id] {
				fresh = append(fresh, id)
			}
		}
		sortIDs(fresh)
		switch {
		case len(fresh) > len(unbound):
			c.fail(policy.CheckState, "apps grew", fmt.Sprintf("apps lists the app %s, which no request of the sequence made (%d listed before)", fresh[len(unbound)], len(before)),
				expectValue(expectIs, "apps.#", Of(NamedVar("listedBefore"))))
			c.d.remember(remembered{"apps.#", "listedBefore"})
		case len(fresh) == 1 && len(unbound) == 1:
			s.bind("app", unbound[0], fresh[0], c.i)
		default:
			// No list to compare with, or several new apps: which is
			// which, ids do not tell.
			for _, id := range unbound {
				s.unboundApps[id] = true
			}
		}
	}}
}

// appsAsHeld holds a list of apps (a client's, or the caller's: whose) to
// the apps the reference holds: each of its own listed, none of another's.
// made are the listed apps the sequence made; false where it failed c.
func appsAsHeld(c *checker, s *seqState, listed map[string]bool, own func(client int64) bool, whose string) (made map[string]bool, ok bool) {
	made = map[string]bool{}
	for ref, tid := range s.ids["app"] {
		a, err := s.ref.App(ref)
		if err != nil {
			continue
		}
		mine := own(a.ClientID)
		made[tid] = made[tid] || mine
		if mine != listed[tid] {
			verb, line := "is not among the apps of "+whose, expect{kind: expectPresent, path: c.listed("apps", "app", tid)}
			if !mine {
				verb, line = "of another client, is among the apps of "+whose, expect{kind: expectAbsent, path: c.listed("apps", "app", tid)}
			}
			c.fail(policy.CheckState, "apps of "+whose, fmt.Sprintf("app %s %s", tid, verb), line)
			return nil, false
		}
	}
	return made, true
}

// listed is the path of an entity of kind in a list of the answer (clients,
// apps): its member whose id is tid.
func (c *checker) listed(list, kind, tid string) Text {
	id := c.idRef(kind, tid)
	id.Before, id.After = list+".#(id=="+id.Before, id.After+")"
	return id
}

// samePathAsOwn reports whether a path operator names the account's own
// resource, in another form or not.
func samePathAsOwn(path string) bool {
	return path == "own" || path == "leading-zero" || path == "percent-encoded"
}
