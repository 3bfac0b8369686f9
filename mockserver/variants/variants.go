// Package variants holds other implementations of the Pricing API, each made
// from the reference mock by a middleware in front of it that rewrites its
// requests or answers: correct ones that made another legal choice where the
// spec is silent (the contract suite must pass them), and wrong ones written
// for blind audits (the suite must fail them). The mutation tests, the
// explorer's tests and pricing-mock can all serve them; none of them is part
// of the mock's own behaviour.
package variants

import "net/http"

// Variant is one implementation made from the mock.
type Variant struct {
	Name string
	// Why is, for a legal variant, the sentence of the spec that allows it;
	// for a wrong one, the rule of the spec it breaks.
	Why string
	// Wrap puts the variant in front of next. It calls hit for every request
	// or answer it acts on (rewrites, refuses or, for a check, vets), so
	// that a test can tell a variant the run never reached from one it
	// passed.
	Wrap func(next http.Handler, hit func()) http.Handler
	// Profile is what a correct target profile says about this
	// implementation: profile-file keys of the suite (clients_per_user,
	// login_encoding, ...) and their values. Empty: the default profile.
	Profile map[string]string
}
