package explore

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore/linear"
	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/mockserver/api"
)

// Concurrent histories: now and then a pair sends a few requests of its two
// accounts at once (two updates of one user, one email claimed by both, two
// creates, a password change beside logins with the old and the new one, a
// client and its user changed together), records when each was sent and
// answered, reads the state after them, and asks package linear whether
// some serial order of them, consistent with real time, explains every
// answer on the reference. Two creates must also get two ids.

// concurrentEvery: one sequence in this many that a pair runs alone (the
// sequences of both accounts) is a concurrent batch.
const concurrentEvery = 3

// batchKinds are the shapes of the batches, each a sentence for reports.
var batchKinds = []string{
	"one user updated twice at once",
	"two users updated at once",
	"one new email claimed by both accounts at once",
	"two clients created at once",
	"a password changed beside logins with the old and the new one",
	"a client and its user updated at once",
	"two apps created at once",
	"two apps created at once by both accounts",
	"one user updated twice at once, one body without its phone number",
	"both accounts logging in at once",
	"a password changed beside updates that keep it",
}

// batch is one concurrent batch: the steps sent at once, and the reads made
// after the last answer.
type batch struct {
	kind  string
	steps []Step
	reads []batchRead
}

// batchRead is a read after a batch: a GET of the reference's path and the
// target's, by an account, or a login.
type batchRead struct {
	label      string
	login      *Step
	refPath    string
	targetPath string
	as         string
}

// drawBatch draws a batch the target's profile allows: one with a request
// of operation hint, when there is a hint and such a batch.
func (p *pair) drawBatch(g *generator, s *seqState, hint Op) batch {
	for tries := 0; ; tries++ {
		kind := batchKinds[g.r.IntN(len(batchKinds))]
		b := batch{kind: kind}
		var allowed bool
		b.steps, b.reads, allowed = batchMakers[kind](batchDraw{p: p, g: g, s: s})
		if !allowed || hint != "" && tries < 4*len(batchKinds) && !b.has(hint) {
			continue
		}
		if !p.wd.hasRead {
			var keep []batchRead
			for _, r := range b.reads {
				if r.login != nil {
					keep = append(keep, r)
				}
			}
			b.reads = keep
		}
		return b
	}
}

// has reports whether a batch sends a request of operation op.
func (b batch) has(op Op) bool {
	for _, st := range b.steps {
		if st.Op == op {
			return true
		}
	}
	return false
}

// batchDraw is what a batch is drawn with: the pair, its generator and the
// sequence's state.
type batchDraw struct {
	p *pair
	g *generator
	s *seqState
}

// putUserStep is a PUT of an account's own user, as the sequence holds it,
// with the members of set.
func (d batchDraw) putUserStep(actor string, set map[string]any) Step {
	st := Step{Op: OpPutUser, Actor: actor, Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Path: "own", Base: userBody(d.s.user(actor))}
	for k, v := range set {
		st.Base[k] = v
	}
	return st
}

// userRead is the read of an account's user after a batch.
func (d batchDraw) userRead(actor string) batchRead {
	return batchRead{label: "GET /users/" + actor, refPath: fmt.Sprintf("/users/%d", refID(actor)), targetPath: "/users/" + d.p.wd.acct[actor].userID, as: actor}
}

