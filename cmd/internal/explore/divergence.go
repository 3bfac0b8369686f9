package explore

import (
	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
)

// divergence is where a target departs from the reference, as data: what
// found it and why, and the facts a reproducer needs to show it again.
// Only the reproducer (reproducer.go) says them in the suite's phrases.
type divergence struct {
	// check is the judgement that found it, which the spec decides
	// (policy.Check): the reason ends with its cite.
	check policy.Check
	// key names the kind of difference (a status, a field, the errors, a
	// date), so that one defect found twice is reported once.
	key    string
	reason string
	// detail follows the reason on lines of its own (the timeline of a
	// history); "" none.
	detail string
	// expect is what the reproducer asserts of the reference's answer,
	// after the request that diverged (or after a read of the state).
	expect []expect
	// read is the read of the state that showed it (nil: the step's own
	// answer). before are values the reproducer remembers from the same
	// read made before the last step (a list's length).
	read   *stateRead
	before []remembered
	// taught is a request sent first, whose answer's value at taughtPath
	// the reproducer remembers as "taught": a value the reference cannot
	// know, which two answers give differently.
	taught     *Step
	taughtPath string
	// opening is a read the reproducer makes before the sequence: of the
	// state the sequence began with, which later lines name.
	opening *stateRead
	// clock: the reproducer first logs in once the target's clock has
	// moved on a second, and remembers the session's date as "clock", a
	// date of the target's clock before the sequence (expectNoEarlier).
	clock bool
}

// text is the reason with its detail.
func (d *divergence) text() string {
	if d.detail == "" {
		return d.reason
	}
	return d.reason + "\n" + d.detail
}

// stateRead is a GET of the target's state by an account (its api key),
// answered 200 where the target has that read extension, and the values
// the reproducer remembers from it.
type stateRead struct {
	path     Text
	as       string
	remember []remembered
	// anyStatus: the read is a probe, whatever it is answered.
	anyStatus bool
}

// remembered is a value of an answer the reproducer remembers under a name.
type remembered struct{ path, name string }

// remember sets the values the reproducer remembers from the same read made
// before the last step; nothing for no divergence.
func (d *divergence) remember(r ...remembered) {
	if d != nil {
		d.before = r
	}
}

// diverged is a divergence of a check, or nil where the check is silent:
// whatever the target answered there is its choice.
func diverged(check policy.Check, key, reason string, expect ...expect) *divergence {
	if check.Silent() {
		return nil
	}
	return &divergence{check: check, key: key, reason: reason, expect: expect}
}

// expectKind is what an expectation asserts of an answer.
type expectKind int

const (
	expectStatus      expectKind = iota // its status is one of statuses (or any 4xx but 401)
	expectJSON                          // its body is JSON
	expectErrorsShape                   // its body is an error array of 7.1: element's member a string (a non-empty one, nonEmpty)
	expectType                          // the JSON at path is of type typ
	expectPattern                       // the JSON at path matches the pattern value
	expectIs                            // the JSON at path is value (JSON)
	expectDiffers                       // the JSON at path differs from value (JSON)
	expectNull                          // the JSON at path is null
	expectAbsent                        // there is nothing at path
	expectPresent                       // there is something at path
	expectSameInstant                   // the date at path names the instant value names
	expectWithinSkew                    // the date at path is now, within the clock skew
	expectNoEarlier                     // the date at path names an instant no earlier than value
	expectNamesField                    // the errors name the field value
	expectNamesOnly                     // the errors name fields and no other
	expectCode                          // the errors carry code for the field value
	expectNoPassword                    // the answer carries not the password value
	expectNoText                        // the answer carries not the text value
)

// expect is one thing the reproducer asserts of an answer: what the
// reference answers there.
type expect struct {
	kind     expectKind
	path     Text
	value    Text
	typ      string
	fields   []string
	code     string
	statuses []int
	any4xx   bool
	// element and member: the element of an error array (-1 none) and its
	// member that must be a string, non-empty unless anyString.
	element   int
	member    string
	anyString bool
}

func expectStatuses(statuses []int, any4xx bool) expect {
	return expect{kind: expectStatus, statuses: statuses, any4xx: any4xx}
}

func expectAt(kind expectKind, path string) expect { return expect{kind: kind, path: Lit(path)} }

func expectValue(kind expectKind, path string, value Text) expect {
	return expect{kind: kind, path: Lit(path), value: value}
}

func expectTyped(path, typ string) expect { return expect{kind: expectType, path: Lit(path), typ: typ} }
