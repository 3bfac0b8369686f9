package steps

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The catalogue values of the profile list what a target offers of each
// catalogue, at least two of each, so that a server that ignores currency.id,
// nextplan.id or platform.id (and always uses its first entry) is caught:
//
//	currencies = 1:GBP,2:EUR,3:USD       the id of each billing currency and its code
//	plans      = 1:lite,2:pro,3:dynamic  what an app created with nextplan.id answers:
//	                                     which of plan.isLite, isPro, isDynamic is true
//	                                     (none: all three false)
//	platforms  = 1:Android,2:iOS         the id of each platform and its name
//
// An app answers plan flags, not a plan id (2.3), so the plans value says
// what the spec lets a scenario observe of each id. Scenarios name an entry
// by its position, from 1: {{currencies.2.id}}, {{currencies.2.code}},
// {{plans.2.id}}, {{plans.2.isLite}} (a JSON boolean, as are isPro and
// isDynamic), {{platforms.2.id}}, {{platforms.2.name}}.

// catalogueKeys are the catalogue lists by variable name, with their
// profile-file keys.
var catalogueKeys = map[string]string{"currencies": "currencies", "plans": "plans", "platforms": "platforms"}

// catalogueEntry is one id:word item of a catalogue value.
type catalogueEntry struct{ id, word string }

// minCatalogue is how many entries a catalogue value lists at least.
const minCatalogue = 2

var catalogueItem = regexp.MustCompile(`^([0-9]+):([A-Za-z]+)$`)

// parseCatalogue reads a comma-separated list of id:word entries, words
// checked by word; it needs at least minCatalogue entries with distinct ids.
func parseCatalogue(v string, word func(string) error) ([]catalogueEntry, error) {
	var out []catalogueEntry
	seen := map[string]bool{}
	for _, item := range strings.Split(v, ",") {
		m := catalogueItem.FindStringSubmatch(strings.TrimSpace(item))
		if m == nil {
			return nil, fmt.Errorf("%q is not a comma-separated list of id:word entries such as 1:GBP,2:EUR", v)
		}
		if err := checkID(m[1]); err != nil {
			return nil, err
		}
		if seen[m[1]] {
			return nil, fmt.Errorf("%q lists the id %s twice", v, m[1])
		}
		seen[m[1]] = true
		if err := word(m[2]); err != nil {
			return nil, fmt.Errorf("%q: %v", v, err)
		}
		out = append(out, catalogueEntry{m[1], m[2]})
	}
	if len(out) < minCatalogue {
		return nil, fmt.Errorf("%q lists %d entries; at least %d are needed, so that a server that ignores the id is caught", v, len(out), minCatalogue)
	}
	return out, nil
}

var currencyCode = regexp.MustCompile(`^[A-Za-z]{3}$`)

func currencyWord(w string) error {
	if !currencyCode.MatchString(w) {
		return fmt.Errorf("%q is not a three-letter currency code", w)
	}
	return nil
}

// planFlags are the words of the plans value and the flag each one sets.
var planFlags = map[string]string{"lite": "isLite", "pro": "isPro", "dynamic": "isDynamic", "none": ""}

func planWord(w string) error {
	if _, ok := planFlags[w]; !ok {
		return fmt.Errorf("%q is not lite, pro, dynamic or none", w)
	}
	return nil
}

func platformWord(w string) error {
	if w != "Android" && w != "iOS" {
		return fmt.Errorf("%q is not Android or iOS (2.3)", w)
	}
	return nil
}

func checkCurrencies(v string) error { _, err := parseCatalogue(v, currencyWord); return err }
func checkPlans(v string) error      { _, err := parseCatalogue(v, planWord); return err }
func checkPlatforms(v string) error  { _, err := parseCatalogue(v, platformWord); return err }

var catalogueWords = map[string]func(string) error{"currencies": currencyWord, "plans": planWord, "platforms": platformWord}

// catalogueValue resolves "<n>.<field>" of the catalogue list: the nth
// entry (from 1) of the profile's value.
func (p Profile) catalogueValue(list, rest string) (value, error) {
	name := list + "." + rest
	pos, field, ok := strings.Cut(rest, ".")
	n, err := strconv.Atoi(pos)
	if !ok || err != nil || n < 1 {
		return value{}, fmt.Errorf("{{%s}}: write {{%s.N.field}} with N the position of an entry, from 1", name, list)
	}
	key := catalogueKeys[list]
	raw, err := p.profileText(key)
	if err != nil {
		return value{}, &missingValue{key: key, need: fmt.Sprintf("%d of the target's %s", max(n, minCatalogue), list)}
	}
	entries, err := parseCatalogueOf(p, key, raw)
	if err != nil {
		return value{}, fmt.Errorf("{{%s}}: the profile's %s: %w", name, list, err)
	}
	if n > len(entries) {
		// Only a list derived from one id is this short (Complete).
		return value{}, &missingValue{key: key, need: fmt.Sprintf("%d of the target's %s (the profile gives %d)", n, list, len(entries))}
	}
	e := entries[n-1]
	if field != "id" && e.word == "" {
		return value{}, &missingValue{key: key, need: fmt.Sprintf("what entry %s of %s is (id:word)", e.id, list)}
	}
	switch {
	case field == "id":
		return value{text: e.id, json: true}, nil
	case list == "currencies" && field == "code", list == "platforms" && field == "name":
		return value{text: e.word}, nil
	case list == "plans" && (field == "isLite" || field == "isPro" || field == "isDynamic"):
		return value{text: strconv.FormatBool(planFlags[e.word] == field), json: true}, nil
	}
	return value{}, fmt.Errorf("{{%s}}: unknown field %q (known: id, and code of currencies, name of platforms, isLite, isPro and isDynamic of plans)", name, field)
}

// parseCatalogueOf reads the profile's catalogue value of key: as written
// by the user (id:word entries, at least two), or as Complete derived it
// from one id (a bare id, its word unknown).
func parseCatalogueOf(p Profile, key, raw string) ([]catalogueEntry, error) {
	if strings.HasPrefix(p.Origin(key), "derived from ") {
		return []catalogueEntry{{id: raw}}, nil
	}
	return parseCatalogue(raw, catalogueWords[key])
}
