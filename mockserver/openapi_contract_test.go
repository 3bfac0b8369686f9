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

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/pricing-contract/pricing-contract/mockserver/openapitest"
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

// schemaWalk returns a walk that visits a schema and every schema under it
// (properties, items, additionalProperties, not, allOf, anyOf, oneOf), each
// once however many places refer to it; where names a referenced schema by
// its reference.
func schemaWalk(visit func(where string, s *openapi3.Schema)) func(where string, s *openapi3.SchemaRef) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(where string, s *openapi3.SchemaRef)
	walk = func(where string, s *openapi3.SchemaRef) {
		if s == nil || s.Value == nil || seen[s.Value] {
			return
		}
		seen[s.Value] = true
		if s.Ref != "" {
			where = s.Ref
		}
		visit(where, s.Value)
		for name, p := range s.Value.Properties {
			walk(where+"."+name, p)
		}
		walk(where+"[]", s.Value.Items)
		walk(where+"{}", s.Value.AdditionalProperties.Schema)
		walk(where+"!", s.Value.Not)
		for i, sub := range slices.Concat(s.Value.AllOf, s.Value.AnyOf, s.Value.OneOf) {
			walk(fmt.Sprintf("%s/%d", where, i), sub)
		}
	}
	return walk
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
	walk := schemaWalk(func(where string, s *openapi3.Schema) {
		if s.Example != nil {
			out = append(out, example{where, s, s.Example})
		}
	})
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

// fromExample is the example of a component schema, edited: a value that
// differs from a valid one in one way only.
func fromExample(t *testing.T, doc *openapi3.T, name string, edit func(map[string]any)) map[string]any {
	t.Helper()
	var v map[string]any
	b, err := json.Marshal(doc.Components.Schemas[name].Value.Example)
	if err != nil || json.Unmarshal(b, &v) != nil {
		t.Fatalf("the example of %s is not an object: %s", name, b)
	}
	edit(v)
	return v
}

