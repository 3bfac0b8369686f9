package steps

import (
	"context"
	"net/http"
	"regexp"

	"github.com/pricing-contract/pricing-contract/steps/target"
)

// The surface the pricing-contract command (cmd/internal/contract) uses:
// what a run of the suite needs of the vocabulary, and nothing of how it
// works.

// SeedHeader is the header a pricing-mock names its seed in.
const SeedHeader = seedHeader

// The target profile, for the programs that take one (pricing-contract,
// mocktest): the type of the step library's target.
type (
	Profile     = target.Profile
	AccountPair = target.AccountPair
)

// LoadProfile, LoadProfileOnly, LoadFlags and ProfileFromEnv read a
// profile: see package target.
var (
	LoadProfile     = target.LoadProfile
	LoadProfileOnly = target.LoadProfileOnly
	LoadFlags       = target.LoadFlags
	ProfileFromEnv  = target.ProfileFromEnv
)

// NearMiss is a secret changed as the phrase "... with <change>" changes
// it (its last character changed, ...): the explorer sends the same value
// its reproducers ask the suite for. taken reports a secret of another
// account, which the result never is.
func NearMiss(secret, change string, taken func(string) bool) string {
	return nearMiss(secret, change, taken)
}

// PercentEncodeAll is a value with every byte written %HH, as the phrase
// "... using the sessionToken query with every character percent-encoded"
// sends the token: the explorer sends what its reproducers ask for.
func PercentEncodeAll(s string) string { return percentEncodeAll(s) }

// Placeholder matches a {{name}} of a step argument.
var Placeholder *regexp.Regexp = placeholder

// PairOf is the number of the pair of accounts a scenario ran on (1 for
// the first), or 0 when it took none; ctx is the scenario's context.
func PairOf(ctx context.Context) int {
	st, err := stateFromContext(ctx)
	if err != nil || st.pair == nil {
		return 0
	}
	return st.pair.n
}

// NewTargetWatch is the transport of a run: next (the transport of
// target.NewClient), counting transport errors in a row, which after
// downAfter of them calls onDown once with ErrTargetDown and fails every
// later request at once.
func NewTargetWatch(next http.RoundTripper, onDown func(error)) http.RoundTripper {
	return &targetWatch{next: next, onDown: onDown}
}

// MissingSummary groups the errors of skipped scenarios by the profile
// value they missed: one line per key.
func MissingSummary(errs []string) []string { return missingSummary(errs) }

// ProfileErrors reads the failures' errors: one line per refused profile
// value when every failure is one, else none.
func ProfileErrors(errs []string) []string { return profileErrors(errs) }

// Profile is the suite's profile of its target, completed once the
// preflight (or Identify) has known the target.
func (s *Suite) Profile() Profile { return s.profile }
