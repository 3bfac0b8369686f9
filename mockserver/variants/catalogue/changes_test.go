package catalogue_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

// The built-in defects, each shown to change what the mock answers by a
// short run of requests served in process.

// exchange is one request and what to observe of its answer. The seed's
// account A is the caller unless headers say otherwise; {{key}}, {{email}}
// and {{password}} in the request are A's, {{hash}} the profile's
// marketplace app.
type exchange struct {
	method, path, body string
	headers            []string // name, value, ...; nil: A's api-key header
	observe            func(*httptest.ResponseRecorder) string
}

func status(r *httptest.ResponseRecorder) string { return strconv.Itoa(r.Code) }

func jsonAt(path string) func(*httptest.ResponseRecorder) string {
	return func(r *httptest.ResponseRecorder) string { return gjson.GetBytes(r.Body.Bytes(), path).Raw }
}

// mock serves a fresh mock that is the named servers, in process.
func mock(t *testing.T, names ...string) (*mockserver.Server, http.Handler) {
	t.Helper()
	servers, err := catalogue.Find(names)
	if err != nil {
		t.Fatal(err)
	}
	srv, h, err := catalogue.Serve(mockserver.Options{}, nil, servers...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, h
}

func (p exchange) send(t *testing.T, srv *mockserver.Server, h http.Handler) *httptest.ResponseRecorder {
	t.Helper()
	prof := srv.Profile()
	fill := strings.NewReplacer("{{key}}", prof.APIKey, "{{email}}", prof.Email, "{{password}}", prof.Password, "{{hash}}", prof.MarketappHash)
	req := httptest.NewRequest(p.method, fill.Replace(p.path), strings.NewReader(fill.Replace(p.body)))
	headers := p.headers
	if headers == nil {
		headers = []string{"Authorization", "api-key {{key}}"}
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], fill.Replace(headers[i+1]))
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

const (
	userBody   = `{"email":"{{email}}","firstName":"Q","lastName":"A","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"timezone":"Europe/London","password":null}`
	clientBody = `{"name":"C","addressLine1":"1 Street","addressCity":"London","addressPostcode":"EC1A 1BB","addressCountry":"UK","currency":{"id":1},"terms":"I agree"}`
	appBody    = `{"marketapp":{"hash":"{{hash}}"},"nextplan":{"id":1}}`
	login      = `{"email":"{{email}}","password":"{{password}}"}`
)

var anonymous = []string{}

// TestDefectsChangeTheAnswer checks built-in defects of every kind at the
// unit level: the same request answers as the spec says without the defect,
// and differently with it. cmd/pricing-mutation checks every wrong server
// against the contract suite.
func TestDefectsChangeTheAnswer(t *testing.T) {
	tests := []struct {
		defect      string
		exchange    exchange
		clean, want string
	}{
		{"forbidden-as-404", exchange{"PUT", "/v1/users/2", userBody, nil, status}, "403", "404"},
		{"unauthorized-as-403", exchange{"POST", "/v1/apps", appBody, anonymous, status}, "401", "403"},
		{"post-answers-201", exchange{"POST", "/v1/sessions", login, anonymous, status}, "200", "201"},
		{"error-body-object", exchange{"PUT", "/v1/users/1", `{}`, nil, func(r *httptest.ResponseRecorder) string {
			return r.Body.String()[:1]
		}}, "[", "{"},
		{"only-first-error", exchange{"PUT", "/v1/users/1", `{}`, nil, jsonAt("#")}, "8", "1"},
		{"error-code-misspelt", exchange{"PUT", "/v1/users/1", `{}`, nil, jsonAt(`#(fieldName=="firstName").error`)}, `"InvalidFirstName"`, `"InvalidFirstname"`},
		{"collection-bare-array", exchange{"GET", "/v1/platforms", "", anonymous, jsonAt("0.name")}, "", `"Android"`},
		{"content-type-text", exchange{"GET", "/v1/platforms", "", anonymous, func(r *httptest.ResponseRecorder) string {
			return r.Header().Get("Content-Type")
		}}, "application/json; charset=utf-8", "text/plain; charset=utf-8"},
		{"ids-as-strings", exchange{"GET", "/v1/clients/1", "", nil, jsonAt("currency.id")}, "1", `"1"`},
		{"currency-code-numeric", exchange{"GET", "/v1/clients/1", "", nil, jsonAt("currency.code")}, `"GBP"`, `"826"`},
		{"dialcode-without-plus", exchange{"GET", "/v1/users/1", "", nil, jsonAt("phoneCountry.dialCode")}, `"+44"`, `"44"`},
		{"password-leaked", exchange{"GET", "/v1/users/1", "", nil, func(r *httptest.ResponseRecorder) string {
			return gjson.GetBytes(r.Body.Bytes(), "password").Type.String()
		}}, "Null", "String"},
		{"terms-not-checked", exchange{"POST", "/v1/clients", strings.Replace(clientBody, "I agree", "no", 1), nil, status}, "400", "200"},
		{"vat-limit-256", exchange{"POST", "/v1/clients", strings.Replace(clientBody, `"name"`, `"vat":"`+strings.Repeat("v", 256)+`","name"`, 1), nil, status}, "400", "200"},
		{"hash-truncated-to-40", exchange{"POST", "/v1/apps", strings.Replace(appBody, `}}"`, `}}0"`, 1), nil, status}, "400", "200"},
		{"wrong-password-accepted", exchange{"POST", "/v1/sessions", `{"email":"{{email}}","password":"not-the-password"}`, anonymous, status}, "401", "200"},
		{"client-permission-skipped", exchange{"PUT", "/v1/clients/2", clientBody, nil, status}, "403", "200"},
		{"user-permission-skipped", exchange{"GET", "/v1/users/2", "", nil, status}, "403", "200"},
		{"auth-not-enforced-put-clients", exchange{"PUT", "/v1/clients/1", clientBody, anonymous, status}, "401", "403"},
		{"auth-not-enforced-put-clients", exchange{"PUT", "/v1.0/clients/1", clientBody, nil, status}, "200", "403"},
		{"auth-not-enforced-put-clients", exchange{"PUT", "/v1/clients/99", clientBody, []string{"Authorization", "api-key wrong"}, status}, "401", "404"},
		{"auth-not-enforced-put-clients", exchange{"GET", "/v1/clients/1", "", anonymous, status}, "401", "401"},
		{"api-key-scheme-ignored", exchange{"GET", "/v1/users/1", "", []string{"Authorization", "Bearer {{key}}"}, status}, "401", "200"},
		{"session-token-header-ignored", exchange{"GET", "/v1/users/1", "", []string{"Authorization", "api-key {{key}}", "session-token", "not-a-token"}, status}, "401", "200"},
		{"session-token-query-ignored", exchange{"GET", "/v1/users/1?sessionToken=not-a-token", "", nil, status}, "401", "200"},
		{"v1.0-not-served", exchange{"GET", "/v1.0/platforms", "", anonymous, status}, "200", "404"},
		{"v1.0-not-served", exchange{"GET", "/v1.0/platforms", "", anonymous, jsonAt("0.error")}, "", `"NotFound"`},
		{"unknown-version-served", exchange{"GET", "/v2/platforms", "", anonymous, status}, "404", "200"},
		{"unknown-version-served", exchange{"GET", "/v2/users/1", "", anonymous, status}, "404", "401"},
		{"error-for-valid-field", exchange{"PUT", "/v1/users/1", strings.Replace(userBody, `"Q"`, `""`, 1), nil, jsonAt("#.fieldName")}, `["firstName"]`, `["firstName","lastName"]`},
		{"error-message-empty", exchange{"PUT", "/v1/users/1", `{}`, nil, jsonAt(`#(message=="")#.fieldName`)}, `[]`, `["email","firstName","lastName","subscribeWelcome","subscribeBlog","subscribeHowto","subscribeOnboarding","timezone"]`},
		{"error-fieldname-snake-case", exchange{"PUT", "/v1/users/1", `{}`, nil, jsonAt(`#(error=="InvalidFirstName").fieldName`)}, `"firstName"`, `"first_name"`},
		{"malformed-json-500", exchange{"POST", "/v1/apps", `{"marketapp":`, nil, status}, "400", "500"},
		{"malformed-json-500", exchange{"POST", "/v1/sessions", `email=x`, []string{"Content-Type", "application/x-www-form-urlencoded"}, status}, "400", "400"},
		{"empty-body-500", exchange{"POST", "/v1/apps", ``, nil, status}, "400", "500"},
		{"huge-path-id-500", exchange{"PUT", "/v1/users/99999999999999999999", userBody, nil, status}, "404", "500"},
		{"huge-path-id-500", exchange{"PUT", "/v1/users/3", userBody, nil, status}, "404", "404"},
		{"unnamed-field-500", exchange{"PUT", "/v1/users/1", strings.Replace(userBody, `"Q"`, `"Q","nickname":"q"`, 1), nil, status}, "200", "500"},
		{"unnamed-field-500", exchange{"PUT", "/v1/users/1", userBody, nil, status}, "200", "200"},
	}
	for _, tt := range tests {
		t.Run(tt.defect, func(t *testing.T) {
			t.Parallel()
			srv, h := mock(t)
			if got := tt.exchange.observe(tt.exchange.send(t, srv, h)); got != tt.clean {
				t.Errorf("%s %s without the defect: got %s, want %s", tt.exchange.method, tt.exchange.path, got, tt.clean)
			}
			srv, h = mock(t, tt.defect)
			if got := tt.exchange.observe(tt.exchange.send(t, srv, h)); got != tt.want {
				t.Errorf("%s %s with the defect: got %s, want %s", tt.exchange.method, tt.exchange.path, got, tt.want)
			}
		})
	}
}

// TestUpdateNotStored needs two requests: the answer, then a later read.
func TestUpdateNotStored(t *testing.T) {
	srv, h := mock(t, "user-update-not-stored")
	put := exchange{"PUT", "/v1/users/1", strings.Replace(userBody, `"Q"`, `"Changed"`, 1), nil, jsonAt("firstName")}
	if got := put.observe(put.send(t, srv, h)); got != `"Changed"` {
		t.Fatalf("PUT answered firstName %s, want the new Changed", got)
	}
	get := exchange{"GET", "/v1/users/1", "", nil, jsonAt("firstName")}
	if got := get.observe(get.send(t, srv, h)); got == `"Changed"` || got == "" {
		t.Errorf("a later read shows firstName %s, want the stored one", got)
	}
}

// TestNewDefectsChangeTheAnswer checks the defects of behaviour over time,
// of rules with a second half and of unusual input at the unit level: a
// short run of requests observes the same as the spec without the defect,
// and something else with it. The last exchange's observation is compared.
func TestNewDefectsChangeTheAnswer(t *testing.T) {
	seedCreated := func(r *httptest.ResponseRecorder) string {
		return strconv.FormatBool(gjson.GetBytes(r.Body.Bytes(), "created").Str == "2025-01-06T09:00:00Z")
	}
	newPassword := strings.Replace(userBody, `"password":null`, `"password":"contract-new-pw"`, 1)
	bBody := strings.Replace(newPassword, "{{email}}", "other@example.com", 1)
	bLogin := exchange{"POST", "/v1/sessions", `{"email":"other@example.com","password":"contract-new-pw"}`, anonymous, status}
	aLogin := exchange{"POST", "/v1/sessions", `{"email":"{{email}}","password":"contract-new-pw"}`, anonymous, status}
	tests := []struct {
		defect      string
		exchanges   []exchange
		clean, want string
	}{
		{"user-created-changes-on-update", []exchange{{"PUT", "/v1/users/1", userBody, nil, seedCreated}}, "true", "false"},
		{"passwordLastChanged-on-every-update", []exchange{{"PUT", "/v1/users/1", userBody, nil, func(r *httptest.ResponseRecorder) string {
			return strconv.FormatBool(gjson.GetBytes(r.Body.Bytes(), "passwordLastChanged").Str == "2025-01-06T09:00:00Z")
		}}}, "true", "false"},
		{"writekey-shared", []exchange{{"POST", "/v1/apps", appBody, nil, func(r *httptest.ResponseRecorder) string {
			return strconv.FormatBool(gjson.GetBytes(r.Body.Bytes(), "writeKey").Str == "0123456789abcdef0123456789abcdef")
		}}}, "false", "true"},
		{"client-createdDate-unset", []exchange{{"POST", "/v1/clients", clientBody, nil, func(r *httptest.ResponseRecorder) string {
			return strconv.FormatBool(gjson.GetBytes(r.Body.Bytes(), "createdDate").Str == variants.UnsetDate)
		}}}, "false", "true"},
		{"unauthenticated-update-applied", []exchange{{"PUT", "/v1/users/1", newPassword, anonymous, status}, aLogin}, "401", "200"},
		{"forbidden-update-applied", []exchange{{"PUT", "/v1/users/2", bBody, nil, status}, bLogin}, "401", "200"},
		{"rejected-password-stored", []exchange{{"PUT", "/v1/users/1", strings.Replace(newPassword, `"Q"`, `""`, 1), nil, status}, aLogin}, "401", "200"},
		{"session-token-acts-as-last-login", []exchange{
			{"POST", "/v1/sessions", login, anonymous, status},
			{"POST", "/v1/sessions", `{"email":"other@example.com","password":"other-password"}`, anonymous, status},
			{"GET", "/v1/users/2", "", []string{"session-token", "{{token}}"}, status},
		}, "403", "200"},
		{"old-email-still-logs-in", []exchange{
			{"PUT", "/v1/users/1", strings.Replace(userBody, "{{email}}", "contract-new@example.com", 1), nil, status},
			{"POST", "/v1/sessions", login, anonymous, status},
		}, "401", "200"},
		{"names-ascii-only", []exchange{{"PUT", "/v1/users/1", strings.Replace(userBody, `"Q"`, `"Zoë"`, 1), nil, status}}, "200", "400"},
		{"firstname-limit-in-bytes", []exchange{{"PUT", "/v1/users/1", strings.Replace(userBody, `"Q"`, `"`+strings.Repeat("ж", 255)+`"`, 1), nil, status}}, "200", "400"},
		{"email-plus-refused", []exchange{{"PUT", "/v1/users/1", strings.Replace(userBody, "{{email}}", "qa+tag@example.com", 1), nil, status}}, "200", "400"},
		{"currency-id-ignored", []exchange{{"PUT", "/v1/clients/1", strings.Replace(clientBody, `"id":1`, `"id":2`, 1), nil, jsonAt("currency.id")}}, "2", "1"},
		{"platform-id-ignored", []exchange{{"POST", "/v1/apps", `{"name":"contract-x","platform":{"id":2}}`, nil, jsonAt("platform.id")}}, "2", "1"},
		{"uppercase-hash-refused", []exchange{{"POST", "/v1/apps", `{"marketapp":{"hash":"FECAF482F29181490AE5ECFB2790186CE7F82078"}}`, nil, status}}, "200", "400"},
		{"unknown-hash-ignored", []exchange{{"POST", "/v1/apps", `{"marketapp":{"hash":"` + strings.Repeat("0", 40) + `"},"name":"contract-x","platform":{"id":1}}`, nil, status}}, "400", "200"},
		{"put-users-creates-client", []exchange{{"PUT", "/v1/users/1", userBody, nil, status}, {"GET", "/v1/users/1/clients", "", nil, jsonAt("clients.#")}}, "1", "2"},
		{"password-echoed-by-sessions", []exchange{{"POST", "/v1/sessions", login, anonymous, jsonAt("password")}}, "", `"qa-password"`},
		{"json-quotes-unescaped", []exchange{{"PUT", "/v1/users/1", strings.Replace(userBody, `"Q"`, `"a\"b"`, 1), nil, func(r *httptest.ResponseRecorder) string {
			return strconv.FormatBool(gjson.ValidBytes(r.Body.Bytes()))
		}}}, "true", "false"},
	}
	for _, tt := range tests {
		t.Run(tt.defect, func(t *testing.T) {
			t.Parallel()
			for _, names := range [][]string{nil, {tt.defect}} {
				srv, h := mock(t, names...)
				var got string
				token := ""
				for _, p := range tt.exchanges {
					for i, v := range p.headers {
						if v == "{{token}}" {
							p.headers = append([]string(nil), p.headers...)
							p.headers[i] = token
						}
					}
					rec := p.send(t, srv, h)
					if tok := gjson.GetBytes(rec.Body.Bytes(), "token"); tok.Exists() && token == "" {
						token = tok.Str
					}
					got = p.observe(rec)
				}
				want := tt.clean
				if names != nil {
					want = tt.want
				}
				if got != want {
					t.Errorf("with %v: got %s, want %s", names, got, want)
				}
			}
		})
	}
}
