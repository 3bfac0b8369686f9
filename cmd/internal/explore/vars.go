package explore

import (
	"fmt"
	"strings"
)

// What a reproducer names rather than writes. A value of the target that a
// later line needs (the id an earlier step's answer gave, an account's user
// id, the length of a list before the last step) is a variable of the suite
// ({{step1.id}}, {{A.userId}}, {{listedBefore}}): the stages that find such
// a value say which variable it is, as data, and the reproducer writes it
// and remembers each value of an answer that a line names.

// varKind is what a variable holds.
type varKind int

const (
	noVar      varKind = iota
	accountVar         // a value of an account: {{A.userId}}
	answerVar          // a value an earlier step's answer gave: {{step3.id}}
	sessionVar         // the session an account had when the sequence began: {{tokenA0}}
	namedVar           // a value the reproducer remembers by a name of its own: {{listedBefore}}
)

// Var is one variable of a reproducer; the zero Var is none.
type Var struct {
	kind    varKind
	account string // A or B: accountVar, sessionVar
	at      int    // the step (0 the first): answerVar
	field   string // the account's value, or the answer's field (a JSON path)
	name    string // namedVar
}

// AccountVar is an account's value as the suite's profile names it
// (userId, clientId, apiKey, email, password).
func AccountVar(account, field string) Var {
	return Var{kind: accountVar, account: account, field: field}
}

// AnswerVar is the value at field of the answer of step at (0 the first).
func AnswerVar(at int, field string) Var { return Var{kind: answerVar, at: at, field: field} }

// SessionVar is the session token an account had when the sequence began:
// the reproducer logs each account in first to know it.
func SessionVar(account string) Var { return Var{kind: sessionVar, account: account} }

// NamedVar is a value the reproducer remembers under a name of its own.
func NamedVar(name string) Var { return Var{kind: namedVar, name: name} }

// Set reports whether v is a variable at all.
func (v Var) Set() bool { return v.kind != noVar }

// Answer is the step and field of an answer's variable: ok is false for
// any other.
func (v Var) Answer() (at int, field string, ok bool) {
	return v.at, v.field, v.kind == answerVar
}

// Answered reports whether v is a value of an earlier step's answer.
func (v Var) Answered() bool { return v.kind == answerVar }

// Session reports whether v is the session an account began with.
func (v Var) Session() bool { return v.kind == sessionVar }

// Name is the variable's name in the suite.
func (v Var) Name() string {
	switch v.kind {
	case accountVar:
		return v.account + "." + v.field
	case answerVar:
		return fmt.Sprintf("step%d.%s", v.at+1, strings.ReplaceAll(v.field, ".", "_"))
	case sessionVar:
		return "token" + v.account + "0"
	case namedVar:
		return v.name
	}
	return ""
}

// Ref is the variable as a line of the suite writes it.
func (v Var) Ref() string { return "{{" + v.Name() + "}}" }

// Text is a text of a reproducer with at most one variable in it: Before,
// the variable, After ("/clients/{{step1.id}}/apps"); without a variable,
// Before is the whole text.
type Text struct {
	Before string
	Var    Var
	After  string
}

// Lit is a text without a variable.
func Lit(s string) Text { return Text{Before: s} }

// Of is a text that is a variable alone.
func Of(v Var) Text { return Text{Var: v} }

// String is the text as the reproducer writes it.
func (t Text) String() string {
	if !t.Var.Set() {
		return t.Before + t.After
	}
	return t.Before + t.Var.Ref() + t.After
}