// batchMakers make each kind of batch: its steps and the reads after them,
// or not allowed where the target's profile does not allow the kind.
var batchMakers = map[string]func(d batchDraw) (steps []Step, reads []batchRead, allowed bool){
	batchKinds[0]: func(d batchDraw) ([]Step, []batchRead, bool) {
		return []Step{d.putUserStep("A", map[string]any{"firstName": "contract-" + d.g.unique()}), d.putUserStep("A", map[string]any{"firstName": "contract-" + d.g.unique(), "lastName": "contract-" + d.g.unique()})},
			[]batchRead{d.userRead("A")}, true
	},
	batchKinds[1]: func(d batchDraw) ([]Step, []batchRead, bool) {
		return []Step{d.putUserStep("A", map[string]any{"firstName": "contract-" + d.g.unique()}), d.putUserStep("B", map[string]any{"firstName": "contract-" + d.g.unique()})},
			[]batchRead{d.userRead("A"), d.userRead("B")}, true
	},
	batchKinds[2]: func(d batchDraw) ([]Step, []batchRead, bool) {
		email := "contract-" + d.g.unique() + "@" + d.p.wd.domain
		return []Step{d.putUserStep("A", map[string]any{"email": email}), d.putUserStep("B", map[string]any{"email": email})},
			[]batchRead{d.userRead("A"), d.userRead("B")}, true
	},
	batchKinds[3]: func(d batchDraw) ([]Step, []batchRead, bool) {
		if !d.p.wd.several {
			return nil, nil, false
		}
		return []Step{
			{Op: OpPostClient, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: d.g.newClientBody(false)},
			{Op: OpPostClient, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: d.g.newClientBody(false)},
		}, nil, true
	},
	batchKinds[4]: func(d batchDraw) ([]Step, []batchRead, bool) {
		g, s := d.g, d.s
		pw := "contract-" + g.unique() + "-pw"
		steps := []Step{
			d.putUserStep("A", map[string]any{"password": pw}),
			{Op: OpLogin, Actor: "A", Login: [2]string{g.emailTemplate(s, "A"), pw}},
			{Op: OpLogin, Actor: "A", Login: [2]string{g.emailTemplate(s, "A"), g.passwordTemplate(s, "A")}},
		}
		after := Step{Op: OpLogin, Actor: "A", Login: [2]string{g.emailTemplate(s, "A"), pw}}
		return steps, []batchRead{{label: "a login with the new password", login: &after}}, true
	},
	batchKinds[5]: func(d batchDraw) ([]Step, []batchRead, bool) {
		cl, _ := d.s.ref.Client(refID("A"))
		c := Step{Op: OpPutClient, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Path: "own", Base: clientBody(cl)}
		c.Base["name"] = "contract-" + d.g.unique()
		return []Step{c, d.putUserStep("A", map[string]any{"firstName": "contract-" + d.g.unique()})},
			[]batchRead{d.userRead("A"), {label: "GET /clients/A", refPath: fmt.Sprintf("/clients/%d", refID("A")), targetPath: "/clients/" + d.p.wd.acct["A"].clientID, as: "A"}}, true
	},
	batchKinds[6]: func(d batchDraw) ([]Step, []batchRead, bool) {
		return []Step{
			{Op: OpPostApp, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: d.g.batchAppBody()},
			{Op: OpPostApp, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: d.g.batchAppBody()},
		}, nil, true
	},
	batchKinds[7]: func(d batchDraw) ([]Step, []batchRead, bool) {
		// Two clients' apps: a server that serialises the apps of one
		// client may still race between two.
		return []Step{
			{Op: OpPostApp, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: d.g.batchAppBody()},
			{Op: OpPostApp, Actor: "B", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: d.g.batchAppBody()},
		}, nil, true
	},
	batchKinds[8]: func(d batchDraw) ([]Step, []batchRead, bool) {
		// A body that leaves the phone number out keeps it (the
		// mock's reading; a server may refuse it): of two updates at
		// once, neither may undo the other's change.
		if _, ok := userBody(d.s.user("A"))["phoneNumber"]; !ok {
			return nil, nil, false
		}
		number := fmt.Sprintf("7700 9%05d", d.g.r.IntN(100000))
		other := d.putUserStep("A", map[string]any{"firstName": "contract-" + d.g.unique()})
		delete(other.Base, "phoneNumber")
		return []Step{d.putUserStep("A", map[string]any{"phoneNumber": number}), other},
			[]batchRead{d.userRead("A")}, true
	},
	batchKinds[9]: func(d batchDraw) ([]Step, []batchRead, bool) {
		// Two sessions opened at once: each its own token (2.4), which
		// a server that mints it from a counter read before the write
		// gives twice.
		g, s := d.g, d.s
		return []Step{
			{Op: OpLogin, Actor: "A", Login: [2]string{g.emailTemplate(s, "A"), g.passwordTemplate(s, "A")}},
			{Op: OpLogin, Actor: "B", Login: [2]string{g.emailTemplate(s, "B"), g.passwordTemplate(s, "B")}},
		}, nil, true
	},
	batchKinds[10]: func(d batchDraw) ([]Step, []batchRead, bool) {
		// A new password beside updates whose null password keeps the
		// stored one (4.1): whatever their order, the new one logs in
		// after; a server that writes back a whole record it read before
		// the change undoes it.
		g, s := d.g, d.s
		pw := "contract-" + g.unique() + "-pw"
		steps := []Step{d.putUserStep("A", map[string]any{"password": pw})}
		for range 3 {
			steps = append(steps, d.putUserStep("A", map[string]any{"password": nil, "firstName": "contract-" + g.unique()}))
		}
		after := Step{Op: OpLogin, Actor: "A", Login: [2]string{g.emailTemplate(s, "A"), pw}}
		return steps, []batchRead{{label: "a login with the new password", login: &after}}, true
	},
}