// TestOpenAPISchemaValues checks the schemas on values one by one. They
// refuse what the spec forbids, so that validating against them means
// something; they accept what a correct server that chose otherwise than
// the mock answers (cmd/pricing-mutation's TestCatalogue runs the spec
// scenarios against such servers), so that they describe the
// spec rather than the mock.
func TestOpenAPISchemaValues(t *testing.T) {
	doc := loadOpenAPI(t)
	edit := func(name string, e func(map[string]any)) map[string]any { return fromExample(t, doc, name, e) }
	type value struct {
		name   string
		schema string
		value  any
	}
	refused := []value{
		{"user without id", "User", edit("User", func(u map[string]any) { delete(u, "id") })},
		{"user with a password (2.1: never returned)", "User", edit("User", func(u map[string]any) { u["password"] = "secret-pw" })},
		{"date not ISO 8601", "User", edit("User", func(u map[string]any) { u["created"] = "06/01/2025 09:00" })},
		{"date of month 13", "User", edit("User", func(u map[string]any) { u["created"] = "2025-13-06" })},
		{"date and time apart", "User", edit("User", func(u map[string]any) { u["passwordLastChanged"] = "2025-01-06 09:00:00Z" })},
		{"date extended, time basic", "Client", edit("Client", func(c map[string]any) { c["createdDate"] = "2025-01-06T090000Z" })},
		{"date with a zone but no time", "App", edit("App", func(a map[string]any) { a["created"] = "2025-01-06Z" })},
		{"zone past +14:00", "App", edit("App", func(a map[string]any) { a["created"] = "2025-01-06T09:00:00+15:00" })},
		{"a Unix time", "App", edit("App", func(a map[string]any) { a["created"] = "1736154000" })},
		{"session created as a calendar date (2.4: date-time)", "Session", edit("Session", func(s map[string]any) { s["created"] = "2026-01-02" })},
		{"bare array for a collection", "Platforms", []any{}},
		{"platform without id", "Platforms", map[string]any{"platforms": []any{map[string]any{"name": "Android"}}}},
		{"platform named otherwise (2.3)", "App", edit("App", func(a map[string]any) { a["platform"] = map[string]any{"id": 1.0, "name": "Windows"} })},
		{"currency code with a digit", "Currency", map[string]any{"id": 1.0, "code": "GB1"}},
		{"currency code of four letters", "Currency", map[string]any{"id": 1.0, "code": "GBPX"}},
		{"currency code as a number", "Currency", map[string]any{"id": 1.0, "code": 826.0}},
		{"short writeKey", "App", edit("App", func(a map[string]any) { a["writeKey"] = "abc" })},
		{"writeKey not hexadecimal", "App", edit("App", func(a map[string]any) { a["writeKey"] = strings.Repeat("g", 32) })},
		{"hash of 39 characters", "App", edit("App", func(a map[string]any) { a["marketapp"] = map[string]any{"hash": strings.Repeat("a", 39)} })},
		{"client without addressLine1", "Client", edit("Client", func(c map[string]any) { delete(c, "addressLine1") })},
		{"dial code without its plus", "PhoneCountry", map[string]any{"id": 1.0, "name": "United Kingdom (+44)", "dialCode": "44"}},
		{"error body as an object", "Errors", map[string]any{"fieldName": "", "error": "NotFound", "message": "x"}},
		{"empty error array", "Errors", []any{}},
		{"error without a message", "Errors", []any{map[string]any{"fieldName": "", "error": "InvalidName"}}},
		{"client body with terms not agreed", "ClientCreate", map[string]any{"name": "n", "addressLine1": "a", "addressCity": "c",
			"addressPostcode": "p", "addressCountry": "c", "currency": map[string]any{"id": 1.0}, "terms": "yes"}},
		{"app body with neither hash nor name", "AppCreate", map[string]any{"nextplan": map[string]any{"id": 1.0}}},
		{"client update with app null", "ClientUpdate", map[string]any{"name": "n", "addressLine1": "a", "addressCity": "c",
			"addressPostcode": "p", "addressCountry": "c", "currency": map[string]any{"id": 1.0}, "terms": "I agree", "app": nil}},
		{"blank first name", "UserUpdate", map[string]any{"email": "a@example.com", "firstName": "  ", "lastName": "L",
			"timezone": "Europe/London", "subscribeWelcome": true, "subscribeBlog": true, "subscribeHowto": true, "subscribeOnboarding": true}},
	}
	accepted := []value{
		{"user with an extra property", "User", edit("User", func(u map[string]any) { u["locale"] = "en-GB" })},
		{"phone country with an extra property", "User", edit("User", func(u map[string]any) { u["phoneCountry"].(map[string]any)["iso"] = "GB" })},
		{"user created on a calendar date (2.1: date)", "User", edit("User", func(u map[string]any) { u["created"] = "2025-01-06" })},
		{"date at +05:30 with milliseconds", "User", edit("User", func(u map[string]any) { u["passwordLastChanged"] = "2025-01-06T14:30:00.000+05:30" })},
		{"date in the basic format", "Client", edit("Client", func(c map[string]any) { c["createdDate"] = "20250106T090000Z" })},
		{"date with a decimal comma", "App", edit("App", func(a map[string]any) { a["created"] = "2025-01-06T09:00:00,5Z" })},
		{"date without seconds or zone", "App", edit("App", func(a map[string]any) { a["created"] = "2025-01-06T09:00" })},
		{"session created with an offset and a fraction", "Session", edit("Session", func(s map[string]any) { s["created"] = "2026-01-02T10:04:05.123-05:00" })},
		{"writeKey in upper case", "App", edit("App", func(a map[string]any) { a["writeKey"] = strings.ToUpper(a["writeKey"].(string)) })},
		{"hash in upper case", "App", edit("App", func(a map[string]any) {
			a["marketapp"] = map[string]any{"hash": strings.ToUpper(hashPuzzleAndroid), "store": "play"}
		})},
		{"app with extra plan flags", "App", edit("App", func(a map[string]any) { a["plan"].(map[string]any)["isTrial"] = false })},
		{"currency code in lower case", "Currency", map[string]any{"id": 1.0, "code": "gbp"}},
		{"client without addressLine2 and vat", "Client", edit("Client", func(c map[string]any) { delete(c, "addressLine2"); delete(c, "vat") })},
		{"session with an opaque token", "Session", edit("Session", func(s map[string]any) { s["token"] = "opaque.Token-1" })},
		{"a large id", "Session", edit("Session", func(s map[string]any) { s["userId"] = 1000001.0 })},
		{"collection with a page and a total (2.5)", "Platforms", map[string]any{"platforms": []any{map[string]any{"id": 1.0}}, "page": 1.0, "total": 1.0}},
		{"platform with its id only (2.5)", "Platforms", map[string]any{"platforms": []any{map[string]any{"id": 7.0}}}},
		{"error with another member", "Errors", []any{map[string]any{"fieldName": "app[marketapp][hash]", "error": "InvalidMarketappHash", "message": "m", "detail": map[string]any{}}}},
		{"a 401 body of another shape (7.2 shows none)", "ErrorBody", map[string]any{"message": "Unauthorized"}},
	}
	for _, tt := range refused {
		if err := doc.Components.Schemas[tt.schema].Value.VisitJSON(tt.value); err == nil {
			t.Errorf("%s: schema %s accepts it", tt.name, tt.schema)
		}
	}
	for _, tt := range accepted {
		if err := doc.Components.Schemas[tt.schema].Value.VisitJSON(tt.value); err != nil {
			t.Errorf("%s: schema %s refuses it: %v", tt.name, tt.schema, err)
		}
	}
}

