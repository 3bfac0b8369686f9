package catalogue_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

// The legal variants that add a rule of their own, or renumber what the
// mock answers, are whole servers, not filters the suite happens to pass.

// find is the servers of names.
func find(t *testing.T, names ...string) []variants.Server {
	t.Helper()
	servers, err := catalogue.Find(names)
	if err != nil {
		t.Fatal(err)
	}
	return servers
}

// TestVariantsAreConsistent checks that the variants that add a rule are
// servers that keep it, rather than filters the suite happens to pass: each
// refuses what its rule refuses, with the mock's own errors beside its own
// where the body has more, and still answers 401, 403 and 404 where the mock
// does.
func TestVariantsAreConsistent(t *testing.T) {
	const (
		a      = "api-key qa-api-key"
		b      = "api-key other-api-key"
		seedA  = "fecaf482f29181490ae5ecfb2790186ce7f82078" // the seed's app of client A uses it
		unused = "ac16024432c03228d1db1ee6fad907840ee875ba" // no app uses it; platform 1
		onIOS  = "41cc95107d02f0a55079d23d8dcf2b2852ef397d" // platform 2
	)
	user := func(edit string) string {
		return `{"email":"qa@example.com","firstName":"Q","lastName":"A","timezone":"Europe/London","subscribeWelcome":true,` +
			`"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"password":null,` +
			`"phoneCountry":{"id":1},"phoneNumber":"7700900123","phoneExtension":null` + edit + `}`
	}
	client := func(edit string) string {
		return `{"name":"contract-c","addressLine1":"1 Road","addressCity":"London","addressPostcode":"EC1A 1BB",` +
			`"addressCountry":"United Kingdom","vat":"GB123456789","currency":{"id":1},"terms":"I agree"` + edit + `}`
	}
	type call struct {
		method, path, auth, body string
		status                   int
		errors                   []string // "fieldName error" of a 400, in any order
	}
	tests := []struct {
		variant string
		calls   []call
	}{
		{"phone-fields-required", []call{
			{"PUT", "/v1/users/1", a, `{"email":"qa@example.com","firstName":"","lastName":"A","timezone":"Europe/London","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false}`,
				400, []string{"phoneNumber InvalidPhoneNumber", "phoneCountry.id InvalidPhoneCountryId", "firstName InvalidFirstName"}},
			// Refused for the missing country, the empty number is named too:
			// the rule judges a value that is there as the mock does.
			{"PUT", "/v1/users/1", a, `{"email":"qa@example.com","firstName":"Q","lastName":"A","timezone":"Europe/London","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"phoneNumber":"","phoneCountry":null}`,
				400, []string{"phoneNumber InvalidPhoneNumber", "phoneCountry.id InvalidPhoneCountryId"}},
			{"PUT", "/v1/users/1", "", `{"email":"qa@example.com"}`, 401, nil},
			{"PUT", "/v1/users/2", a, `{"email":"qa@example.com"}`, 403, nil},
			{"PUT", "/v1/users/1", a, user(""), 200, nil},
		}},
		{"one-client-per-user", []call{
			{"POST", "/v1/clients", a, client(""), 403, nil},
			{"POST", "/v1/clients", a, client(`,"name":""`), 403, nil}, // refused before the body is looked at
			{"POST", "/v1/clients", "", client(""), 401, nil},
			{"PUT", "/v1/users/1", a, user(`,"client":` + client("")), 403, nil},
			{"PUT", "/v1/users/2", a, user(`,"client":` + client("")), 403, nil},
			{"PUT", "/v1/users/1", a, user(""), 200, nil},
		}},
		{"one-client-per-user-400", []call{
			{"POST", "/v1/clients", b, client(""), 400, []string{" ClientLimitReached"}},
			{"POST", "/v1/clients", "", client(""), 401, nil},
		}},
		{"one-app-per-marketapp", []call{
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + seedA + `"},"nextplan":{"id":999}}`, 400,
				[]string{"marketapp.hash DuplicateMarketapp", "nextplan.id InvalidPlanId"}},
			{"POST", "/v1/apps", "", `{"marketapp":{"hash":"` + seedA + `"}}`, 401, nil},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + strings.ToUpper(unused) + `"}}`, 200, nil},
			{"POST", "/v1/apps", b, `{"marketapp":{"hash":"` + unused + `"}}`, 400, []string{"marketapp.hash DuplicateMarketapp"}},
			{"POST", "/v1/clients", a, client(`,"app":{"marketapp":{"hash":"` + seedA + `"}}`), 400, []string{"app.marketapp.hash DuplicateMarketapp"}},
		}},
		{"email-deliverability", []call{
			{"PUT", "/v1/users/1", a, user(`,"email":"someone@mail.example.com","lastName":""`), 400,
				[]string{"email InvalidEmail", "lastName InvalidLastName"}},
			{"PUT", "/v1/users/1", a, user(`,"email":"other@example.com"`), 400, []string{"email InvalidEmail"}}, // B's, not A's
			{"PUT", "/v1/users/1", a, user(`,"email":"QA@example.com"`), 200, nil},
			{"PUT", "/v1/users/1", a, user(`,"email":"qa@qa.pricing-contract.dev"`), 200, nil},
			{"PUT", "/v1/users/1", a, user(`,"email":"qa@example.com"`), 200, nil},
			{"PUT", "/v1/users/2", a, user(`,"email":"x@example.com"`), 403, nil},
		}},
		{"email-rfc5321", []call{
			{"PUT", "/v1/users/1", a, user(`,"email":"` + strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 58) + `.com"`), 400, []string{"email InvalidEmail"}},
			{"PUT", "/v1/users/1", a, user(`,"email":"` + strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 57) + `.com"`), 200, nil},
			{"PUT", "/v1/users/1", a, user(`,"email":"qa@example.com"`), 200, nil},
		}},
		{"address-validation", []call{
			{"PUT", "/v1/clients/1", a, client(`,"addressCountry":"England","name":""`), 400, []string{"addressCountry InvalidAddressCountry", "name InvalidName"}},
			{"POST", "/v1/clients", a, client(`,"addressCountry":"DE","addressPostcode":"EC1A 1BB"`), 400,
				[]string{"addressPostcode InvalidAddressPostcode", "vat InvalidVat"}},
			{"PUT", "/v1/users/1", a, user(`,"client":` + client(`,"addressCountry":"Germany","addressPostcode":"10117","vat":"GB1"`)), 400, []string{"client.vat InvalidVat"}},
			{"PUT", "/v1/clients/2", a, client(`,"addressCountry":"England"`), 403, nil},
			{"PUT", "/v1/clients/1", "", client(`,"addressCountry":"England"`), 401, nil},
			{"POST", "/v1/clients", a, client(`,"addressCountry":"Germany","addressPostcode":"10117","vat":"DE123456789"`), 200, nil},
		}},
		{"timezone-iana", []call{
			{"PUT", "/v1/users/1", a, user(`,"timezone":"Europe/Atlantis"`), 400, []string{"timezone InvalidTimezone"}},
			{"PUT", "/v1/users/1", a, user(`,"timezone":"Asia/Tokyo"`), 200, nil},
		}},
		{"conflicting-platform-refused", []call{
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + onIOS + `"},"platform":{"id":1}}`, 400, []string{"platform.id InvalidPlatformId"}},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + onIOS + `"},"platform":{"id":2}}`, 200, nil},
			{"POST", "/v1/apps", "", `{"marketapp":{"hash":"` + onIOS + `"},"platform":{"id":1}}`, 401, nil},
		}},
		{"login-failure-400", []call{
			{"POST", "/v1/sessions", "", `{"email":"qa@example.com","password":"wrong-password"}`, 400, []string{" InvalidCredentials"}},
			{"POST", "/v1/sessions", "", `{"email":"qa@example.com","password":"qa-password"}`, 200, nil},
		}},
		{"v1-only", []call{
			{"GET", "/v1.0/platforms", "", "", 404, nil},
			{"GET", "/v1/platforms", "", "", 200, nil},
		}},
		{"v1.0-only", []call{
			{"GET", "/v1/platforms", "", "", 404, nil},
			{"GET", "/v1.0/platforms", "", "", 200, nil},
		}},
		{"platforms-elsewhere", []call{
			{"GET", "/v1/platforms", a, "", 404, nil},
			{"GET", "/v1/catalogue/platforms", a, "", 200, nil},
		}},
		{"client-mistakes-other-4xx", []call{
			{"POST", "/v1/apps", a, `{"marketapp":`, 415, nil},
			{"POST", "/v1/apps", a, ``, 415, nil},
			{"PUT", "/v1/clients/1", a, `[]`, 422, nil},
			{"POST", "/v1/apps", "", `{"marketapp":`, 401, nil},
			{"PUT", "/v1/users/abc", a, user(""), 400, []string{" InvalidId"}},
			{"PUT", "/v1/users/1.5", a, user(""), 400, []string{" InvalidId"}},
			{"PUT", "/v1/users/99999999999999999999", a, user(""), 404, nil},
			{"PUT", "/v1/users/abc", "", user(""), 401, nil},
			{"PUT", "/v1/users/1", a, user(`,"firstName":""`), 400, []string{"firstName InvalidFirstName"}},
		}},
		{"platforms-authenticated", []call{
			{"GET", "/v1/platforms", "", "", 401, nil},
			{"GET", "/v1/platforms", "api-key nobody", "", 401, nil},
			{"GET", "/v1/platforms", b, "", 200, nil},
		}},
		{"apps-from-a-store-only", []call{
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":null},"name":"contract-x","platform":{"id":1},"nextplan":{"id":999}}`, 400,
				[]string{"marketapp.hash InvalidMarketappHash", "nextplan.id InvalidPlanId"}},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":null},"name":null,"platform":{"id":1}}`, 400, []string{"name InvalidName"}},
			{"POST", "/v1/apps", "", `{"name":"contract-x","platform":{"id":1}}`, 401, nil},
			{"POST", "/v1/clients", a, client(`,"app":{"name":"contract-x","platform":{"id":2}}`), 400, []string{"app.marketapp.hash InvalidMarketappHash"}},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + onIOS + `"},"name":"contract-x"}`, 200, nil},
		}},
		{"unknown-marketapp-404", []call{
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + strings.Repeat("0", 40) + `"}}`, 404, nil},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + strings.Repeat("0", 39) + `"}}`, 400, []string{"marketapp.hash InvalidMarketappHash"}},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + onIOS + `"}}`, 200, nil},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.variant, func(t *testing.T) {
			m := mocktest.MustStart(t, mocktest.Options{Servers: find(t, tt.variant)})
			origin := strings.TrimSuffix(m.URL, "/v1")
			for _, c := range tt.calls {
				req, _ := http.NewRequest(c.method, origin+c.path, strings.NewReader(c.body))
				if c.auth != "" {
					req.Header.Set("Authorization", c.auth)
				}
				req.Header.Set("Content-Type", "application/json")
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != c.status {
					t.Errorf("%s %s (%.60s): %d %s, want %d", c.method, c.path, c.body, res.StatusCode, body, c.status)
					continue
				}
				if c.errors == nil {
					continue
				}
				var errs []variants.FieldError
				if err := json.Unmarshal(body, &errs); err != nil {
					t.Errorf("%s %s: the 400 is not the error array: %s", c.method, c.path, body)
					continue
				}
				var got []string
				for _, e := range errs {
					got = append(got, e.FieldName+" "+e.Error)
				}
				slices.Sort(got)
				want := slices.Sorted(slices.Values(c.errors))
				if !slices.Equal(got, want) {
					t.Errorf("%s %s (%.60s): errors %q, want %q", c.method, c.path, c.body, got, want)
				}
			}
		})
	}
}

