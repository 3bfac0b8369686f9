package mockserver

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The areas of the spec that the faults must cover between them.
var faultAreas = []string{"2.1", "2.2", "2.3", "2.4", "2.5", "4.1", "4.2", "4.3", "4.4", "5", "7.1", "7.3", "8", "9"}

func TestFaultsCatalogue(t *testing.T) {
	faults := Faults()
	if len(faults) < 30 {
		t.Errorf("%d faults, want at least 30", len(faults))
	}
	name := regexp.MustCompile(`^[a-z0-9][a-zA-Z0-9.-]*$`)
	seen := map[string]bool{}
	areas := map[string]bool{}
	for _, f := range faults {
		if !name.MatchString(f.Name) {
			t.Errorf("fault name %q is not a lower-case word list joined by hyphens", f.Name)
		}
		if seen[f.Name] {
			t.Errorf("fault %q listed twice", f.Name)
		}
		seen[f.Name] = true
		areas[f.Area] = true
		if f.Area == "" || f.Description == "" {
			t.Errorf("fault %q: area %q, description %q: both are needed", f.Name, f.Area, f.Description)
		}
	}
	for _, a := range faultAreas {
		if !areas[a] {
			t.Errorf("no fault breaks a rule of section %s", a)
		}
	}
	for _, d := range faultDefs {
		mechanisms := 0
		for _, set := range []bool{d.deviate != nil, d.rewrite != nil, d.check != noCheck} {
			if set {
				mechanisms++
			}
		}
		if mechanisms != 1 {
			t.Errorf("fault %q has %d mechanisms, want exactly one", d.Name, mechanisms)
		}
	}
}

