package api_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// newStore is a store of the default seed whose generated values (tokens,
// write keys, dates) repeat: two of them answer alike.
func newStore(t *testing.T) *pricing.Store {
	t.Helper()
	seed, err := pricing.LoadSeed(fixtures.Seed())
	if err != nil {
		t.Fatal(err)
	}
	n := int64(7)
	return pricing.NewStore(seed, pricing.NewSource(&n), pricing.Deviations{})
}

const (
	userBody   = `{"email":"qa@example.com","firstName":"Q","lastName":"A","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"timezone":"Europe/London","password":null}`
	clientBody = `{"name":"N","addressLine1":"1 Road","addressCity":"C","addressPostcode":"P","addressCountry":"GB","currency":{"id":1},"terms":"I agree"}`
	appBody    = `{"marketapp":{"hash":"fecaf482f29181490ae5ecfb2790186ce7f82078"},"nextplan":{"id":1}}`
)

// requests are a sample of every endpoint with every kind of refusal: the
// route, the version, the method, the credentials, the path's id, the
// body's size, shape and fields, and accepted ones.
func requests() []api.Request {
	key := func(k string) http.Header { return http.Header{"Authorization": {"api-key " + k}} }
	form := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	big := []byte(`{"name":"` + strings.Repeat("x", api.MaxBody) + `"}`)
	deep := []byte(strings.Repeat("[", 100) + strings.Repeat("]", 100))
	var out []api.Request
	for _, v := range []string{"v1", "v1.0", "v2"} {
		out = append(out,
			api.Request{Method: "GET", Path: "/" + v + "/platforms"},
			api.Request{Method: "GET", Path: "/" + v + "/marketapps"},
			api.Request{Method: "GET", Path: "/" + v + "/users/1", Header: key("qa-api-key")},
			api.Request{Method: "GET", Path: "/" + v + "/users/2", Header: key("qa-api-key")},
			api.Request{Method: "GET", Path: "/" + v + "/users/1"},
			api.Request{Method: "GET", Path: "/" + v + "/users/01", Header: key("qa-api-key")},
			api.Request{Method: "GET", Path: "/" + v + "/users/999", Header: key("qa-api-key")},
			api.Request{Method: "GET", Path: "/" + v + "/users/1/clients", Header: key("qa-api-key")},
			api.Request{Method: "GET", Path: "/" + v + "/users/1", Query: url.Values{"sessionToken": {"nope"}}},
			api.Request{Method: "DELETE", Path: "/" + v + "/users/1", Header: key("qa-api-key")},
			api.Request{Method: "PUT", Path: "/" + v + "/users/1", Header: key("qa-api-key"), Body: []byte(userBody)},
			api.Request{Method: "PUT", Path: "/" + v + "/users/2", Header: key("qa-api-key"), Body: []byte(userBody)},
			api.Request{Method: "PUT", Path: "/" + v + "/users/1", Header: key("wrong"), Body: []byte(`{}`)},
			api.Request{Method: "PUT", Path: "/" + v + "/users/1", Header: key("qa-api-key"), Body: []byte(`{"email":"x"}`)},
			api.Request{Method: "PUT", Path: "/" + v + "/users/2", Header: key("qa-api-key"), Body: []byte(`{"email":"x"}`)},
			api.Request{Method: "PUT", Path: "/" + v + "/users/1", Header: key("qa-api-key"), Body: big, BodyTooLarge: true},
			api.Request{Method: "PUT", Path: "/" + v + "/users/1", Header: key("qa-api-key"), Body: deep},
			api.Request{Method: "PUT", Path: "/" + v + "/users/1", Header: key("qa-api-key"), Body: []byte(`[1]`)},
			api.Request{Method: "PUT", Path: "/" + v + "/users/1", Header: key("qa-api-key"), Body: []byte(`{`)},
			api.Request{Method: "PUT", Path: "/" + v + "/clients/1", Header: key("qa-api-key"), Body: []byte(clientBody)},
			api.Request{Method: "PUT", Path: "/" + v + "/clients/2", Header: key("qa-api-key"), Body: []byte(clientBody)},
			api.Request{Method: "PUT", Path: "/" + v + "/clients/abc", Header: key("qa-api-key"), Body: []byte(clientBody)},
			api.Request{Method: "POST", Path: "/" + v + "/clients", Header: key("qa-api-key"), Body: []byte(clientBody)},
			api.Request{Method: "POST", Path: "/" + v + "/clients", Header: key("other-api-key"), Body: []byte(`{"terms":"no"}`)},
			api.Request{Method: "POST", Path: "/" + v + "/apps", Header: key("qa-api-key"), Body: []byte(appBody)},
			api.Request{Method: "POST", Path: "/" + v + "/apps", Header: key("qa-api-key"), Body: []byte(`{"name":""}`)},
			api.Request{Method: "POST", Path: "/" + v + "/sessions", Body: []byte(`{"email":"qa@example.com","password":"qa-password"}`)},
			api.Request{Method: "POST", Path: "/" + v + "/sessions", Header: form, Body: []byte(`email=qa%40example.com&password=qa-password`)},
			api.Request{Method: "POST", Path: "/" + v + "/sessions", Body: []byte(`{"email":"qa@example.com","password":"wrong-password"}`)},
			api.Request{Method: "POST", Path: "/" + v + "/sessions", Body: []byte(`{}`)},
			api.Request{Method: "POST", Path: "/" + v + "/users", Body: []byte(`{}`)},
			api.Request{Method: "GET", Path: "/" + v + "/platforms/"},
		)
	}
	return append(out, api.Request{Method: "GET", Path: "/"}, api.Request{Method: "GET", Path: "/nothing/here"})
}

