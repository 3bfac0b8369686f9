package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// The fifth stage: the reproducer. A sequence that diverged is written as a
// scenario in the suite's phrases (phrases.go): each step as the suite
// sends it, then what the reference answers where the target diverged, so
// that the file fails against that target and passes against a correct
// one (pricing-contract --features DIR --godog.paths FILE).

// sequence is a sequence that diverged, as the reproducer writes it.
type sequence struct {
	steps  []Step
	div    *divergence
	reason string
	// subst: the accounts' secrets and emails, which the reproducer writes
	// as the suite's placeholders ({{A.email}}), so that it runs against
	// any target with the same profile.
	subst map[string]string
	// replay: the steps are a recording's (pricing-contract replay), and the
	// reproducer says so.
	replay bool
}

// by is the command whose reproducer it is, and its tag.
func (s *sequence) by() (command, tag string) {
	if s.replay {
		return "pricing-contract replay", "@replay"
	}
	return "pricing-contract explore", "@explorer"
}

// feature is the reproducer's text.
func (s *sequence) feature() string {
	command, tag := s.by()
	tags := []string{tag, "@s5", "@s7.1", "@s7.2", "@s7.3", "@mutates-A", "@mutates-B"}
	for _, st := range s.steps {
		opTag := map[Op]string{OpPutUser: "@put-users", OpPutClient: "@put-clients", OpPostClient: "@post-clients",
			OpPostApp: "@post-apps", OpLogin: "@post-sessions", OpPlatforms: "@get-platforms"}[st.Op]
		if !slices.Contains(tags, opTag) {
			tags = append(tags, opTag)
		}
	}
	if (s.div.read != nil || s.div.opening != nil) && !slices.Contains(tags, "@get-extensions") {
		tags = append(tags, "@get-extensions")
	}
	w := newScript()
	if s.div.clock {
		w.say(pLogInAfterASecond("A"), pStatus(200), pRemember("created", "clock"))
	}
	if o := s.div.opening; o != nil {
		w.read(*o, o.remember)
	}
	if t := s.div.taught; t != nil && !t.GherkinPath.Var.Answered() {
		// From another sequence: its session is any of the account's.
		taught := *t
		other := "A"
		if taught.Actor == "A" {
			other = "B"
		}
		taught.Token, taught.OtherToken = SessionVar(taught.Actor), SessionVar(other)
		w.stepLines(taught)
		w.say(pStatus(200), pRemember(s.div.taughtPath, "taught"))
	}
	last := len(s.steps) - 1
	for i, st := range s.steps {
		if i == last && len(s.div.before) > 0 && s.div.read != nil {
			w.read(*s.div.read, s.div.before)
		}
		w.stepLines(st)
		w.lines = append(w.lines, line{mark: true, step: i})
		if i == last {
			if s.div.read != nil {
				w.read(*s.div.read, nil)
			}
			for _, e := range s.div.expect {
				w.expect(e)
			}
		}
	}
	var b strings.Builder
	if s.replay {
		fmt.Fprintf(&b, "# Written by %s: the requests of a recording, those the divergence does not need left out, that diverge from the reference.\n", command)
	} else {
		fmt.Fprintf(&b, "# Written by %s: the shortest sequence it found that diverges from the reference.\n", command)
	}
	b.WriteString("# It fails against the target it was found on and passes against a correct server; keep it with the\n")
	b.WriteString("# features a gate runs (pricing-contract --reproducers DIR), so that the divergence is never lost.\n")
	b.WriteString(strings.Join(tags, " ") + "\n")
	fmt.Fprintf(&b, "Feature: a divergence found by %s\n\n", command)
	fmt.Fprintf(&b, "  Scenario: %s\n", strings.ReplaceAll(s.reason, "\n", " "))
	if w.sessions {
		// The sessions each account had when the sequence began, opened
		// in the explorer's order.
		for _, acct := range []string{"A", "B"} {
			b.WriteString("    " + pLogInAsAccount(acct) + "\n")
			b.WriteString("    " + pRemember("token", SessionVar(acct).Name()) + "\n")
		}
	}
	w.write(&b, s.subst)
	return b.String()
}

// oneLine is s with its line breaks as spaces, for a comment.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// credLine is the line that sends a credential of an account, its session
// token the reproducer's variable tok.
func (w *script) credLine(c credPlace, account string, tok Var) string {
	key := AccountVar(account, "apiKey").Name()
	r := []string{"{key}", "{{" + key + "}}", "{KEY}", "{{upper:" + key + "}}"}
	if strings.Contains(c.value, "{token}") {
		r = append(r, "{token}", w.name(tok))
	}
	if strings.Contains(c.value, "{TOKEN}") {
		// A session in capitals is opened first; the value of an answer
		// in capitals is not remembered for it (it never was).
		if tok.Session() {
			w.named(tok)
		}
		r = append(r, "{TOKEN}", "{{upper:"+tok.Name()+"}}")
	}
	value := strings.NewReplacer(r...).Replace(c.value)
	if c.query {
		return pQuery(c.name, value)
	}
	return pHeader(c.name, value)
}

