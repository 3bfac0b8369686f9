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
// Android or iOS), the billing currencies (a three-letter code) and the
// plans (the word of their flags, PlanWord).
type Catalogues struct {
	Platforms, Currencies, Plans []Entry
}

// ReadCatalogues reads the catalogues a target shows: the spec's platforms
// collection at platformsPath, and the read extensions /currencies and
// /plans where it has them. get reads a path below the base URL and gives
// the JSON of a 200 answer, false for any other; what it lists that is no
// entry of a profile's value (a platform of another name, a code of other
// than three letters) is left out.
func ReadCatalogues(get func(path string) (gjson.Result, bool), platformsPath string) Catalogues {
	var c Catalogues
	if v, ok := get(platformsPath); ok {
		for _, p := range v.Get("platforms").Array() {
			if name := p.Get("name").String(); platformWord(name) == nil {
				c.Platforms = append(c.Platforms, Entry{ID: p.Get("id").Raw, Word: name})
			}
		}
	}
	if v, ok := get("/currencies"); ok {
		for _, cur := range v.Get("currencies").Array() {
			if code := cur.Get("code").String(); IsCurrencyCode(code) {
				c.Currencies = append(c.Currencies, Entry{ID: cur.Get("id").Raw, Word: code})
			}
		}
	}
	if v, ok := get("/plans"); ok {
		for _, p := range v.Get("plans").Array() {
			word := PlanWord(func(flag string) bool { return p.Get(flag).Bool() })
			c.Plans = append(c.Plans, Entry{ID: p.Get("id").Raw, Word: word})
		}
	}
	return c
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
