package steps

import (
	"context"
	"net/http"
	"regexp"
)

// The surface the pricing-contract command (cmd/internal/contract) uses:
// what a run of the suite needs of the vocabulary, and nothing of how it
// works.

// SeedHeader is the header a pricing-mock names its seed in.
const SeedHeader = seedHeader

// MinCatalogue is how many entries a catalogue value of the profile lists
// at least.
const MinCatalogue = minCatalogue

// ProfileKey describes one key of the target profile.
type ProfileKey struct {
	Key, Env, Default string
	// Seed: a value of the mock's seed, not the same on another target.
	Seed bool
	// Question is, for a choice where the spec is silent, what it answers.
	Question string
}

// ProfileKeys lists the keys of the target profile in the order of the
// README's table.
func ProfileKeys() []ProfileKey {
	out := make([]ProfileKey, 0, len(profileFields))
	for _, f := range profileFields {
		out = append(out, ProfileKey{Key: f.key, Env: f.env, Default: f.def, Seed: seedKeys[f.key], Question: choiceKeys[f.key]})
	}
	return out
}

// CheckProfileValue reports why v is no value of key, or nil.
func CheckProfileValue(key, v string) error {
	f, ok := lookupField(key)
	if !ok || f.check == nil {
		return nil
	}
	return f.check(v)
}

// LookupProfileKey is the key of a profile-file key.
func LookupProfileKey(key string) (ProfileKey, bool) {
	for _, k := range ProfileKeys() {
		if k.Key == key {
			return k, true
		}
	}
	return ProfileKey{}, false
}

// TagFilter is the godog tag expression of a run: the user's expression
// and, unless reference scenarios are wanted, ~@reference.
func TagFilter(user string, reference bool) (string, error) { return tagFilter(user, reference) }

// CheckTags refuses a tag expression godog would mismatch.
func CheckTags(expr string) error { return checkTags(expr) }

// IsCurrencyCode and IsHash40 check a word of the currencies value and a
// marketplace hash.
func IsCurrencyCode(s string) bool { return currencyCode.MatchString(s) }
func IsHash40(s string) bool       { return hash40.MatchString(s) }

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

// NewTargetWatch is the transport of a run: the default one, counting
// transport errors in a row, which after downAfter of them calls onDown
// once with ErrTargetDown and fails every later request at once.
func NewTargetWatch(onDown func(error)) http.RoundTripper {
	return &targetWatch{next: defaultTransport, onDown: onDown}
}

// MissingSummary groups the errors of skipped scenarios by the profile
// value they missed: one line per key.
func MissingSummary(errs []string) []string { return missingSummary(errs) }

// ProfileErrors reads the failures' errors: one line per refused profile
// value when every failure is one, else none.
func ProfileErrors(errs []string) []string { return profileErrors(errs) }

// SpecStatuses are the statuses the spec names for an endpoint.
func SpecStatuses(endpoint string) []int { return specStatuses[endpoint] }

// CoverageGap is a status the spec names for an endpoint that no scenario
// received, and why.
type CoverageGap = coverageGap

// GapFor is the gap of an endpoint's status asked for asked times.
func GapFor(endpoint, status string, asked int) CoverageGap { return gapFor(endpoint, status, asked) }

// Mark and Class are how the reports show a gap.
func (g coverageGap) Mark() string  { return g.mark() }
func (g coverageGap) Class() string { return g.class() }

// CheckBaseURLValue reports why v is no base URL of a target, or nil.
func CheckBaseURLValue(v string) error { return checkBaseURL(v) }