// TestIDsLargeVariants checks that ids-large and ids-64-bit are consistent
// implementations rather than ones the suite happens not to notice: the ids
// they answer are the ids they take, exactly (past 2^53 too), and the
// mock's own small ids name nothing.
func TestIDsLargeVariants(t *testing.T) {
	for _, tc := range []struct {
		name   string
		offset int64
	}{{"ids-large", 1000000}, {"ids-64-bit", 1 << 62}} {
		t.Run(tc.name, func(t *testing.T) {
			m := mocktest.MustStart(t, mocktest.Options{Servers: find(t, tc.name)})
			do := func(method, path, body string) (int, map[string]any) {
				t.Helper()
				req, _ := http.NewRequest(method, m.URL+path, strings.NewReader(body))
				req.Header.Set("Authorization", "api-key "+m.Getenv("PRICING_API_KEY"))
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				dec := json.NewDecoder(res.Body)
				dec.UseNumber() // ids past 2^53 must keep every digit
				var v map[string]any
				dec.Decode(&v)
				return res.StatusCode, v
			}
			id := func(v any) int64 {
				n, _ := v.(json.Number).Int64()
				return n
			}
			status, sess := do(http.MethodPost, "/sessions", fmt.Sprintf(`{"email":%q,"password":%q}`, m.Getenv("PRICING_EMAIL"), m.Getenv("PRICING_PASSWORD")))
			if status != http.StatusOK || id(sess["userId"]) <= tc.offset || id(sess["clientId"]) <= tc.offset || id(sess["id"]) <= tc.offset {
				t.Fatalf("POST /sessions: %d %v; want ids over %d", status, sess, tc.offset)
			}
			userID, clientID := id(sess["userId"]), id(sess["clientId"])
			if status, u := do(http.MethodGet, fmt.Sprintf("/users/%d", userID), ""); status != http.StatusOK || id(u["id"]) != userID {
				t.Errorf("GET /users/%d: %d %v", userID, status, u)
			}
			if status, c := do(http.MethodGet, fmt.Sprintf("/clients/%d", clientID), ""); status != http.StatusOK || id(c["id"]) != clientID {
				t.Errorf("GET /clients/%d: %d %v", clientID, status, c)
			}
			if status, _ := do(http.MethodGet, fmt.Sprintf("/users/%d", userID-tc.offset), ""); status != http.StatusNotFound {
				t.Errorf("GET /users/%d (the mock's own id): %d, want 404", userID-tc.offset, status)
			}
		})
	}
}