// concurrent draws a batch, sends it and judges its history; it returns
// the batch (its steps as sent) and the divergence, if any (nil: none, or
// no verdict in time).
func (p *pair) concurrent(ctx context.Context, g *generator, hint Op) (batch, *divergence) {
	s, err := p.wd.newSequence()
	if err != nil {
		return batch{}, nil
	}
	b := p.drawBatch(g, s, hint)
	return b, p.sendBatch(ctx, s, &b)
}

// sendBatch sends a batch from the reference's state s, and judges it.
func (p *pair) sendBatch(ctx context.Context, s *seqState, b *batch) *divergence {
	start := s.ref.Clone()
	ops := make([]linear.Op, len(b.steps))
	base := time.Now()
	var wg sync.WaitGroup
	ready := make(chan struct{})
	for i := range b.steps {
		st := &b.steps[i]
		req, sent := p.materialize(s, st)
		// An app of no store (freedom app-by-name), a create past the
		// account's bound (freedom bounds), or a user body without its
		// phone number (freedom omitted-fields) may be refused.
		past := (judgement{k: p.run.k, label: fmt.Sprint(p.n)}).pastBound(st.Actor, creates(*st))
		_, phone := st.Base["phoneNumber"]
		ops[i] = linear.Op{Label: batchLabel(*st), Lane: i, Partition: "pair", Req: p.wd.refRequest(s, *st, sent), AnyRefusal: st.Op == OpLogin,
			MayRefuse: byName(st.Op, st.Base) != "" || past || st.Op == OpPutUser && !phone || p.wd.hashOnce && st.Op == OpPostApp}
		if st.Op == OpPostApp && byName(st.Op, st.Base) == "" {
			// Made from the target's marketplace app, it bears that app's
			// name, which the reference's seed does not have.
			ops[i].Foreign = []string{"name"}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-ready
			ops[i].Call = int64(time.Since(base))
			got := p.w.do(ctx, req)
			ops[i].Return = int64(time.Since(base))
			ops[i].Got = linear.Answer{Status: got.status, Body: got.body}
		}()
	}
	close(ready)
	wg.Wait()
	for _, r := range b.reads {
		op := linear.Op{Label: r.label, Lane: len(ops), Partition: "pair", Call: int64(time.Since(base)), AnyRefusal: r.login != nil}
		var got wireAnswer
		if r.login != nil {
			req, sent := p.materialize(s, r.login)
			op.Req = p.wd.refRequest(s, *r.login, sent)
			got = p.w.do(ctx, req)
		} else {
			op.Req = api.Request{Method: http.MethodGet, Path: "/v1" + r.refPath, Header: http.Header{"Authorization": {"api-key " + p.wd.acct[r.as].apiKey}}}
			got = p.w.do(ctx, wireRequest{method: http.MethodGet, url: p.w.base + r.targetPath, header: http.Header{"Authorization": {"api-key " + p.wd.acct[r.as].apiKey}}})
			if got.status != http.StatusOK {
				continue // a read extension the target does not have, or refuses (freedom read-extensions)
			}
		}
		op.Return = int64(time.Since(base))
		op.Got = linear.Answer{Status: got.status, Body: got.body}
		ops = append(ops, op)
	}
	for _, st := range b.steps {
		if _, ok := st.Base["password"].(string); ok && st.Op == OpPutUser {
			// The batch may have changed the password: the restore sets
			// the profile's again.
			s.password[st.Actor] = ""
		}
	}
	defer p.restore(ctx, s, true, []string{"A", "B"})
	p.run.steps.Add(int64(len(ops)))
	for _, op := range ops {
		if op.Got.Status < 0 || op.Got.Status >= 500 {
			return nil // the sequences judge these: an answer missing or a 5xx is no history to order
		}
	}
	if d := distinctIDs(*b, ops); d != nil {
		return d
	}
	r := linear.Check(start, ops, linear.SameFields("email", "firstName", "lastName", "name", "phoneNumber"), 10*time.Second)
	if r.Linearizable || r.Unknown {
		return nil
	}
	d := diverged(policy.CheckLinearizable, "history "+b.kind,
		b.kind+": no serial order of the requests, consistent with when they were sent and answered, explains every answer:")
	if d != nil {
		d.detail = interleaving(ops, r.Longest)
	}
	return d
}