// TestExplainIsServe: what Explain reads of a request is what Serve
// answers (its first refusal, or the change it commits), and Explain alone
// writes nothing; Begin refuses exactly what Serve refuses before the body.
func TestExplainIsServe(t *testing.T) {
	a := api.New(api.Options{})
	for _, r := range requests() {
		t.Run(r.Method+" "+r.Path, func(t *testing.T) {
			served, explained := newStore(t), newStore(t)
			want := a.Serve(served, r)
			gen := explained.Generation()
			p := a.Explain(explained, r)
			if explained.Generation() != gen {
				t.Fatalf("Explain wrote to the store")
			}
			got := p.Answer()
			if p.Accepted() {
				got = p.Commit()
			}
			if got.Status != want.Status || !bytes.Equal(got.Body, want.Body) {
				t.Fatalf("Explain gives %d %s; Serve answers %d %s", got.Status, got.Body, want.Status, want.Body)
			}
			if len(p.Refusals) > 0 && p.Refusals[0].Status != want.Status {
				t.Fatalf("the first refusal is %d; Serve answers %d", p.Refusals[0].Status, want.Status)
			}
			if _, before, refused := a.Begin(newStore(t), r); refused && (before.Status != want.Status || !bytes.Equal(before.Body, want.Body)) {
				t.Fatalf("Begin refuses with %d %s; Serve answers %d %s", before.Status, before.Body, want.Status, want.Body)
			}
		})
	}
}

// TestExplainGoesOn: past the first refusal, Explain reports the others
// that apply, each with its rule, as the explorer needs them.
func TestExplainGoesOn(t *testing.T) {
	a := api.New(api.Options{})
	st := newStore(t)
	cases := []struct {
		name  string
		r     api.Request
		rules []api.Rule
	}{
		{"unknown version, no credentials, a bad body", api.Request{Method: "PUT", Path: "/v2/users/1", Body: []byte(`{"email":"x"}`)},
			[]api.Rule{api.RuleUnknownVersion, api.RuleUnauthenticated, api.RuleFields}},
		{"another's user and a bad body", api.Request{Method: "PUT", Path: "/v1/users/2", Header: http.Header{"Authorization": {"api-key qa-api-key"}}, Body: []byte(`{"email":"x"}`)},
			[]api.Rule{api.RuleForbidden, api.RuleFields}},
		{"an unknown id and no JSON", api.Request{Method: "PUT", Path: "/v1/clients/99", Header: http.Header{"Authorization": {"api-key qa-api-key"}}, Body: []byte(`nope`)},
			[]api.Rule{api.RuleUnknownID, api.RuleNotJSON}},
	}
	for _, c := range cases {
		p := a.Explain(st, c.r)
		var got []api.Rule
		for _, f := range p.Refusals {
			got = append(got, f.Rule)
		}
		if strings.Join(ruleNames(got), ",") != strings.Join(ruleNames(c.rules), ",") {
			t.Errorf("%s: rules %v, want %v", c.name, got, c.rules)
		}
	}
	p := a.Explain(st, api.Request{Method: "PUT", Path: "/v1/users/1", Header: http.Header{"Authorization": {"api-key qa-api-key"}},
		Body: []byte(`{"email":"a..b@example.com","firstName":"","lastName":"L","subscribeWelcome":1}`)})
	rules := map[string]string{}
	for _, e := range p.Refusals[0].Errors {
		rules[e.FieldName] = e.Rule
	}
	for field, want := range map[string]pricing.Condition{"email": pricing.CondForm, "firstName": pricing.CondEmpty,
		"subscribeWelcome": pricing.CondType, "subscribeBlog": pricing.CondRequired, "timezone": pricing.CondRequired} {
		if rules[field] != string(want) {
			t.Errorf("the error of %s has the rule %q, want %q", field, rules[field], want)
		}
	}
}

func ruleNames(rs []api.Rule) []string {
	var out []string
	for _, r := range rs {
		out = append(out, string(r))
	}
	return out
}