// stepLines adds the Given and When lines of one step, after a comment
// naming the recorded request it replays, if it replays one.
func (w *script) stepLines(st Step) {
	w.lines = append(w.lines, w.requestLines(st)...)
	if st.Op == OpLogin && plainLogin(st) {
		w.say(pLogInWith(st.Login[0], st.Login[1]))
		return
	}
	w.say(w.send(st))
}

// requestLines are the lines that prepare a step's request, all but the
// one that sends it (a login as the suite's own phrase sends it as well).
func (w *script) requestLines(st Step) []line {
	say := func(texts ...string) []line {
		out := make([]line, len(texts))
		for i, t := range texts {
			out[i] = line{text: t}
		}
		return out
	}
	l := say(pNotAuthenticated())
	if st.Recorded != "" {
		l = append(say("# "+oneLine(st.Recorded)), l...)
	}
	a := st.Actor
	if change, ok := nearMisses[st.Cred.Op]; ok && st.Op != OpLogin {
		l = say(pAccountNearMiss(a, st.Cred.Scheme, change))
	} else if st.Cred.Op == credPercentEncoded && st.Op != OpLogin {
		// The suite's own session of the account, sent as the operator
		// sent the explorer's.
		l = say(pAccountNearMiss(a, st.Cred.Scheme, "every character percent-encoded"))
	} else if c := placeOf(st.Cred); c.name != "" && st.Op != OpLogin {
		l = append(l, say(w.credLine(c, a, st.Token))...)
	}
	other, otherTok := "B", st.OtherToken
	if a == "B" {
		other = "A"
	}
	if b, whose := besidePlace(st.Cred); b.name != "" && whose == credBesideOther {
		l = append(l, say(w.credLine(b, other, otherTok))...)
	} else if b.name != "" {
		l = append(l, say(w.credLine(b, a, st.Token))...)
	}
	if st.Op == OpLogin && st.Cred.Op == credAtLogin.Name {
		l = append(l, say(w.credLine(placeOf(Cred{Scheme: st.Cred.Scheme}), other, otherTok))...)
	}
	if st.ContentType != "" {
		l = append(l, say(pContentType(st.ContentType))...)
	}
	if st.Accept != "" {
		l = append(l, say(pHeader("Accept", st.Accept))...)
	}
	if st.Chunked {
		l = append(l, say(pChunked())...)
	}
	if st.Op == OpLogin {
		if plainLogin(st) {
			return l
		}
		text := Step{Base: loginMembers(st.Login, nil), Wire: st.Wire}.Encode()
		return append(l, rawBody(text)...)
	}
	switch {
	case !st.Op.HasBody():
	case RawWire(st.Wire) || st.Wire == WirePretty:
		l = append(l, rawBody(st.Encode())...)
	case st.Wire == WireLarge:
		plain := st
		plain.Wire = ""
		l = append(l, jsonBody(plain.Encode())...)
		l = append(l, say(pFieldOfLength("contractPadding", LargePad))...)
	default:
		// A string longer than a Gherkin line holds is written by its
		// length: the suite's value is another, of the same length.
		long := st
		long.Muts = nil
		var after []string
		for _, m := range st.Muts {
			if v, ok := m.Value.(string); ok && len(v) > longString && !m.Remove {
				m.Value = ""
				after = append(after, pFieldOfLength(m.Field, len([]rune(v))))
			}
			long.Muts = append(long.Muts, m)
		}
		l = append(l, jsonBody(long.Encode())...)
		l = append(l, say(after...)...)
	}
	return l
}

// longString is the longest string a reproducer writes in its body; a line
// of Gherkin holds at most 64 KiB.
const longString = 4096

// send is the line that sends a step's request.
func (w *script) send(st Step) string {
	if st.Version != "" {
		return pSendUnder(st.Op.Method(), w.text(st.GherkinPath), st.Version)
	}
	return pSend(st.Op.Method(), w.text(st.GherkinPath))
}

// rawBody is a body as it is sent, in a doc string.
func rawBody(text string) []line {
	l := []line{{text: pRawBody()}, {text: `"""`, inner: true}}
	if text != "" {
		for _, t := range strings.Split(text, "\n") {
			l = append(l, line{text: t, inner: true})
		}
	}
	return append(l, line{text: `"""`, inner: true})
}

// jsonBody is a JSON body, indented, in a doc string.
func jsonBody(text string) []line {
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(text), "", "  "); err != nil {
		return rawBody(text)
	}
	l := []line{{text: pBody()}, {text: `"""`, inner: true}}
	for _, t := range strings.Split(out.String(), "\n") {
		l = append(l, line{text: t, inner: true})
	}
	return append(l, line{text: `"""`, inner: true})
}