// distinctIDs: two creates at once, both answered 200, got two ids and two
// write keys; two logins two session ids and two tokens.
func distinctIDs(b batch, ops []linear.Op) *divergence {
	seen := map[string]string{}
	for i, st := range b.steps {
		fields := map[Op][]string{OpPostClient: {"id", "writeKey"}, OpPostApp: {"id", "writeKey"}, OpLogin: {"id", "token"}}[st.Op]
		if len(fields) == 0 || ops[i].Got.Status != 200 {
			continue
		}
		for _, field := range fields {
			v := gjson.GetBytes(ops[i].Got.Body, field)
			if !v.Exists() {
				continue
			}
			key := field + "=" + v.Raw
			if st.Op == OpLogin {
				// One account's logins may share a session (the legal
				// sessions-reused); two accounts' never.
				key = st.Actor + " " + key
				if other, ok := seen[map[string]string{"A": "B", "B": "A"}[st.Actor]+" "+field+"="+v.Raw]; ok {
					return diverged(policy.CheckID, "history "+b.kind+" "+field, fmt.Sprintf("%s: %s and %s were both answered %s %s", b.kind, other, ops[i].Label, field, v.Raw))
				}
			}
			if other, ok := seen[key]; ok {
				return diverged(policy.CheckID, "history "+b.kind+" "+field, fmt.Sprintf("%s: %s and %s were both answered %s %s", b.kind, other, ops[i].Label, field, v.Raw))
			}
			seen[key] = ops[i].Label
		}
	}
	return nil
}

// batchLabel names a request of a batch.
func batchLabel(st Step) string {
	var what []string
	if st.Op == OpLogin {
		return "account " + st.Actor + " " + string(st.Op)
	}
	for _, k := range []string{"email", "firstName", "lastName", "name", "password"} {
		if v, ok := st.Base[k].(string); ok && strings.HasPrefix(v, "contract-") {
			what = append(what, k+"="+v)
		}
	}
	return "account " + st.Actor + " " + string(st.Op) + " " + strings.Join(what, " ")
}

// interleaving is a history as a timeline, each request with when it was
// sent and answered and what it was answered, and the longest serial order
// the search found, after which no request explains its answer.
func interleaving(ops []linear.Op, longest []int) string {
	idx := make([]int, len(ops))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return ops[idx[a]].Call < ops[idx[b]].Call })
	var b strings.Builder
	for _, i := range idx {
		o := ops[i]
		fmt.Fprintf(&b, "  [%d] %s: sent at %s, answered %d at %s %s\n", i+1, o.Label, time.Duration(o.Call), o.Got.Status, time.Duration(o.Return), clip(o.Got.Body))
	}
	var order []string
	for _, i := range longest {
		order = append(order, fmt.Sprintf("[%d]", i+1))
	}
	fmt.Fprintf(&b, "  the longest order that explains its answers: %s, and no request can come next", strings.Join(order, " then "))
	return b.String()
}

func clip(b []byte) string {
	if len(b) > 160 {
		return string(b[:160]) + "..."
	}
	return string(b)
}

// batchTries is how many times a batch's reproducer runs before its
// divergence is dropped: a race shows in some runs only.
const batchTries = 8