// TestOpenAPIDates checks the patterns of the Date (2.1-2.3, "date") and
// DateTime (2.4) schemas against the forms the suite's #iso8601 matcher
// takes and refuses (steps/match/shape_test.go, TestISO8601). A pattern cannot
// know the length of a month: 2023-02-29 passes it.
func TestOpenAPIDates(t *testing.T) {
	doc := loadOpenAPI(t)
	date, dateTime := doc.Components.Schemas["Date"].Value, doc.Components.Schemas["DateTime"].Value
	tests := []struct {
		s              string
		date, dateTime bool
	}{
		{"2024-01-02", true, false},
		{"20240102", true, false},
		{"2024-02-29", true, false},
		{"2024-01-02T03:04:05Z", true, true},
		{"2024-01-02T03:04:05.123+01:00", true, true},
		{"2024-01-02T03:04:05,5-05:00", true, true},
		{"2024-01-02T03:04", true, true},
		{"2024-01-02T03:04:05", true, true},
		{"2024-01-02T03:04:05+01", true, true},
		{"2024-01-02T03:04:05+14:59", true, true},
		{"2024-01-02T23:59:60Z", true, true},
		{"2024-01-02T24:00:00Z", true, true},
		{"20240102T030405Z", true, true},
		{"20240102T030405.5+0100", true, true},
		{"20240102T0304", true, true},
		{"", false, false},
		{"2024", false, false},
		{"2024-1-2", false, false},
		{"2024-13-01", false, false},
		{"2024-00-10", false, false},
		{"2024-01-32", false, false},
		{"2024-01-02T25:00:00Z", false, false},
		{"2024-01-02T24:00:01Z", false, false},
		{"2024-01-02T03:60:00Z", false, false},
		{"2024-01-02T03:04:61Z", false, false},
		{"2024-01-02 03:04:05Z", false, false},
		{"2024-01-02Z", false, false},
		{"2024-01-02T03:04:05+15:00", false, false},
		{"2024-01-02T03:04:05+01:60", false, false},
		{"2024-01-02T03:04:05+0100", false, false},
		{"2024-01-02T030405Z", false, false},
		{"20240102T03:04:05Z", false, false},
		{"2024-01-02t03:04:05z", false, false},
		{"Tue, 02 Jan 2024 03:04:05 GMT", false, false},
		{"1704164645", false, false},
		{"2024-01-02T03:04:05Zjunk", false, false},
	}
	for _, tt := range tests {
		if got := date.VisitJSON(tt.s) == nil; got != tt.date {
			t.Errorf("Date on %q: accepted %v, want %v", tt.s, got, tt.date)
		}
		if got := dateTime.VisitJSON(tt.s) == nil; got != tt.dateTime {
			t.Errorf("DateTime on %q: accepted %v, want %v", tt.s, got, tt.dateTime)
		}
	}
}

// specOperations are the operations the spec names (sections 4 and 5);
// every other operation of the versioned API is an extension of the mock.
var specOperations = []string{
	"POST /sessions", "PUT /users/{userId}", "POST /apps", "POST /clients", "PUT /clients/{clientId}", "GET /platforms",
}

// apiSchemas walks every schema an operation of the versioned API reaches:
// its parameters, request bodies and responses, through references and
// subschemas.
func apiSchemas(doc *openapi3.T, visit func(where string, s *openapi3.Schema)) {
	walk := schemaWalk(visit)
	for path, item := range doc.Paths.Map() {
		if len(item.Servers) > 0 {
			continue // outside the versioned API: the admin API and the docs
		}
		for method, op := range item.Operations() {
			where := method + " " + path
			for _, p := range op.Parameters {
				walk(where+" "+p.Value.Name, p.Value.Schema)
			}
			if op.RequestBody != nil {
				for ct, mt := range op.RequestBody.Value.Content {
					walk(where+" "+ct, mt.Schema)
				}
			}
			for status, r := range op.Responses.Map() {
				for ct, mt := range r.Value.Content {
					walk(where+" "+status+" "+ct, mt.Schema)
				}
			}
		}
	}
}

