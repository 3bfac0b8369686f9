package mockserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/openapitest"
	"github.com/pricing-contract/pricing-contract/steps"
)

// loadOpenAPI is the document a default mock serves, loaded and validated.
func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	return servedDocument(t, newServer(t))
}

func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc := loadOpenAPI(t)
	if got := doc.OpenAPI; !strings.HasPrefix(got, "3.0.") {
		t.Errorf("openapi version %q, want 3.0.x", got)
	}
	var servers []string
	for _, s := range doc.Servers {
		servers = append(servers, s.URL)
	}
	// Served to httptest's example.com: absolute URLs on the request's host.
	if want := []string{"http://example.com/v1", "http://example.com/v1.0"}; !slices.Equal(servers, want) {
		t.Errorf("servers %v, want %v (spec section 9: both serve the API)", servers, want)
	}
	for _, name := range []string{"apiKey", "sessionToken", "sessionTokenQuery"} {
		if doc.Components.SecuritySchemes[name] == nil {
			t.Errorf("security scheme %q is missing", name)
		}
	}
}

// example is one example of the document with the schema it illustrates.
type example struct {
	where  string
	schema *openapi3.Schema
	value  any
}

// examples collects every example of the document: those of schemas (at any
// depth of components.schemas), of media types and of parameters.
func examples(doc *openapi3.T) []example {
	var out []example
	seen := map[*openapi3.Schema]bool{}
	var walk func(where string, s *openapi3.SchemaRef)
	walk = func(where string, s *openapi3.SchemaRef) {
		if s == nil || s.Value == nil || seen[s.Value] {
			return
		}
		seen[s.Value] = true
		if s.Value.Example != nil {
			out = append(out, example{where, s.Value, s.Value.Example})
		}
		for name, p := range s.Value.Properties {
			walk(where+"."+name, p)
		}
		walk(where+"[]", s.Value.Items)
		for i, sub := range slices.Concat(s.Value.AllOf, s.Value.AnyOf, s.Value.OneOf) {
			walk(where+"/"+string(rune('a'+i)), sub)
		}
	}
	for name, s := range doc.Components.Schemas {
		walk("components.schemas."+name, s)
	}
	media := func(where string, content openapi3.Content) {
		for ct, mt := range content {
			if mt.Schema == nil {
				continue
			}
			if mt.Example != nil {
				out = append(out, example{where + " " + ct, mt.Schema.Value, mt.Example})
			}
			for name, ex := range mt.Examples {
				out = append(out, example{where + " " + ct + " example " + name, mt.Schema.Value, ex.Value.Value})
			}
		}
	}
	for name, r := range doc.Components.Responses {
		media("components.responses."+name, r.Value.Content)
	}
	for name, p := range doc.Components.Parameters {
		walk("components.parameters."+name, p.Value.Schema)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			where := method + " " + path
			if op.RequestBody != nil {
				media(where+" request", op.RequestBody.Value.Content)
			}
			for status, r := range op.Responses.Map() {
				media(where+" "+status, r.Value.Content)
			}
		}
	}
	return out
}

// TestOpenAPIExamplesMatchTheirSchemas checks each example itself, on top of
// doc.Validate: a wrong example misleads whoever copies it.
func TestOpenAPIExamplesMatchTheirSchemas(t *testing.T) {
	doc := loadOpenAPI(t)
	exs := examples(doc)
	// Every resource, request body and error response carries one; far
	// fewer means the walk above lost its way, not that all is well.
	if len(exs) < 40 {
		t.Fatalf("found %d examples, want at least 40", len(exs))
	}
	for _, ex := range exs {
		if err := ex.schema.VisitJSON(ex.value); err != nil {
			t.Errorf("%s: the example does not match its schema: %v", ex.where, err)
		}
	}
}