// foundBatch writes a batch's reproducer and runs it with the suite
// against the target until it fails (reported) or batchTries pass.
func (p *pair) foundBatch(ctx context.Context, b batch, d *divergence) {
	sig := atOnce + " | " + d.key
	if !p.run.claim(sig) {
		return
	}
	feature := batchFeature(b, d, p.wd.placeholders())
	failed, proof := false, ""
	for i := 0; i < batchTries && !failed && ctx.Err() == nil; i++ {
		failed, proof = p.reproduces(ctx, feature)
	}
	p.run.report(Divergence{Reason: d.text(), Check: d.check.ID, Cite: d.check.Decided.String(), Feature: feature, Pair: p.n,
		Steps: len(b.steps), Signature: sig, Proof: proof}, failed)
}

// batchFeature is a batch's reproducer: its requests prepared and sent at
// once, then what every serial order of them gives.
func batchFeature(b batch, d *divergence, subst map[string]string) string {
	w := newScript()
	names := make([]string, len(b.steps))
	for i, st := range b.steps {
		names[i] = fmt.Sprint(i + 1)
		if st.Op == OpLogin && b.kind == batchKinds[9] {
			// The logins are the batch: each prepared with its body.
			w.say(pNotAuthenticated())
			w.lines = append(w.lines, rawBody(Step{Base: loginMembers(st.Login, nil)}.Encode())...)
			w.say(fmt.Sprintf("When I prepare %q to %s as %q", "POST", arg("/sessions"), names[i]))
			continue
		}
		if st.Op == OpLogin {
			continue // a login at once is the suite's own phrase, sent alone after
		}
		w.lines = append(w.lines, w.requestLines(st)...)
		w.say(fmt.Sprintf("When I prepare %q to %s as %q", st.Op.Method(), arg(w.text(st.GherkinPath)), names[i]))
	}
	w.say("When I send the prepared requests at once")
	switch {
	case b.kind == batchKinds[2]:
		w.say(fmt.Sprintf("Then exactly one of the answers %q and %q has the status 200", names[0], names[1]))
	case b.kind == batchKinds[9]:
		w.say("Then I look at the answer \"1\"", pStatus(200), pRemember("id", "firstId"), pRemember("token", "firstToken"),
			"Then I look at the answer \"2\"", pStatus(200), and(pJSONDiffers("id", "{{firstId}}")), and(pJSONDiffers("token", "{{firstToken}}")))
	case b.steps[0].Op == OpPostClient || b.steps[0].Op == OpPostApp:
		w.say("Then I look at the answer \"1\"", pStatus(200), pRemember("id", "firstId"),
			"Then I look at the answer \"2\"", pStatus(200), and(pJSONDiffers("id", "{{firstId}}")))
	default:
		for i, st := range b.steps {
			if st.Op == OpLogin {
				continue
			}
			w.say(fmt.Sprintf("Then I look at the answer %q", names[i]), pStatus(200))
			for _, f := range []string{"firstName", "name", "email"} {
				if v, ok := st.Base[f].(string); ok && strings.HasPrefix(v, "contract-") {
					w.say(and(pJSONIs(f, q(v))))
				}
			}
		}
		for _, r := range b.reads {
			if r.login != nil {
				w.say(pLogInWith(r.login.Login[0], r.login.Login[1]), pStatus(200))
			}
		}
		if b.kind == batchKinds[8] {
			// In every order the number the first sent holds: the second
			// keeps it.
			if n, ok := b.steps[0].Base["phoneNumber"].(string); ok {
				w.say(pAccountUsingAPIKey("A"), pReadExtension("/users/{{A.userId}}"), pStatus(200), and(pJSONIs("phoneNumber", q(n))))
			}
		}
	}
	var b2 strings.Builder
	b2.WriteString("# Written by pricing-contract explore: requests sent at once, whose answers no serial order of them explains.\n")
	b2.WriteString("# A race shows in some runs only: run it several times (the explorer ran it until it failed).\n")
	b2.WriteString("@explorer @s4 @mutates-A @mutates-B\n")
	b2.WriteString("Feature: a divergence found by pricing-contract explore\n\n")
	fmt.Fprintf(&b2, "  Scenario: %s\n", oneLine(d.reason))
	w.write(&b2, subst)
	return b2.String()
}