// TestOpenAPIDescribesTheAPI: no schema of the versioned API closes an
// object (spec 2.5: a server may add properties) or pins a date to RFC 3339
// (spec 1: ISO 8601), and every operation the spec does not name says that
// it is the mock's, so that the document describes the API rather than the
// mock's choices.
func TestOpenAPIDescribesTheAPI(t *testing.T) {
	doc := loadOpenAPI(t)
	n := 0
	apiSchemas(doc, func(where string, s *openapi3.Schema) {
		n++
		if s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has {
			t.Errorf("%s closes its object (additionalProperties: false)", where)
		}
		if s.Format == "date-time" || s.Format == "date" {
			t.Errorf("%s has format %s, narrower than ISO 8601", where, s.Format)
		}
	})
	if n < 50 {
		t.Errorf("the walk reached %d schemas; it lost its way", n)
	}
	for path, item := range doc.Paths.Map() {
		if len(item.Servers) > 0 {
			continue
		}
		for method, op := range item.Operations() {
			name := method + " " + path
			if _, marked := op.Extensions["x-mock-choice"]; !marked && !slices.Contains(specOperations, name) {
				t.Errorf("%s is not in the spec, yet has no x-mock-choice saying it is the mock's", name)
			}
		}
	}
	// The mock's choices the issue named, each marked where it is.
	for _, tt := range []struct {
		where string
		ext   map[string]any
	}{
		{"Date", doc.Components.Schemas["Date"].Value.Extensions},
		{"DateTime", doc.Components.Schemas["DateTime"].Value.Extensions},
		{"App.writeKey", doc.Components.Schemas["App"].Value.Properties["writeKey"].Value.Extensions},
		{"App.marketapp.hash", doc.Components.Schemas["App"].Value.Properties["marketapp"].Value.Properties["hash"].Value.Extensions},
		{"Currency.code", doc.Components.Schemas["Currency"].Value.Properties["code"].Value.Extensions},
		{"Client.addressLine2", doc.Components.Schemas["Client"].Value.Properties["addressLine2"].Value.Extensions},
		{"Client.vat", doc.Components.Schemas["Client"].Value.Properties["vat"].Value.Extensions},
		{"Session.token", doc.Components.Schemas["Session"].Value.Properties["token"].Value.Extensions},
		{"Session.clientId", doc.Components.Schemas["Session"].Value.Properties["clientId"].Value.Extensions},
		{"Platform", doc.Components.Schemas["Platform"].Value.Extensions},
		{"Credentials", doc.Components.Schemas["Credentials"].Value.Extensions},
		{"ErrorBody", doc.Components.Schemas["ErrorBody"].Value.Extensions},
		{"servers /v1.0", doc.Servers[1].Extensions},
		{"X-Mock-Namespace", doc.Components.Parameters["namespace"].Value.Extensions},
		{"413", doc.Components.Responses["TooLarge"].Value.Extensions},
	} {
		if s, ok := tt.ext["x-mock-choice"].(string); !ok || s == "" {
			t.Errorf("%s: no x-mock-choice says what the mock chose", tt.where)
		}
	}
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
	withPassword := fromExample(t, doc, "User", func(u map[string]any) { u["password"] = "secret-pw" })
	b, err := json.Marshal(withPassword)
	if err != nil {
		t.Fatal(err)
	}
	userWithPassword := string(b)
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
		{"a field the document does not know", "GET", "/v1/currencies", "", 200, nil, `{"currencies":[{"id":1,"code":"GBP","symbol":"£"}]}`, 0},
		{"a field the spec forbids", "PUT", "/v1/users/1", string(userBody), 200, nil, userWithPassword, 1},
		{"a date that is not ISO 8601", "GET", "/v1/platforms", "", 200, nil, `{"platforms":[{"id":1,"created":"01/01/2024"}]}`, 1},
		{"a status the document does not list", "GET", "/v1/platforms", "", 418, nil, notFound, 1},
		{"a 404 body of another shape (7.2 shows none)", "GET", "/v1/users/1", "", 404, nil, `{"error":"NotFound"}`, 0},
		{"a 400 body that is an object", "PUT", "/v1/users/1", `{}`, 400, nil, `{"error":"InvalidFirstName"}`, 1},
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
