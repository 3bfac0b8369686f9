package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
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
	if (s.div.read != "" || len(s.div.opening) > 0) && !slices.Contains(tags, "@get-extensions") {
		tags = append(tags, "@get-extensions")
	}
	body := slices.Clone(s.div.opening)
	if t := s.div.taught; t != nil && !strings.Contains(t.gpath, "{{step") {
		// From another sequence: its session is any of the account's.
		taught := *t
		other := "A"
		if taught.Actor == "A" {
			other = "B"
		}
		taught.tokVar, taught.otherTokVar = "token"+taught.Actor+"0", "token"+other+"0"
		body = append(body, stepLines(taught)...)
		body = append(body, pStatus(200), pRemember(s.div.taughtPath, "taught"))
	}
	last := len(s.steps) - 1
	for i, st := range s.steps {
		if i == last && len(s.div.before) > 0 {
			body = append(body, pAccountUsingAPIKey(s.div.readAs), pReadExtension(s.div.read), pStatus(200))
			body = append(body, s.div.before...)
		}
		body = append(body, stepLines(st)...)
		body = append(body, fmt.Sprintf("@@remember %d@@", i))
		if i == last {
			if s.div.read != "" {
				body = append(body, pAccountUsingAPIKey(s.div.readAs), pReadExtension(s.div.read), pStatus(200))
			}
			for _, l := range s.div.then {
				body = append(body, strings.Split(l, "\n")...)
			}
		}
	}
	// Remember, after the step that answered it, each value a later line
	// names as {{stepN.field}}.
	wanted := map[int][]string{}
	for _, l := range body {
		for _, m := range rememberRE.FindAllStringSubmatch(l, -1) {
			var n int
			fmt.Sscan(m[1], &n)
			if !slices.Contains(wanted[n-1], m[2]) {
				wanted[n-1] = append(wanted[n-1], m[2])
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
	// The sessions each account had when the sequence began, opened in the
	// explorer's order.
	if text := strings.Join(body, "\n"); strings.Contains(text, "tokenA0}}") || strings.Contains(text, "tokenB0}}") {
		for _, acct := range []string{"A", "B"} {
			b.WriteString("    " + pLogInAsAccount(acct) + "\n")
			b.WriteString("    " + pRemember("token", "token"+acct+"0") + "\n")
		}
	}
	inDoc := false
	for _, l := range body {
		for value, placeholder := range s.subst {
			if len(value) >= 6 {
				l = strings.ReplaceAll(l, q(value), `"`+placeholder+`"`)
			}
		}
		if l == `"""` {
			inDoc = !inDoc
			b.WriteString("      " + l + "\n")
			continue
		}
		var n int
		if _, err := fmt.Sscanf(l, "@@remember %d@@", &n); err == nil {
			for _, f := range wanted[n] {
				b.WriteString("    " + pRemember(strings.ReplaceAll(f, "_", "."), fmt.Sprintf("step%d.%s", n+1, f)) + "\n")
			}
			continue
		}
		if inDoc || strings.HasPrefix(l, "|") {
			b.WriteString("      " + l + "\n")
			continue
		}
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// oneLine is s with its line breaks as spaces, for a comment.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var rememberRE = regexp.MustCompile(`\{\{step(\d+)\.(\w+)\}\}`)

// credLine is the line that sends a credential of an account, its session
// token the reproducer's variable tok.
func credLine(c credPlace, account, tok string) string {
	value := strings.NewReplacer("{key}", "{{"+account+".apiKey}}", "{token}", "{{"+tok+"}}",
		"{KEY}", "{{upper:"+account+".apiKey}}", "{TOKEN}", "{{upper:"+tok+"}}").Replace(c.value)
	if c.query {
		return pQuery(c.name, value)
	}
	return pHeader(c.name, value)
}

// stepLines are the Given and When lines of one step, after a comment
// naming the recorded request it replays, if it replays one.
func stepLines(st Step) []string {
	l := []string{pNotAuthenticated()}
	if st.Recorded != "" {
		l = append([]string{"# " + oneLine(st.Recorded)}, l...)
	}
	a := st.Actor
	if change, ok := nearMisses[st.Cred.Op]; ok && st.Op != OpLogin {
		l = []string{pAccountNearMiss(a, st.Cred.Scheme, change)}
	} else if c := credential(st.Cred); c.name != "" && st.Op != OpLogin {
		l = append(l, credLine(c, a, st.tokVar))
	}
	other, otherTok := "B", st.otherTokVar
	if a == "B" {
		other = "A"
	}
	if b, whose := beside(st.Cred); b.name != "" && whose == credBesideOther {
		l = append(l, credLine(b, other, otherTok))
	} else if b.name != "" {
		l = append(l, credLine(b, a, st.tokVar))
	}
	if st.Op == OpLogin && st.Cred.Op == credAtLogin.Name {
		l = append(l, credLine(credential(Cred{Scheme: st.Cred.Scheme}), other, otherTok))
	}
	if st.ContentType != "" {
		l = append(l, pContentType(st.ContentType))
	}
	if st.Accept != "" {
		l = append(l, pHeader("Accept", st.Accept))
	}
	if st.Chunked {
		l = append(l, pChunked())
	}
	if st.Op == OpLogin {
		if st.Wire == "" {
			return append(l, pLogInWith(st.Login[0], st.Login[1]))
		}
		text := Step{Base: map[string]any{"email": st.Login[0], "password": st.Login[1]}, Wire: st.Wire}.encode()
		l = append(l, rawBody(text)...)
		return append(l, send(st)...)
	}
	switch {
	case !st.Op.hasBody():
	case rawWire(st.Wire) || st.Wire == wirePretty:
		l = append(l, rawBody(st.encode())...)
	case st.Wire == wireLarge:
		plain := st
		plain.Wire = ""
		l = append(l, jsonBody(plain.encode())...)
		l = append(l, pFieldOfLength("contractPadding", largePad))
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
		l = append(l, jsonBody(long.encode())...)
		l = append(l, after...)
	}
	return append(l, send(st)...)
}

// longString is the longest string a reproducer writes in its body; a line
// of Gherkin holds at most 64 KiB.
const longString = 4096

func send(st Step) []string {
	if st.Version != "" {
		return []string{pSendUnder(st.Op.method(), st.gpath, st.Version)}
	}
	return []string{pSend(st.Op.method(), st.gpath)}
}

func rawBody(text string) []string {
	l := []string{pRawBody(), `"""`}
	if text != "" {
		l = append(l, strings.Split(text, "\n")...)
	}
	return append(l, `"""`)
}

func jsonBody(text string) []string {
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(text), "", "  "); err != nil {
		return rawBody(text)
	}
	return append(append([]string{pBody(), `"""`}, strings.Split(out.String(), "\n")...), `"""`)
}
