package steps

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/steps/target"
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

// catalogueValue resolves "<n>.<field>" of the catalogue list: the nth
// entry (from 1) of the profile's value.
func catalogueValue(p Profile, list, rest string) (value, error) {
	name := list + "." + rest
	pos, field, ok := strings.Cut(rest, ".")
	n, err := strconv.Atoi(pos)
	if !ok || err != nil || n < 1 {
		return value{}, fmt.Errorf("{{%s}}: write {{%s.N.field}} with N the position of an entry, from 1", name, list)
	}
	key := catalogueKeys[list]
	raw, err := profileText(p, key)
	if err != nil {
		return value{}, &missingValue{key: key, need: fmt.Sprintf("%d of the target's %s", max(n, target.MinCatalogue), list)}
	}
	entries, err := p.Catalogue(key, raw)
	if err != nil {
		return value{}, fmt.Errorf("{{%s}}: the profile's %s: %w", name, list, err)
	}
	if n > len(entries) {
		// Only a list derived from one id is this short (Complete).
		return value{}, &missingValue{key: key, need: fmt.Sprintf("%d of the target's %s (the profile gives %d)", n, list, len(entries))}
	}
	e := entries[n-1]
	if field != "id" && e.Word == "" {
		return value{}, &missingValue{key: key, need: fmt.Sprintf("what entry %s of %s is (id:word)", e.ID, list)}
	}
	switch {
	case field == "id":
		return value{text: e.ID, json: true}, nil
	case list == "currencies" && field == "code", list == "platforms" && field == "name":
		return value{text: e.Word}, nil
	case list == "plans" && (field == "isLite" || field == "isPro" || field == "isDynamic"):
		return value{text: strconv.FormatBool(target.PlanFlag(e.Word) == field), json: true}, nil
	}
	return value{}, fmt.Errorf("{{%s}}: unknown field %q (known: id, and code of currencies, name of platforms, isLite, isPro and isDynamic of plans)", name, field)
}
