package variants

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"slices"

	"github.com/pricing-contract/pricing-contract/fixtures"
)

// The helpers of a server that adds a rule to the mock's own: a
// validation, a limit, a refusal. Each first lets the mock decide whether
// the caller is authenticated and may touch the resource, so that the
// server answers 401, 403 and 404 exactly where the mock does.

// Rule is a validation a server adds in front of the mock. It owns the
// fields it checks: Check returns their errors for a body, Fix makes a body
// pass the rule, and Broken holds values (by dotted path) that the mock
// itself refuses, so that a probe carrying them creates nothing.
type Rule struct {
	Applies func(r *http.Request, p Path) bool
	Owns    []string
	Check   func(r *http.Request, body map[string]any) []FieldError
	Fix     func(body map[string]any)
	Broken  map[string]any
}

// Validating serves r with next, unless rule finds errors in the body. Then
// it sends the mock a probe, the body fixed for the rule and broken on one
// of its fields: an answer other than 400 (401, 403, 404) is the answer;
// a 400 is answered with the mock's errors on the fields the rule does not
// own and the rule's errors, as one implementation checking the body at
// once would. hit is called for every body the rule vets.
func Validating(next http.Handler, hit func(), rule Rule) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := Parse(r.URL.Path)
		if !ok || !rule.Applies(r, p) {
			next.ServeHTTP(w, r)
			return
		}
		body, ok := DecodeObject(PeekBody(r))
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		hit()
		errs := rule.Check(r, body)
		if len(errs) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		rule.Fix(body)
		for path, v := range rule.Broken {
			SetBodyPath(body, path, v)
		}
		a := Send(next, r, r.Method, r.URL.Path, Encode(body))
		if a.Status != http.StatusBadRequest {
			Write(w, a)
			return
		}
		var mock []FieldError
		if err := json.Unmarshal(a.Body, &mock); err != nil {
			Write(w, a)
			return
		}
		for _, e := range mock {
			if !slices.Contains(rule.Owns, e.FieldName) {
				errs = append(errs, e)
			}
		}
		WriteErrors(w, http.StatusBadRequest, errs...)
	})
}

// Validates is a server that adds rules in front of the mock, each as
// Validating does, the first one outermost.
func Validates(rules ...Rule) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		h := next
		for _, rule := range slices.Backward(rules) {
			h = Validating(h, hit, rule)
		}
		return h
	}
}

// SeedList reads a list of objects from the mock's default seed.
func SeedList(file string) []map[string]any {
	data, err := fs.ReadFile(fixtures.Seed(), file)
	var out []map[string]any
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		err = dec.Decode(&out)
	}
	if err != nil {
		panic(fmt.Sprintf("the seed's %s: %v", file, err)) // embedded at build time
	}
	return out
}
