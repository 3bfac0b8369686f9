package target

import "strings"

// The surface of the profile for the step vocabulary and the commands.

// Value is the profile's value for a profile-file key: the field, its
// default for a Profile built by hand, "" for a seed value the target's
// profile does not give (Missing); false for an unknown key.
func (p Profile) Value(key string) (string, bool) { return p.value(key) }

// MustValue is Value for a key the caller names itself; it panics on an
// unknown key.
func (p Profile) MustValue(key string) string { return p.mustValue(key) }

// Holds reports whether the profile holds a condition key=value.
func (p Profile) Holds(cond string) (bool, error) { return p.holds(cond) }

// AccountPairs is every pair of accounts, pair 1 first.
func (p Profile) AccountPairs() []AccountPair { return p.accountPairs() }

// Loaded reports whether the profile came from LoadProfile (its seed
// values wait for Complete), not built by hand.
func (p Profile) Loaded() bool { return p.origin != nil }

// SeedDefaultsMode is seed_defaults: auto, mock or none.
func (p Profile) SeedDefaultsMode() string { return p.seedDefaultsMode() }

// OriginDefault is the Origin of a value left at its default.
const OriginDefault = originDefault

// KnownKeys lists the profile-file keys, for messages.
func KnownKeys() string { return knownKeys() }

// PairVar is the environment variable of pair n's value of key.
func PairVar(key string, n int) string { return pairVar(key, n) }

// Field is one key of the profile.
type Field struct {
	Key, Env, Default string
	Seed              bool   // a value of the mock's seed (Complete)
	Question          string // for a choice where the spec is silent
}

// Fields lists the profile's keys in the order of the README's table.
func Fields() []Field {
	out := make([]Field, 0, len(profileFields))
	for _, f := range profileFields {
		out = append(out, Field{Key: f.key, Env: f.env, Default: f.def, Seed: seedKeys[f.key], Question: choiceKeys[f.key]})
	}
	return out
}

// Lookup is the Field of a profile-file key.
func Lookup(key string) (Field, bool) {
	for _, f := range Fields() {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// Check reports why v is no value of key, or nil.
func Check(key, v string) error {
	f, ok := lookupField(key)
	if !ok || f.check == nil {
		return nil
	}
	return f.check(v)
}

// IsChoice reports whether key records a reading where the spec is silent.
func IsChoice(key string) bool { _, ok := choiceKeys[key]; return ok }

// Question is what a choice key answers.
func Question(key string) string { return choiceKeys[key] }

// TagFilter and CheckTags: see tagFilter and checkTags.
func TagFilter(user string, reference bool) (string, error) { return tagFilter(user, reference) }
func CheckTags(expr string) error                           { return checkTags(expr) }

// Listed reports whether a comma-separated list holds item.
func Listed(list, item string) bool { return listed(list, item) }

// CheckID, CheckBaseURL: the checks of an id and a base URL.
func CheckID(v string) error      { return checkID(v) }
func CheckBaseURL(v string) error { return checkBaseURL(v) }

// IsHash40 and IsCurrencyCode check a marketplace hash and a currency code.
func IsHash40(s string) bool       { return hash40.MatchString(s) }
func IsCurrencyCode(s string) bool { return currencyCode.MatchString(s) }

// MinCatalogue is how many entries a catalogue value lists at least.
const MinCatalogue = minCatalogue

// Entry is one id:word item of a catalogue value; Word is "" when the
// value was derived from one id.
type Entry struct{ ID, Word string }

// Catalogue reads the profile's catalogue value of key (currencies, plans,
// platforms), given or derived.
func (p Profile) Catalogue(key, raw string) ([]Entry, error) {
	es, err := parseCatalogueOf(p, key, raw)
	out := make([]Entry, len(es))
	for i, e := range es {
		out[i] = Entry{ID: e.id, Word: e.word}
	}
	return out, err
}

// PlanFlag is the flag a plans word sets (isLite, isPro, isDynamic), ""
// for none.
func PlanFlag(word string) string { return planFlags[strings.TrimSpace(word)] }

// FillSeedNames gives a Profile built by hand the seed's names and
// timezones where it has none.
func FillSeedNames(p *Profile) {
	for _, n := range seedNames {
		if f := n.field(p); *f == "" {
			*f = n.def
		}
	}
}

// SeedEnv renders what the profile says of a seed as PRICING_* variables
// ("NAME=value"): the base URL, the accounts, ids, names, phones and
// catalogues (the seed keys, and account A's phone), in the order of the
// README's table, then the pairs of the pool. pricing-mock --print-env
// prints it; the choices and realistic values are left to their defaults.
func (p Profile) SeedEnv() []string {
	var env []string
	for _, f := range profileFields {
		if f.key != "base_url" && !seedKeys[f.key] && f.key != "phone_number" && f.key != "phone_extension" {
			continue
		}
		if v := *f.field(&p); v != "" {
			env = append(env, f.env+"="+v)
		}
	}
	for i, pr := range p.Pairs {
		for _, f := range pairFields {
			env = append(env, pairVar(f.key, i+2)+"="+*f.field(&pr))
		}
	}
	return env
}