func TestNewRejectsAnUnknownFault(t *testing.T) {
	_, err := New(Options{Faults: []string{"forbidden-as-404", "no-such-fault"}})
	if err == nil {
		t.Fatal("New accepted the fault no-such-fault")
	}
	for _, want := range []string{`"no-such-fault"`, "forbidden-as-404", "v1.0-not-served"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

func TestWithoutFaultsNothingIsRewritten(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.handler != http.Handler(s.engine) {
		t.Error("a server without faults answers through a rewriting wrapper")
	}
	if s.faults != nil || !reflect.DeepEqual(s.Store().Validator().Deviations, pricing.Deviations{}) {
		t.Error("a server without faults has a fault set or deviates from the spec")
	}
}

const (
	faultUserBody   = `{"email":"qa@example.com","firstName":"Q","lastName":"A","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"timezone":"Europe/London","password":null}`
	faultClientBody = `{"name":"C","addressLine1":"1 Street","addressCity":"London","addressPostcode":"EC1A 1BB","addressCountry":"UK","currency":{"id":1},"terms":"I agree"}`
	faultAppBody    = `{"marketapp":{"hash":"fecaf482f29181490ae5ecfb2790186ce7f82078"},"nextplan":{"id":1}}`
)

// faultProbe is one request and what to observe of its answer.
type faultProbe struct {
	method, path, body string
	apiKey             string // "" sends no credentials
	observe            func(*httptest.ResponseRecorder) string
}

func status(r *httptest.ResponseRecorder) string { return strconv.Itoa(r.Code) }

func jsonAt(path string) func(*httptest.ResponseRecorder) string {
	return func(r *httptest.ResponseRecorder) string { return gjson.GetBytes(r.Body.Bytes(), path).Raw }
}

func (p faultProbe) send(t *testing.T, faults ...string) string {
	t.Helper()
	s, err := New(Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(p.method, p.path, strings.NewReader(p.body))
	if p.apiKey != "" {
		req.Header.Set("Authorization", "api-key "+p.apiKey)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return p.observe(rec)
}

// TestFaultsChangeTheAnswer checks one fault of each kind at the unit level:
// the same request answers as the spec says without the fault, and
// differently with it. cmd/pricing-mutation checks every fault against the
// contract suite.
func TestFaultsChangeTheAnswer(t *testing.T) {
	tests := []struct {
		fault       string
		probe       faultProbe
		clean, want string
	}{
		{"forbidden-as-404", faultProbe{"PUT", "/v1/users/2", faultUserBody, "qa-api-key", status}, "403", "404"},
		{"unauthorized-as-403", faultProbe{"POST", "/v1/apps", faultAppBody, "", status}, "401", "403"},
		{"post-answers-201", faultProbe{"POST", "/v1/sessions", `{"email":"qa@example.com","password":"qa-password"}`, "", status}, "200", "201"},
		{"error-body-object", faultProbe{"PUT", "/v1/users/1", `{}`, "qa-api-key", func(r *httptest.ResponseRecorder) string {
			return r.Body.String()[:1]
		}}, "[", "{"},
		{"only-first-error", faultProbe{"PUT", "/v1/users/1", `{}`, "qa-api-key", jsonAt("#")}, "8", "1"},
		{"collection-bare-array", faultProbe{"GET", "/v1/platforms", "", "", jsonAt("0.name")}, "", `"Android"`},
		{"content-type-text", faultProbe{"GET", "/v1/platforms", "", "", func(r *httptest.ResponseRecorder) string {
			return r.Header().Get("Content-Type")
		}}, "application/json; charset=utf-8", "text/plain; charset=utf-8"},
		{"ids-as-strings", faultProbe{"GET", "/v1/clients/1", "", "qa-api-key", jsonAt("currency.id")}, "1", `"1"`},
		{"currency-code-numeric", faultProbe{"GET", "/v1/clients/1", "", "qa-api-key", jsonAt("currency.code")}, `"GBP"`, `"826"`},
		{"dialcode-without-plus", faultProbe{"GET", "/v1/users/1", "", "qa-api-key", jsonAt("phoneCountry.dialCode")}, `"+44"`, `"44"`},
		{"terms-not-checked", faultProbe{"POST", "/v1/clients", strings.Replace(faultClientBody, "I agree", "no", 1), "qa-api-key", status}, "400", "200"},
		{"vat-limit-256", faultProbe{"POST", "/v1/clients", strings.Replace(faultClientBody, `"name"`, `"vat":"`+strings.Repeat("v", 256)+`","name"`, 1), "qa-api-key", status}, "400", "200"},
		{"hash-truncated-to-40", faultProbe{"POST", "/v1/apps", strings.Replace(faultAppBody, `078"`, `0780"`, 1), "qa-api-key", status}, "400", "200"},
		{"wrong-password-accepted", faultProbe{"POST", "/v1/sessions", `{"email":"qa@example.com","password":"not-the-password"}`, "", status}, "401", "200"},
		{"client-permission-skipped", faultProbe{"PUT", "/v1/clients/2", faultClientBody, "qa-api-key", status}, "403", "200"},
		{"auth-not-enforced-put-clients", faultProbe{"PUT", "/v1/clients/1", faultClientBody, "", status}, "401", "403"},
		{"v1.0-not-served", faultProbe{"GET", "/v1.0/platforms", "", "", status}, "200", "404"},
		{"unknown-version-served", faultProbe{"GET", "/v2/platforms", "", "", status}, "404", "200"},
	}
	for _, tt := range tests {
		t.Run(tt.fault, func(t *testing.T) {
			t.Parallel()
			if got := tt.probe.send(t); got != tt.clean {
				t.Errorf("without the fault: got %s, want %s", got, tt.clean)
			}
			if got := tt.probe.send(t, tt.fault); got != tt.want {
				t.Errorf("with the fault: got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestPasswordLeakedAddsThePassword(t *testing.T) {
	p := faultProbe{"GET", "/v1/users/1", "", "qa-api-key", jsonAt("password")}
	if got := p.send(t); got != "" {
		t.Errorf("without the fault the user has password %s", got)
	}
	if got := p.send(t, "password-leaked"); !strings.HasPrefix(got, `"`) {
		t.Errorf("with the fault the user's password is %q, want a string", got)
	}
}

// TestUpdateNotStored needs two requests: the answer, then a later read.
func TestUpdateNotStored(t *testing.T) {
	s, err := New(Options{Faults: []string{"user-update-not-stored"}})
	if err != nil {
		t.Fatal(err)
	}
	do := func(method, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, "/v1/users/1", strings.NewReader(body))
		req.Header.Set("Authorization", "api-key qa-api-key")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec
	}
	put := do("PUT", strings.Replace(faultUserBody, `"Q"`, `"Changed"`, 1))
	if put.Code != http.StatusOK || gjson.Get(put.Body.String(), "firstName").Str != "Changed" {
		t.Fatalf("PUT answered %d %s, want 200 with the new firstName", put.Code, put.Body)
	}
	if got := gjson.Get(do("GET", "").Body.String(), "firstName").Str; got != "Quinn" {
		t.Errorf("a later read shows firstName %q, want the stored Quinn", got)
	}
}

func TestDeviationsDefaultToTheSpec(t *testing.T) {
	f, err := newFaultSet([]string{"terms-not-checked"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.deviations(), (pricing.Deviations{TermsUnchecked: true}); !reflect.DeepEqual(got, want) {
		t.Errorf("terms-not-checked deviates by %+v, want only %+v", got, want)
	}
	if got := (*faultSet)(nil).deviations(); !reflect.DeepEqual(got, pricing.Deviations{}) {
		t.Errorf("no faults deviate by %+v, want the zero pricing.Deviations", got)
	}
	if v := (*faultSet)(nil).versions(versions); !slices.Equal(v, versions) {
		t.Errorf("no faults route %v, want %v", v, versions)
	}
}
