package explore

import (
	"fmt"
	"slices"
	"strings"
)

// script is a reproducer's scenario as it is written: its lines, and the
// variables they name, kept as they are named, so that the value of an
// answer a line names is remembered right after the step that answered it,
// and the sessions the accounts began with are opened before the first
// step that names one.
type script struct {
	lines []line
	// answers are the variables of answers the lines name, by step, in the
	// order first named.
	answers  map[int][]Var
	sessions bool // a line names the session an account began with
}

// line is one line of a scenario: a step, or (inner) a line of a doc
// string or of a table, indented below its step; or, mark, the place where
// the values of step's answer are remembered.
type line struct {
	text  string
	inner bool
	mark  bool
	step  int
}

func newScript() *script { return &script{answers: map[int][]Var{}} }

// say adds steps' lines.
func (w *script) say(texts ...string) {
	for _, t := range texts {
		w.lines = append(w.lines, line{text: t})
	}
}

// name is a variable as a line writes it, noted as named.
func (w *script) name(v Var) string {
	w.named(v)
	return v.Ref()
}

func (w *script) named(v Var) {
	if at, _, ok := v.Answer(); ok && !slices.Contains(w.answers[at], v) {
		w.answers[at] = append(w.answers[at], v)
	}
	if v.Session() {
		w.sessions = true
	}
}

// text is a text as a line writes it, its variable noted as named.
func (w *script) text(t Text) string {
	if t.Var.Set() {
		w.named(t.Var)
	}
	return t.String()
}

// read adds a GET of the target's state, answered 200, and the values the
// reproducer remembers of it.
func (w *script) read(r stateRead, remember []remembered) {
	if r.anyStatus {
		// A probe: whatever the answer, it is judged.
		w.say(pAccountUsingAPIKey(r.as), pSend("GET", w.text(r.path)))
		return
	}
	w.say(pAccountUsingAPIKey(r.as), pReadExtension(w.text(r.path)), pStatus(200))
	for _, m := range remember {
		w.say(pRemember(m.path, m.name))
	}
}

// expect adds the lines that assert an expectation.
func (w *script) expect(e expect) {
	path := w.text(e.path)
	value := w.text(e.value)
	switch e.kind {
	case expectStatus:
		w.status(e.statuses, e.any4xx)
	case expectJSON:
		w.say(pIsJSON())
	case expectErrorsShape:
		w.say(pMatchesShape("errors"))
		if e.element < 0 {
			return
		}
		at := fmt.Sprintf("%d.%s", e.element, e.member)
		if e.anyString {
			w.say(pJSONIsType(at, "string"))
		} else {
			w.say(and(pJSONMatches(at, `\S`)))
		}
	case expectType:
		w.say(pJSONIsType(path, e.typ))
	case expectPattern:
		w.say(pJSONMatches(path, value))
	case expectIs:
		w.say(pJSONIs(path, value))
	case expectDiffers:
		w.say(pJSONDiffers(path, value))
	case expectNull:
		w.say(pJSONIsNull(path))
	case expectAbsent:
		w.say(pJSONAbsent(path))
	case expectPresent:
		w.say(pJSONPresent(path))
	case expectSameInstant:
		w.say(pSameInstant(path, value))
	case expectWithinSkew:
		w.say(pWithinSkew(path))
	case expectNoEarlier:
		w.say(pNoEarlier(path, value))
	case expectNamesField:
		w.say(pNamesField(value))
	case expectNamesOnly:
		w.say(pNamesOnly(e.fields))
	case expectCode:
		w.say(pIncludesCode(e.code, value))
	case expectNoPassword:
		w.say(pNoPassword(value))
	case expectNoText:
		w.say(pNoText(value))
	}
}

// status adds the phrase for the statuses the reference allows, and any
// 4xx but 401 where any4xx.
func (w *script) status(statuses []int, any4xx bool) {
	has200, has401 := slices.Contains(statuses, 200), slices.Contains(statuses, 401)
	switch {
	case any4xx && has200 && !has401:
		w.say(pStatus200Or4xxNot401())
	case any4xx && !has200 && !has401:
		w.say(pStatus4xxNot401())
	case any4xx && !has200:
		w.say(pStatusClass())
	case any4xx:
		w.say(pStatus200Or4xxNot401()) // 401 too: no phrase says it; the reproducer shows the rest
	case len(statuses) == 1:
		w.say(pStatus(statuses[0]))
	case len(statuses) == 2:
		w.say(pStatusEither(statuses[0], statuses[1]))
	default:
		table := pOneOf(statuses)
		w.say(table[0])
		for _, row := range table[1:] {
			w.lines = append(w.lines, line{text: row, inner: true})
		}
	}
}

// write writes the lines as a scenario's steps, each line whose quoted
// argument is a secret of subst (an email, a password, an api key) with
// its placeholder, and the values of each step's answer that later lines
// name remembered after it.
func (w *script) write(b *strings.Builder, subst map[string]string) {
	for _, l := range w.lines {
		if l.mark {
			for _, v := range w.answers[l.step] {
				_, field, _ := v.Answer()
				b.WriteString("    " + pRemember(field, v.Name()) + "\n")
			}
			continue
		}
		text := l.text
		for value, placeholder := range subst {
			if len(value) >= 6 {
				text = strings.ReplaceAll(text, q(value), `"`+placeholder+`"`)
			}
		}
		if l.inner {
			b.WriteString("      " + text + "\n")
			continue
		}
		b.WriteString("    " + text + "\n")
	}
}