// TestOpenAPISchemasRefuseWrongValues makes sure the schemas constrain what
// the mock answers, so that validating against them means something.
func TestOpenAPISchemasRefuseWrongValues(t *testing.T) {
	doc := loadOpenAPI(t)
	schema := func(name string) *openapi3.Schema { return doc.Components.Schemas[name].Value }
	user := func(edit func(map[string]any)) map[string]any {
		var u map[string]any
		b, _ := json.Marshal(schema("User").Example)
		json.Unmarshal(b, &u)
		edit(u)
		return u
	}
	tests := []struct {
		name   string
		schema string
		value  any
	}{
		{"user without id", "User", user(func(u map[string]any) { delete(u, "id") })},
		{"user with a password", "User", user(func(u map[string]any) { u["password"] = "secret-pw" })},
		{"date with fractional seconds", "User", user(func(u map[string]any) { u["created"] = "2025-01-06T09:00:00.5Z" })},
		{"date not in UTC", "User", user(func(u map[string]any) { u["created"] = "2025-01-06T09:00:00+01:00" })},
		{"bare array for a collection", "Platforms", []any{}},
		{"currency code in lower case", "Currency", map[string]any{"id": 1.0, "code": "gbp"}},
		{"short writeKey", "App", map[string]any{"writeKey": "abc"}},
		{"error body as an object", "Errors", map[string]any{"fieldName": "", "error": "NotFound", "message": "x"}},
		{"empty error array", "Errors", []any{}},
		{"client body with terms not agreed", "ClientCreate", map[string]any{"name": "n", "addressLine1": "a", "addressCity": "c",
			"addressPostcode": "p", "addressCountry": "c", "currency": map[string]any{"id": 1.0}, "terms": "yes"}},
		{"app body with neither hash nor name", "AppCreate", map[string]any{"nextplan": map[string]any{"id": 1.0}}},
		{"client update with app null", "ClientUpdate", map[string]any{"name": "n", "addressLine1": "a", "addressCity": "c",
			"addressPostcode": "p", "addressCountry": "c", "currency": map[string]any{"id": 1.0}, "terms": "I agree", "app": nil}},
		{"blank first name", "UserUpdate", map[string]any{"email": "a@example.com", "firstName": "  ", "lastName": "L",
			"timezone": "Europe/London", "subscribeWelcome": true, "subscribeBlog": true, "subscribeHowto": true, "subscribeOnboarding": true}},
	}
	for _, tt := range tests {
		if err := schema(tt.schema).VisitJSON(tt.value); err == nil {
			t.Errorf("%s: schema %s accepts it", tt.name, tt.schema)
		}
	}
}

// TestContractAgainstOpenAPI runs the whole contract suite, @reference
// scenarios included, against the mock behind a middleware that checks every
// exchange against the document the mock serves at /openapi.json. The suite
// drives the mock through its successes and its errors, so a document that
// passes here describes what the mock really answers.
func TestContractAgainstOpenAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole contract suite")
	}
	v, err := openapitest.New(loadOpenAPI(t))
	if err != nil {
		t.Fatalf("router of openapi.json: %v", err)
	}
	m := mocktest.MustStart(t, mocktest.Options{Wrap: v.Wrap})
	run := steps.NewSuite(m.Profile, steps.Options{Output: io.Discard}).Run("contract-openapi", godog.Options{
		Format:      "progress",
		Concurrency: 4,
		Randomize:   -1,
	})
	if run.Status != 0 {
		t.Errorf("the contract suite failed against the mock (status %d):\n%s", run.Status, run.Output)
	}

	checked, violations := v.Result()
	// The suite sends several hundred requests; a handful would mean the
	// middleware saw little of it and proved nothing.
	if checked < 300 {
		t.Errorf("only %d exchanges were checked against the document", checked)
	}
	if len(violations) > 0 {
		t.Errorf("%d of %d exchanges disagree with openapi.json:\n%s", len(violations), checked, strings.Join(violations, "\n"))
	}
	t.Logf("%d exchanges checked against openapi.json", checked)
}

