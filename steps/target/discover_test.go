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
	get := answering(answers)
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
	// Plans shown by their names alone: the word of the flag each names.
	named := ReadCatalogues(answering(map[string]string{
		"/plans": `{"plans":[{"id":1,"name":"Lite"},{"id":2,"name":"PRO"},{"id":3,"name":"Dynamic"},{"id":4,"name":"Gold"}]}`,
	}), "/platforms")
	if got := CatalogueValue(named.Plans); got != "1:lite,2:pro,3:dynamic" || !named.PlansByName {
		t.Errorf("plans by name: %q (by name %v), want 1:lite,2:pro,3:dynamic by name", got, named.PlansByName)
	}
	if c := ReadCatalogues(func(string) (gjson.Result, bool) { return gjson.Result{}, false }, "/platforms"); c.Platforms != nil || c.Plans != nil {
		t.Errorf("a target without collections: %+v", c)
	}
}

// answering is a target's GET of the catalogues' paths: the answer there,
// or none (false) where answers has no path.
func answering(answers map[string]string) func(string) (gjson.Result, bool) {
	return func(p string) (gjson.Result, bool) {
		a, ok := answers[p]
		return gjson.Parse(a), ok
	}
}

// A target that lists its collections at the base URL, under names and
// paths of its own, in wrappers with paging: each catalogue is found by
// the shape of its items.
func TestReadCataloguesOfAnIndex(t *testing.T) {
	t.Parallel()
	answers := map[string]string{
		"":                    `{"version":"v1.0","collections":{"plans":"/tiers","phones":"/calling-codes"}}`,
		"/platforms":          `{"page":1,"platforms":[{"id":7,"name":"Android"},{"id":8,"name":"iOS"}]}`,
		"/tiers":              `{"page":1,"total":2,"tiers":[{"id":9007199254740001,"name":"Lite","isLite":true,"isPro":false,"isDynamic":false},{"id":9007199254740003,"name":"Pro","isLite":false,"isPro":true,"isDynamic":false}]}`,
		"/calling-codes":      `{"data":{"items":[{"id":44,"name":"United Kingdom (+44)","dialCode":"+44"}]}}`,
		"/subscription-plans": `{"subscriptionPlans":[{"id":1,"isLite":true}]}`,
	}
	get := answering(answers)
	c := ReadCatalogues(get, "/platforms")
	for _, tc := range []struct{ name, got, want string }{
		{"platforms", CatalogueValue(c.Platforms), "7:Android,8:iOS"},
		{"plans", CatalogueValue(c.Plans), "1:lite"}, // the usual path is read before the index's
		{"phone countries", CatalogueValue(c.PhoneCountries), "44:+44"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if c.Paths["phone_countries"] != "/calling-codes" {
		t.Errorf("the phone countries were read at %q", c.Paths["phone_countries"])
	}
	delete(answers, "/subscription-plans")
	if c := ReadCatalogues(get, "/platforms"); CatalogueValue(c.Plans) != "9007199254740001:lite,9007199254740003:pro" {
		t.Errorf("plans at the index's path: %q", CatalogueValue(c.Plans))
	}
}

// A body's phone country as the target takes it, and a fieldName read as
// the dotted path of the body.
func TestShapeBodyAndFieldPath(t *testing.T) {
	t.Parallel()
	body := []byte(`{"email":"a@b.c","phoneCountry":{"id":7},"phoneNumber":"1"}`)
	if got := (Profile{PhoneCountryField: PhoneCountryObject}).ShapeBody(body); string(got) != string(body) {
		t.Errorf("the object form changed the body: %s", got)
	}
	flat := (Profile{PhoneCountryField: PhoneCountryFlat}).ShapeBody(body)
	if string(flat) != `{"email":"a@b.c","phoneCountryId":7,"phoneNumber":"1"}` {
		t.Errorf("the flat form: %s", flat)
	}
	for _, b := range []string{`[1]`, `{"phoneCountry":"x"}`, `not json`, ``} {
		if got := (Profile{PhoneCountryField: PhoneCountryFlat}).ShapeBody([]byte(b)); string(got) != b {
			t.Errorf("%q shaped to %q", b, got)
		}
	}
	for in, want := range map[string]string{
		"phoneCountryId": "phoneCountry.id", "phoneCountry.id": "phoneCountry.id", "phoneCountry[id]": "phoneCountry.id",
		"client.currencyId": "client.currency.id", "app[marketapp][hash]": "app.marketapp.hash", "firstName": "firstName",
	} {
		if got := FieldPath(in); got != want {
			t.Errorf("FieldPath(%q) = %q, want %q", in, got, want)
		}
	}
}
