package explore

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Taking one step: the request as sent (materialize), the answer judged
// against the reference, and the state read back.

// tokVar is the reproducer's variable of an account's session token now.
func tokVar(s *seqState, a string) Var {
	if at := s.tokStep[a]; at >= 0 {
		return AnswerVar(at, "token")
	}
	return SessionVar(a)
}

// materialize is the request of a step, as sent; it fills in the step's
// path as sent and as the reproducer writes it, and its token variable.
func (p *pair) materialize(s *seqState, st *Step) (wireRequest, string) {
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
		lh, body = p.w.loginBody(loginMembers(st.Login, wd.acct))
		h.Set("Content-Type", lh.Get("Content-Type"))
	case st.Op == OpLogin:
		body = Step{Base: loginMembers(st.Login, wd.acct), Wire: st.Wire}.Encode()
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
		target += "?" + encodeQuery(q, placeOf(st.Cred))
	}
	return wireRequest{method: st.Op.Method(), url: target, header: h, body: body, chunked: st.Chunked}, body
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
	case "percent-encoded":
		// Its first character percent-encoded: the reproducer writes the
		// path as sent, since a variable cannot.
		if id := s.ids[kind][refID(who)]; id != "" {
			path := "/" + res + "/" + fmt.Sprintf("%%%02X", id[0]) + id[1:]
			return path, Lit(path)
		}
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
func (p *pair) judged(ctx context.Context, s *seqState, i int, st *Step) (verdict, wireAnswer, *divergence) {
	s.cur = i
	if st.Recorded != "" && st.Muts == nil {
		st.Muts = p.wd.classify(s, *st)
	}
	req, sent := p.materialize(s, st)
	v := p.wd.verdictOf(s, *st, sent)
	j := judgement{wd: p.wd, k: p.run.k, s: s, i: i, label: strconv.Itoa(p.n)}
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
	p.run.cover(st.Cells, v, d != nil, len(st.Muts) <= 1 && plainForm(*st))
	return v, got, d
}
