package target

import (
	"strings"

	"github.com/tidwall/gjson"
)

// SeedHeader is the header a pricing-mock names its seed in: "default"
// for the embedded seed, whose values are the profile's defaults.
const SeedHeader = "Pricing-Mock-Seed"

// Catalogues is what a target's collections list of its catalogues, each
// entry as a profile's value writes it (id:word): the platforms (2.3: named
// Android or iOS), the billing currencies (a three-letter code), the plans
// (the word of their flags, PlanWord) and the phone countries (their dial
// code).
type Catalogues struct {
	Platforms, Currencies, Plans, PhoneCountries []Entry
	// Paths are where each was read, by its profile key.
	Paths map[string]string
	// PlansByName: the plans showed no flags, and their words are their
	// names (Lite, Pro, Dynamic: the flags 2.3 names), which a profile's
	// author confirms.
	PlansByName bool
}

// collectionPaths are the paths a catalogue is looked for at besides the
// platforms collection's: the mock's read extensions, and the spellings
// other targets choose (kebab-case, another name for the plans).
var collectionPaths = []string{"/currencies", "/plans", "/phoneCountries", "/subscription-plans", "/subscriptionPlans",
	"/phone-countries", "/phonecountries", "/subscriptions/plans"}

// ReadCatalogues reads the catalogues a target shows: the spec's platforms
// collection at platformsPath, and collections at the paths an index at
// the base URL lists (a JSON answer whose strings are paths) and at the
// usual others (collectionPaths). A collection is known by the shape of its
// items, wherever its array is in the answer: a platform has an id and the
// name Android or iOS, a currency an id and a three-letter code, a plan an
// id and the flags isLite, isPro, isDynamic, a phone country an id and a
// dialCode. get reads a path below the base URL ("" the base URL itself)
// and gives the JSON of a 200 answer, false for any other.
func ReadCatalogues(get func(path string) (gjson.Result, bool), platformsPath string) Catalogues {
	c := Catalogues{Paths: map[string]string{}}
	paths := append([]string{platformsPath}, collectionPaths...)
	if v, ok := get(""); ok {
		paths = append(paths, listedPaths(v, 0)...)
	}
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		v, ok := get(p)
		if !ok {
			continue
		}
		for _, list := range arraysOf(v, 0) {
			c.add(p, list)
		}
	}
	return c
}

// add takes the items of one array of a collection at path p, by their
// shape, where no other path gave that catalogue.
func (c *Catalogues) add(p string, list []gjson.Result) {
	var platforms, currencies, plans, named, phones []Entry
	for _, it := range list {
		id := it.Get("id")
		if id.Type != gjson.Number {
			continue
		}
		switch name := it.Get("name").String(); {
		case it.Get("isLite").IsBool() || it.Get("isPro").IsBool() || it.Get("isDynamic").IsBool():
			plans = append(plans, Entry{ID: id.Raw, Word: PlanWord(func(flag string) bool { return it.Get(flag).Bool() })})
		case it.Get("dialCode").Exists():
			phones = append(phones, Entry{ID: id.Raw, Word: it.Get("dialCode").String()})
		case IsCurrencyCode(it.Get("code").String()):
			currencies = append(currencies, Entry{ID: id.Raw, Word: it.Get("code").String()})
		case platformWord(name) == nil:
			platforms = append(platforms, Entry{ID: id.Raw, Word: name})
		case planNamed(name) != "":
			named = append(named, Entry{ID: id.Raw, Word: planNamed(name)})
		}
	}
	if len(plans) == 0 && len(named) > 0 && len(c.Plans) == 0 {
		// A catalogue of plans shown by name alone (2.5: its fields are
		// not shown beyond the ids).
		plans, c.PlansByName = named, true
	}
	for _, l := range []struct {
		key     string
		into    *[]Entry
		entries []Entry
	}{{"platforms", &c.Platforms, platforms}, {"currencies", &c.Currencies, currencies}, {"plans", &c.Plans, plans}, {"phone_countries", &c.PhoneCountries, phones}} {
		if len(*l.into) == 0 && len(l.entries) > 0 {
			*l.into, c.Paths[l.key] = l.entries, p
		}
	}
}

// planNamed is the word of a plan named as one of the flags 2.3 gives
// (Lite, Pro, Dynamic, in any letter case), "" for any other name.
func planNamed(name string) string {
	for _, w := range planWords {
		if strings.EqualFold(name, w.word) {
			return w.word
		}
	}
	return ""
}

// listedPaths are the strings of an index's answer that are paths (start
// with one "/"), a few levels deep.
func listedPaths(v gjson.Result, depth int) []string {
	var out []string
	if depth > 3 {
		return nil
	}
	v.ForEach(func(_, x gjson.Result) bool {
		switch {
		case x.Type == gjson.String && strings.HasPrefix(x.Str, "/") && !strings.HasPrefix(x.Str, "//") && len(x.Str) < 100:
			out = append(out, x.Str)
		case x.IsObject() || x.IsArray():
			out = append(out, listedPaths(x, depth+1)...)
		}
		return true
	})
	return out
}

// arraysOf are the arrays of objects in an answer, a few levels deep: the
// collection's, under whatever name it has.
func arraysOf(v gjson.Result, depth int) [][]gjson.Result {
	if depth > 2 {
		return nil
	}
	var out [][]gjson.Result
	v.ForEach(func(_, x gjson.Result) bool {
		if x.IsArray() {
			if items := x.Array(); len(items) > 0 && items[0].IsObject() {
				out = append(out, items)
			}
		} else if x.IsObject() {
			out = append(out, arraysOf(x, depth+1)...)
		}
		return true
	})
	return out
}

// CatalogueValue writes entries as a profile's catalogue value: id:word,
// comma-separated.
func CatalogueValue(entries []Entry) string {
	items := make([]string, len(entries))
	for i, e := range entries {
		items[i] = e.ID + ":" + e.Word
	}
	return strings.Join(items, ",")
}
