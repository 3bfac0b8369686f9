package target

import (
	"testing"

	"github.com/tidwall/gjson"
)

// The catalogues a target shows are read into a profile's values: what
// no value can hold is left out, and a plan's word is the first of its
// flags set.
func TestReadCatalogues(t *testing.T) {
	t.Parallel()
	answers := map[string]string{
		"/platforms":  `{"platforms":[{"id":1,"name":"Android"},{"id":2,"name":"iOS"},{"id":3,"name":"Web"}]}`,
		"/currencies": `{"currencies":[{"id":10,"code":"GBP"},{"id":11,"code":"EURO"},{"id":12,"code":"chf"}]}`,
		"/plans": `{"plans":[{"id":20,"isLite":true,"isPro":true},{"id":21,"isPro":true},{"id":22,"isDynamic":true},` +
			`{"id":23,"isLite":false,"isPro":false,"isDynamic":false}]}`,
	}
	get := func(p string) (gjson.Result, bool) {
		a, ok := answers[p]
		return gjson.Parse(a), ok
	}
	c := ReadCatalogues(get, "/platforms")
	for _, tc := range []struct{ name, got, want string }{
		{"platforms", CatalogueValue(c.Platforms), "1:Android,2:iOS"},
		{"currencies", CatalogueValue(c.Currencies), "10:GBP,12:chf"},
		{"plans", CatalogueValue(c.Plans), "20:lite,21:pro,22:dynamic,23:none"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
		if err := Check(tc.name, tc.got); err != nil {
			t.Errorf("%s %q is no value of the profile: %v", tc.name, tc.got, err)
		}
	}
	if c := ReadCatalogues(func(string) (gjson.Result, bool) { return gjson.Result{}, false }, "/platforms"); c.Platforms != nil || c.Plans != nil {
		t.Errorf("a target without collections: %+v", c)
	}
}
