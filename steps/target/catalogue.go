package target

import (
	"fmt"
	"regexp"
	"strings"
)

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

// planWords are the words of the plans value, in the order a plan's flags
// are read (2.3: an app answers plan.isLite, isPro, isDynamic), with the
// flag each one sets; a plan of none of them is "none". The one reading of
// the flags: a profile's value, init's GET /plans and the suite's
// {{plans.N.isLite}} all go through it.
var planWords = []struct{ word, flag string }{{"lite", "isLite"}, {"pro", "isPro"}, {"dynamic", "isDynamic"}}

// planFlags are the words of the plans value and the flag each one sets.
var planFlags = func() map[string]string {
	m := map[string]string{"none": ""}
	for _, w := range planWords {
		m[w.word] = w.flag
	}
	return m
}()

// PlanWord is the word of the plans value for a plan whose flags are
// isSet(flag): the first of lite, pro, dynamic set, else none.
func PlanWord(isSet func(flag string) bool) string {
	for _, w := range planWords {
		if isSet(w.flag) {
			return w.word
		}
	}
	return "none"
}

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

// parseCatalogueOf reads the profile's catalogue value of key: as written
// by the user (id:word entries, at least two), or as Complete derived it
// from one id (a bare id, its word unknown).
func parseCatalogueOf(p Profile, key, raw string) ([]catalogueEntry, error) {
	if strings.HasPrefix(p.Origin(key), "derived from ") {
		return []catalogueEntry{{id: raw}}, nil
	}
	return parseCatalogue(raw, catalogueWords[key])
}