// servedDocument loads and validates the document h serves.
func servedDocument(t *testing.T, h http.Handler) *openapi3.T {
	t.Helper()
	doc, err := openapitest.Load(h)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestAdminAndDocsAgainstOpenAPI checks the part of the document the contract
// suite never reaches: the admin API, the mock's headers and the docs.
func TestAdminAndDocsAgainstOpenAPI(t *testing.T) {
	m := newServer(t)
	v, err := openapitest.New(servedDocument(t, m))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v.Wrap(m))
	t.Cleanup(srv.Close)

	send := func(method, path, ns, body string, want int) []byte {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if ns != "" {
			req.Header.Set("X-Mock-Namespace", ns)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		if resp.StatusCode != want {
			t.Errorf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, b)
		}
		return b
	}

	const ns = "openapi-admin"
	send("GET", "/", "", "", 200)
	send("GET", "/openapi.json", "", "", 200)
	send("POST", "/__admin/reset", ns, "", 200)
	state := send("GET", "/__admin/state", ns, "", 200)
	send("PUT", "/__admin/state", ns, string(state), 200)
	send("PUT", "/__admin/state", ns, `{"users":"nobody"}`, 400)
	send("PUT", "/__admin/state", ns, `[1]`, 400)
	send("POST", "/v1/sessions", ns, fmt.Sprintf(`{"email":%q,"password":%q}`, emailA, passA), 200)
	send("GET", "/v1/platforms", ns, "", 200)
	journal := send("GET", "/__admin/requests", ns, "", 200)
	if !bytes.Contains(journal, []byte(`"/v1/sessions"`)) || bytes.Contains(journal, []byte(passA)) {
		t.Errorf("the journal should list POST /v1/sessions with the password masked: %s", journal)
	}
	send("DELETE", "/__admin/requests", ns, "", 200)
	rule := send("POST", "/__admin/faults", ns, `{"method":"GET","path":"/v1*/platforms","status":503,"times":1}`, 201)
	send("POST", "/__admin/faults", ns, `{"method":"GET","path":"/v1/platforms","delay":"1ms"}`, 201)
	send("POST", "/__admin/faults", ns, `{"path":"no-slash"}`, 400)
	send("GET", "/__admin/faults", ns, "", 200)
	var r struct{ ID int64 }
	if err := json.Unmarshal(rule, &r); err != nil || r.ID == 0 {
		t.Fatalf("POST /__admin/faults answered %s", rule)
	}
	send("DELETE", fmt.Sprintf("/__admin/faults/%d", r.ID), ns, "", 200)
	send("DELETE", "/__admin/faults/999999", ns, "", 404)
	send("DELETE", "/__admin/faults", ns, "", 200)
	send("GET", "/v1/platforms", "not a name!", "", 400)
	send("GET", "/__admin/state", "not a name!", "", 400)

	checked, violations := v.Result()
	if checked != 20 {
		t.Errorf("%d exchanges checked, want 20", checked)
	}
	if len(violations) > 0 {
		t.Errorf("%d exchanges disagree with openapi.json:\n%s", len(violations), strings.Join(violations, "\n"))
	}
}

// TestExchangeValidatorCatches shows that the middleware of
// TestContractAgainstOpenAPI reports what disagrees with the document, so
// that its silence over the suite's exchanges means something.
func TestExchangeValidatorCatches(t *testing.T) {
	doc := loadOpenAPI(t)
	const (
		platforms = `{"platforms":[{"id":1,"created":"2024-01-01T00:00:00Z","creatorUserId":1,"name":"Android"}]}`
		notFound  = `[{"fieldName":"","error":"NotFound","message":"x"}]`
	)
	userBody, err := json.Marshal(userBodyA())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name           string
		method, path   string
		body           string
		status         int
		header         http.Header
		answer         string
		wantViolations int
	}{
		{"a catalogue as the document says", "GET", "/v1.0/platforms", "", 200, nil, platforms, 0},
		{"a no-route 404 as the document says", "GET", "/v2/platforms", "", 404, nil, notFound, 0},
		{"a 405 with Allow", "DELETE", "/v1/platforms", "", 405, http.Header{"Allow": {"GET"}}, `[{"fieldName":"","error":"MethodNotAllowed","message":"x"}]`, 0},
		{"a refused invalid body", "PUT", "/v1/users/1", `{"email":"qa@example.com"}`, 400, nil, `[{"fieldName":"firstName","error":"InvalidFirstName","message":"x"}]`, 0},
		{"a collection as a bare array", "GET", "/v1/platforms", "", 200, nil, `[]`, 1},
		{"a field the document does not know", "GET", "/v1/currencies", "", 200, nil, `{"currencies":[{"id":1,"code":"GBP","symbol":"£"}]}`, 1},
		{"a status the document does not list", "GET", "/v1/platforms", "", 418, nil, notFound, 1},
		{"an error body that is an object", "GET", "/v1/users/1", "", 404, nil, `{"error":"NotFound"}`, 1},
		{"an invalid body accepted", "PUT", "/v1/users/1", `{"email":"qa@example.com"}`, 200, nil, `{}`, 2},
		{"a body the document allows", "PUT", "/v1/users/1", string(userBody), 401, nil, `[{"fieldName":"","error":"Unauthorized","message":"x"}]`, 0},
		{"a no-route answered 200", "GET", "/v1/platform", "", 200, nil, platforms, 1},
		{"a 405 without Allow", "DELETE", "/v1/platforms", "", 405, nil, `[{"fieldName":"","error":"MethodNotAllowed","message":"x"}]`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := openapitest.New(doc)
			if err != nil {
				t.Fatal(err)
			}
			fake := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, vals := range tt.header {
					w.Header()[k] = vals
				}
				w.Header().Set("Content-Type", "application/json; charset=utf-8")
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.answer)
			})
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			v.Wrap(fake).ServeHTTP(httptest.NewRecorder(), req)
			checked, violations := v.Result()
			if checked != 1 || len(violations) != tt.wantViolations {
				t.Errorf("checked %d, violations %d, want 1 and %d:\n%s", checked, len(violations), tt.wantViolations, strings.Join(violations, "\n"))
			}
		})
	}
}
