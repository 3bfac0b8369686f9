package pricing

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
)

// fakeCatalog is a Catalog with a fixed content, so that validation is tested
// without a store.
type fakeCatalog struct{}

var _ Catalog = fakeCatalog{}

// spec validates as the spec says: with the zero Deviations.
var spec = Validator{Catalog: fakeCatalog{}}

const (
	knownHash = "fecaf482f29181490ae5ecfb2790186ce7f82078"
	takenMail = "taken@example.com"
)

func (fakeCatalog) PhoneCountry(id int64) (PhoneCountry, bool) {
	return PhoneCountry{ID: id, Name: "United Kingdom (+44)", DialCode: "+44"}, id == 1
}
func (fakeCatalog) Currency(id int64) (Currency, bool) { return Currency{ID: id, Code: "GBP"}, id == 1 }
func (fakeCatalog) Plan(id int64) (Plan, bool)         { return Plan{ID: id}, id == 1 || id == 2 }
func (fakeCatalog) Platform(id int64) (Platform, bool) { return Platform{ID: id}, id == 1 || id == 2 }
func (fakeCatalog) Marketapp(hash string) (Marketapp, bool) {
	return Marketapp{Hash: knownHash, Name: "Puzzle Quest", PlatformID: 1}, hash == knownHash
}
func (fakeCatalog) DefaultPlanID() int64 { return 1 }
func (fakeCatalog) EmailTaken(email string, except int64) bool {
	return strings.EqualFold(email, takenMail) && except != 9
}

// body decodes JSON the way the handlers do (numbers as json.Number).
func body(t *testing.T, s string) Body {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var b Body
	if err := dec.Decode(&b); err != nil {
		t.Fatalf("test body %s: %v", s, err)
	}
	return b
}

// with returns a deep copy of b with each dotted path set (a nil value
// deletes the key; the string "<null>" sets JSON null).
func with(t *testing.T, b Body, changes map[string]any) Body {
	t.Helper()
	raw, _ := json.Marshal(b)
	out := body(t, string(raw))
	for path, v := range changes {
		m, last := jsonio.Parent(out, path)
		switch {
		case v == nil:
			delete(m, last)
		case v == "<null>":
			m[last] = nil
		default:
			m[last] = v
		}
	}
	return out
}

// codes renders errors as "fieldName:code" in answer order.
func codes(errs []FieldError) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.FieldName+":"+e.Error.String())
		if e.Message == "" {
			out = append(out, e.FieldName+": empty message")
		}
	}
	return out
}

const (
	userJSON = `{"email":"qa@example.com","firstName":"Quinn","lastName":"Assurance","timezone":"Europe/London",
		"subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"password":null}`
	signUpJSON = `{"email":"new@example.com","firstName":"New","lastName":"User","timezone":"America/Argentina/Buenos_Aires",
		"subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,
		"password":"secret","phoneCountry":{"id":1},"phoneNumber":"7700900999"}`
	clientJSON = `{"name":"Acme","addressLine1":"1 Road","addressCity":"Leeds","addressPostcode":"LS1 1AA",
		"addressCountry":"United Kingdom","currency":{"id":1},"terms":"I agree"}`
	hashAppJSON = `{"marketapp":{"hash":"` + knownHash + `"},"name":null,"platform":{"id":null},"nextplan":{"id":2}}`
	nameAppJSON = `{"name":"My app","platform":{"id":2}}`
)

// changeCase is a valid body changed (set, by dotted path as with does) and
// the codes its validation must give ("field:Code"), none when valid.
type changeCase struct {
	name    string
	changes map[string]any
	want    []string
}

func long(n int) string  { return strings.Repeat("é", n) } // multi-byte: lengths count characters
func email(n int) string { return strings.Repeat("a", n-len("@example.com")) + "@example.com" }

func TestValidateUserUpdate(t *testing.T) {
	base := body(t, userJSON)
	tests := []changeCase{
		{"valid", nil, nil},
		{"email missing", map[string]any{"email": nil}, []string{"email:InvalidEmail"}},
		{"email null", map[string]any{"email": "<null>"}, []string{"email:InvalidEmail"}},
		{"email number", map[string]any{"email": json.Number("1")}, []string{"email:InvalidEmail"}},
		{"email not an address", map[string]any{"email": "qa.example.com"}, []string{"email:InvalidEmail"}},
		{"email with display name", map[string]any{"email": "Q <qa@example.com>"}, []string{"email:InvalidEmail"}},
		{"email taken", map[string]any{"email": "TAKEN@example.com"}, []string{"email:InvalidEmail"}},
		{"email 255", map[string]any{"email": email(255)}, nil},
		{"email 256", map[string]any{"email": email(256)}, []string{"email:InvalidEmail"}},
		{"firstName missing", map[string]any{"firstName": nil}, []string{"firstName:InvalidFirstName"}},
		{"firstName blank", map[string]any{"firstName": "  "}, []string{"firstName:InvalidFirstName"}},
		{"firstName 255", map[string]any{"firstName": long(255)}, nil},
		{"firstName 256", map[string]any{"firstName": long(256)}, []string{"firstName:InvalidFirstName"}},
		{"lastName missing", map[string]any{"lastName": nil}, []string{"lastName:InvalidLastName"}},
		{"lastName boolean", map[string]any{"lastName": true}, []string{"lastName:InvalidLastName"}},
		{"lastName 255", map[string]any{"lastName": long(255)}, nil},
		{"lastName 256", map[string]any{"lastName": long(256)}, []string{"lastName:InvalidLastName"}},
		{"timezone missing", map[string]any{"timezone": nil}, []string{"timezone:InvalidTimezone"}},
		{"timezone without city", map[string]any{"timezone": "UTC"}, []string{"timezone:InvalidTimezone"}},
		{"timezone with space", map[string]any{"timezone": "Europe/New York"}, []string{"timezone:InvalidTimezone"}},
		{"timezone three parts", map[string]any{"timezone": "America/Indiana/Knox"}, nil},
		{"timezone 255", map[string]any{"timezone": "Area/" + strings.Repeat("c", 250)}, nil},
		{"timezone 256", map[string]any{"timezone": "Area/" + strings.Repeat("c", 251)}, []string{"timezone:InvalidTimezone"}},
		{"subscribeWelcome missing", map[string]any{"subscribeWelcome": nil}, []string{"subscribeWelcome:InvalidSubscribeWelcome"}},
		{"subscribeBlog string", map[string]any{"subscribeBlog": "true"}, []string{"subscribeBlog:InvalidSubscribeBlog"}},
		{"subscribeHowto number", map[string]any{"subscribeHowto": json.Number("1")}, []string{"subscribeHowto:InvalidSubscribeHowto"}},
		{"subscribeOnboarding null", map[string]any{"subscribeOnboarding": "<null>"}, []string{"subscribeOnboarding:InvalidSubscribeOnboarding"}},
		{"password absent keeps", map[string]any{"password": nil}, nil},
		{"password 5", map[string]any{"password": "12345"}, []string{"password:InvalidPassword"}},
		{"password 6", map[string]any{"password": "123456"}, nil},
		{"password 6 multi-byte", map[string]any{"password": long(6)}, nil},
		{"password 5 multi-byte", map[string]any{"password": long(5)}, []string{"password:InvalidPassword"}},
		{"password empty", map[string]any{"password": ""}, []string{"password:InvalidPassword"}},
		{"password number", map[string]any{"password": json.Number("1234567")}, []string{"password:InvalidPassword"}},
		{"phoneCountry known", map[string]any{"phoneCountry.id": json.Number("1")}, nil},
		{"phoneCountry unknown", map[string]any{"phoneCountry.id": json.Number("7")}, []string{"phoneCountry.id:InvalidPhoneCountryId"}},
		{"phoneCountry id string", map[string]any{"phoneCountry.id": "1"}, []string{"phoneCountry.id:InvalidPhoneCountryId"}},
		{"phoneCountry id fraction", map[string]any{"phoneCountry.id": json.Number("1.5")}, []string{"phoneCountry.id:InvalidPhoneCountryId"}},
		{"phoneCountry null", map[string]any{"phoneCountry": "<null>"}, []string{"phoneCountry.id:InvalidPhoneCountryId"}},
		{"phoneCountry not an object", map[string]any{"phoneCountry": json.Number("1")}, []string{"phoneCountry.id:InvalidPhoneCountryId"}},
		{"phoneNumber 255", map[string]any{"phoneNumber": strings.Repeat("1", 255)}, nil},
		{"phoneNumber 256", map[string]any{"phoneNumber": strings.Repeat("1", 256)}, []string{"phoneNumber:InvalidPhoneNumber"}},
		{"phoneNumber empty", map[string]any{"phoneNumber": ""}, []string{"phoneNumber:InvalidPhoneNumber"}},
		{"phoneNumber number", map[string]any{"phoneNumber": json.Number("7700")}, []string{"phoneNumber:InvalidPhoneNumber"}},
		{"phoneExtension null", map[string]any{"phoneExtension": "<null>"}, nil},
		{"phoneExtension 10 digits", map[string]any{"phoneExtension": "1234567890"}, nil},
		{"phoneExtension 11 digits", map[string]any{"phoneExtension": "12345678901"}, []string{"phoneExtension:InvalidPhoneExtension"}},
		{"phoneExtension letters", map[string]any{"phoneExtension": "12a"}, []string{"phoneExtension:InvalidPhoneExtension"}},
		{"phoneExtension empty", map[string]any{"phoneExtension": ""}, []string{"phoneExtension:InvalidPhoneExtension"}},
		{"phoneExtension number", map[string]any{"phoneExtension": json.Number("12")}, []string{"phoneExtension:InvalidPhoneExtension"}},
		{"client not an object", map[string]any{"client": "Acme"}, []string{"client:InvalidClient"}},
		{"client null is no client", map[string]any{"client": "<null>"}, nil},
		{"client nested errors", map[string]any{"client": map[string]any{"terms": "I agree", "app": map[string]any{}}}, []string{
			"client.name:InvalidName", "client.addressLine1:InvalidAddressLine1", "client.addressCity:InvalidAddressCity",
			"client.addressPostcode:InvalidAddressPostcode", "client.addressCountry:InvalidAddressCountry",
			"client.currency.id:InvalidCurrencyId", "client.app.name:InvalidName", "client.app.platform.id:InvalidPlatformId",
		}},
		{"every error at once", map[string]any{
			"email": "x", "firstName": "", "lastName": nil, "timezone": "Nowhere", "subscribeWelcome": nil,
			"subscribeBlog": nil, "subscribeHowto": nil, "subscribeOnboarding": nil, "password": "short",
			"phoneCountry.id": json.Number("0"), "phoneNumber": "", "phoneExtension": "ext",
		}, []string{
			"email:InvalidEmail", "firstName:InvalidFirstName", "lastName:InvalidLastName",
			"subscribeWelcome:InvalidSubscribeWelcome", "subscribeBlog:InvalidSubscribeBlog",
			"subscribeHowto:InvalidSubscribeHowto", "subscribeOnboarding:InvalidSubscribeOnboarding",
			"timezone:InvalidTimezone", "password:InvalidPassword", "phoneCountry.id:InvalidPhoneCountryId",
			"phoneNumber:InvalidPhoneNumber", "phoneExtension:InvalidPhoneExtension",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := spec.UserUpdate(with(t, base, tt.changes), 1)
			if got, want := codes(errs), append([]string{}, tt.want...); !slices.Equal(got, want) {
				t.Errorf("errors = %q, want %q", got, want)
			}
		})
	}
}

func TestValidateUserUpdateInput(t *testing.T) {
	b := with(t, body(t, userJSON), map[string]any{
		"password": "new-password", "phoneCountry.id": json.Number("1"), "phoneNumber": "123", "phoneExtension": "<null>",
		"client": body(t, clientJSON),
	})
	in, errs := spec.UserUpdate(b, 1)
	if len(errs) > 0 {
		t.Fatalf("errors: %q", codes(errs))
	}
	switch {
	case in.Email != "qa@example.com" || in.FirstName != "Quinn" || in.Timezone != "Europe/London":
		t.Errorf("text fields: %+v", in)
	case !in.SubscribeWelcome || in.SubscribeBlog || !in.SubscribeHowto || in.SubscribeOnboarding:
		t.Errorf("flags: %+v", in)
	case in.Password == nil || *in.Password != "new-password":
		t.Errorf("password not carried")
	case in.PhoneCountryID != 1 || in.PhoneNumber == nil || *in.PhoneNumber != "123":
		t.Errorf("phone: %+v", in)
	case !in.SetPhoneExtension || in.PhoneExtension != nil:
		t.Errorf("phoneExtension null should clear: set=%v value=%v", in.SetPhoneExtension, in.PhoneExtension)
	case in.Client == nil || in.Client.Name != "Acme" || in.Client.CurrencyID != 1 || in.Client.App != nil:
		t.Errorf("client: %+v", in.Client)
	}

	// Absent optional fields keep the stored values.
	in, errs = spec.UserUpdate(body(t, userJSON), 1)
	if len(errs) > 0 || in.Password != nil || in.PhoneCountryID != 0 || in.PhoneNumber != nil || in.SetPhoneExtension || in.Client != nil {
		t.Errorf("absent fields should be kept: %+v errors %q", in, codes(errs))
	}

	// The user's own email is not "taken" by itself.
	if _, errs := spec.UserUpdate(with(t, body(t, userJSON), map[string]any{"email": takenMail}), 9); len(errs) > 0 {
		t.Errorf("own email rejected: %q", codes(errs))
	}
}

func TestValidateUserCreate(t *testing.T) {
	base := body(t, signUpJSON)
	tests := []changeCase{
		{"valid", nil, nil},
		{"with client and app", map[string]any{"client": with(t, body(t, clientJSON), map[string]any{"app": body(t, hashAppJSON)})}, nil},
		{"password absent", map[string]any{"password": nil}, []string{"password:InvalidPassword"}},
		{"password null", map[string]any{"password": "<null>"}, []string{"password:InvalidPassword"}},
		{"password 5", map[string]any{"password": "12345"}, []string{"password:InvalidPassword"}},
		{"phoneCountry absent", map[string]any{"phoneCountry": nil}, []string{"phoneCountry.id:InvalidPhoneCountryId"}},
		{"phoneNumber absent", map[string]any{"phoneNumber": nil}, []string{"phoneNumber:InvalidPhoneNumber"}},
		{"email taken", map[string]any{"email": takenMail}, []string{"email:InvalidEmail"}},
		{"app error inside client", map[string]any{"client": with(t, body(t, clientJSON), map[string]any{"app": map[string]any{"marketapp": map[string]any{"hash": "xyz"}}})},
			[]string{"client.app.marketapp.hash:InvalidMarketappHash"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, errs := spec.UserCreate(with(t, base, tt.changes))
			if got := codes(errs); !slices.Equal(got, append([]string{}, tt.want...)) {
				t.Fatalf("errors = %q, want %q", got, tt.want)
			}
			if len(errs) == 0 && (in.Password == nil || in.PhoneCountryID != 1 || in.PhoneNumber == nil) {
				t.Errorf("required fields not carried: %+v", in)
			}
		})
	}
}

func TestValidateClient(t *testing.T) {
	base := body(t, clientJSON)
	tests := []struct {
		name       string
		changes    map[string]any
		wantCreate []string
		wantUpdate []string // nil: same as wantCreate
	}{
		{name: "valid"},
		{name: "optional fields null", changes: map[string]any{"addressLine2": "<null>", "vat": "<null>"}},
		{name: "optional fields set", changes: map[string]any{"addressLine2": "Unit 4", "vat": "GB1"}},
		{name: "name missing", changes: map[string]any{"name": nil}, wantCreate: []string{"name:InvalidName"}},
		{name: "name blank", changes: map[string]any{"name": " "}, wantCreate: []string{"name:InvalidName"}},
		{name: "name number", changes: map[string]any{"name": json.Number("5")}, wantCreate: []string{"name:InvalidName"}},
		{name: "terms wrong", changes: map[string]any{"terms": "i agree"}, wantCreate: []string{"terms:InvalidTerms"}},
		{name: "terms missing", changes: map[string]any{"terms": nil}, wantCreate: []string{"terms:InvalidTerms"}},
		{name: "terms boolean", changes: map[string]any{"terms": true}, wantCreate: []string{"terms:InvalidTerms"}},
		{name: "currency unknown", changes: map[string]any{"currency.id": json.Number("2")}, wantCreate: []string{"currency.id:InvalidCurrencyId"}},
		{name: "currency missing", changes: map[string]any{"currency": nil}, wantCreate: []string{"currency.id:InvalidCurrencyId"}},
		{name: "currency as code", changes: map[string]any{"currency": "GBP"}, wantCreate: []string{"currency.id:InvalidCurrencyId"}},
		{name: "currency negative", changes: map[string]any{"currency.id": json.Number("-1")}, wantCreate: []string{"currency.id:InvalidCurrencyId"}},
		{name: "app with hash", changes: map[string]any{"app": body(t, hashAppJSON)}, wantUpdate: []string{"app:InvalidApp"}},
		{name: "app null", changes: map[string]any{"app": "<null>"}, wantUpdate: []string{"app:InvalidApp"}},
		{name: "app not an object", changes: map[string]any{"app": "Puzzle Quest"}, wantCreate: []string{"app:InvalidApp"}},
		{name: "app invalid", changes: map[string]any{"app": map[string]any{"name": "", "platform": map[string]any{"id": json.Number("3")}, "nextplan": map[string]any{"id": json.Number("9")}}},
			wantCreate: []string{"app.name:InvalidName", "app.platform.id:InvalidPlatformId", "app.nextplan.id:InvalidPlanId"},
			wantUpdate: []string{"app:InvalidApp"}},
		{name: "everything missing", changes: map[string]any{"name": nil, "addressLine1": nil, "addressCity": nil, "addressPostcode": nil, "addressCountry": nil, "currency": nil, "terms": nil},
			wantCreate: []string{"name:InvalidName", "addressLine1:InvalidAddressLine1", "addressCity:InvalidAddressCity",
				"addressPostcode:InvalidAddressPostcode", "addressCountry:InvalidAddressCountry", "currency.id:InvalidCurrencyId", "terms:InvalidTerms"}},
	}
	// The 255/256 edge of every ..255 field of the client body.
	for field, code := range map[string]string{
		"name": "InvalidName", "addressLine1": "InvalidAddressLine1", "addressLine2": "InvalidAddressLine2",
		"addressCity": "InvalidAddressCity", "addressPostcode": "InvalidAddressPostcode",
		"addressCountry": "InvalidAddressCountry", "vat": "InvalidVat",
	} {
		tests = append(tests,
			struct {
				name       string
				changes    map[string]any
				wantCreate []string
				wantUpdate []string
			}{name: field + " 255", changes: map[string]any{field: long(255)}},
			struct {
				name       string
				changes    map[string]any
				wantCreate []string
				wantUpdate []string
			}{name: field + " 256", changes: map[string]any{field: long(256)}, wantCreate: []string{field + ":" + code}},
		)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := with(t, base, tt.changes)
			in, errs := spec.ClientCreate(b)
			if got := codes(errs); !slices.Equal(got, append([]string{}, tt.wantCreate...)) {
				t.Errorf("POST /clients errors = %q, want %q", got, tt.wantCreate)
			}
			if len(errs) == 0 && (in.Name == "" || in.CurrencyID != 1) {
				t.Errorf("input not carried: %+v", in)
			}
			wantUpdate := tt.wantUpdate
			if wantUpdate == nil {
				wantUpdate = tt.wantCreate
			}
			_, errs = spec.ClientUpdate(b)
			if got := codes(errs); !slices.Equal(got, append([]string{}, wantUpdate...)) {
				t.Errorf("PUT /clients errors = %q, want %q", got, wantUpdate)
			}
		})
	}
}

func TestValidateApp(t *testing.T) {
	hashApp, nameApp := body(t, hashAppJSON), body(t, nameAppJSON)
	tests := []struct {
		name    string
		base    Body
		changes map[string]any
		want    []string
	}{
		{"hash", hashApp, nil, nil},
		{"hash upper-case", hashApp, map[string]any{"marketapp.hash": strings.ToUpper(knownHash)}, nil},
		{"hash 39", hashApp, map[string]any{"marketapp.hash": knownHash[:39]}, []string{"marketapp.hash:InvalidMarketappHash"}},
		{"hash 41", hashApp, map[string]any{"marketapp.hash": knownHash + "0"}, []string{"marketapp.hash:InvalidMarketappHash"}},
		{"hash not hex", hashApp, map[string]any{"marketapp.hash": "g" + knownHash[1:]}, []string{"marketapp.hash:InvalidMarketappHash"}},
		{"hash unknown", hashApp, map[string]any{"marketapp.hash": strings.Repeat("0", 40)}, []string{"marketapp.hash:InvalidMarketappHash"}},
		{"hash number", hashApp, map[string]any{"marketapp.hash": json.Number("1")}, []string{"marketapp.hash:InvalidMarketappHash"}},
		{"marketapp not an object", hashApp, map[string]any{"marketapp": knownHash}, []string{"marketapp.hash:InvalidMarketappHash"}},
		{"hash with a name of 256", hashApp, map[string]any{"name": long(256)}, []string{"name:InvalidName"}},
		{"hash with an unknown platform", hashApp, map[string]any{"platform.id": json.Number("3")}, []string{"platform.id:InvalidPlatformId"}},
		{"hash null needs a name", hashApp, map[string]any{"marketapp.hash": "<null>"}, []string{"name:InvalidName", "platform.id:InvalidPlatformId"}},
		{"name and platform", nameApp, nil, nil},
		{"name 255", nameApp, map[string]any{"name": long(255)}, nil},
		{"name 256", nameApp, map[string]any{"name": long(256)}, []string{"name:InvalidName"}},
		{"name empty", nameApp, map[string]any{"name": ""}, []string{"name:InvalidName"}},
		{"name null", nameApp, map[string]any{"name": "<null>"}, []string{"name:InvalidName"}},
		{"name number", nameApp, map[string]any{"name": json.Number("1")}, []string{"name:InvalidName"}},
		{"platform missing", nameApp, map[string]any{"platform": nil}, []string{"platform.id:InvalidPlatformId"}},
		{"platform unknown", nameApp, map[string]any{"platform.id": json.Number("3")}, []string{"platform.id:InvalidPlatformId"}},
		{"platform id string", nameApp, map[string]any{"platform.id": "1"}, []string{"platform.id:InvalidPlatformId"}},
		{"platform not an object", nameApp, map[string]any{"platform": json.Number("1")}, []string{"platform.id:InvalidPlatformId"}},
		{"nextplan known", nameApp, map[string]any{"nextplan.id": json.Number("2")}, nil},
		{"nextplan unknown", nameApp, map[string]any{"nextplan.id": json.Number("3")}, []string{"nextplan.id:InvalidPlanId"}},
		{"nextplan as object", nameApp, map[string]any{"nextplan.id": map[string]any{"id": json.Number("1")}}, []string{"nextplan.id:InvalidPlanId"}},
		{"nextplan not an object", nameApp, map[string]any{"nextplan": json.Number("1")}, []string{"nextplan.id:InvalidPlanId"}},
		{"nothing", Body{}, nil, []string{"name:InvalidName", "platform.id:InvalidPlatformId"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := spec.App(with(t, tt.base, tt.changes))
			if got := codes(errs); !slices.Equal(got, append([]string{}, tt.want...)) {
				t.Errorf("errors = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestValidateAppResolves(t *testing.T) {
	tests := []struct {
		name string
		body string
		want AppInput
	}{
		{"hash wins over name and platform",
			`{"marketapp":{"hash":"` + strings.ToUpper(knownHash) + `"},"name":"Other","platform":{"id":2},"nextplan":{"id":2}}`,
			AppInput{Name: "Puzzle Quest", PlatformID: 1, PlanID: 2, MarketappHash: ptr(knownHash)}},
		{"name and platform, default plan", nameAppJSON, AppInput{Name: "My app", PlatformID: 2, PlanID: 1}},
		{"nextplan null is the default plan", `{"name":"A","platform":{"id":1},"nextplan":{"id":null}}`, AppInput{Name: "A", PlatformID: 1, PlanID: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := spec.App(body(t, tt.body))
			if len(errs) > 0 {
				t.Fatalf("errors: %q", codes(errs))
			}
			if got.Name != tt.want.Name || got.PlatformID != tt.want.PlatformID || got.PlanID != tt.want.PlanID ||
				(got.MarketappHash == nil) != (tt.want.MarketappHash == nil) ||
				(got.MarketappHash != nil && *got.MarketappHash != *tt.want.MarketappHash) {
				t.Errorf("got %+v (hash %v), want %+v", got, got.MarketappHash, tt.want)
			}
		})
	}
}

func TestValidateSession(t *testing.T) {
	tests := []struct {
		body string
		want []string
	}{
		{`{"email":"qa@example.com","password":"qa-password"}`, nil},
		{`{"email":"qa@example.com"}`, []string{"password:InvalidPassword"}},
		{`{"password":"x"}`, []string{"email:InvalidEmail"}},
		{`{"email":"","password":""}`, []string{"email:InvalidEmail", "password:InvalidPassword"}},
		{`{"email":1,"password":true}`, []string{"email:InvalidEmail", "password:InvalidPassword"}},
		{`{}`, []string{"email:InvalidEmail", "password:InvalidPassword"}},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			email, password, errs := ValidateSession(body(t, tt.body))
			if got := codes(errs); !slices.Equal(got, append([]string{}, tt.want...)) {
				t.Errorf("errors = %q, want %q", got, tt.want)
			}
			if len(errs) == 0 && (email != "qa@example.com" || password != "qa-password") {
				t.Errorf("credentials = %q %q", email, password)
			}
		})
	}
}

// TestDeviationsOfLength checks that every ..255 field of a user body takes
// its limit from the one rule that Deviations.MaxLen overrides, and that the
// zero Deviations is the spec's 255.
func TestDeviationsOfLength(t *testing.T) {
	for _, field := range []string{"email", "firstName", "lastName", "timezone", "phoneNumber"} {
		t.Run(field, func(t *testing.T) {
			value := map[string]string{
				"email": email(21), "timezone": "Area/" + strings.Repeat("c", 16), "phoneNumber": strings.Repeat("7", 21),
			}[field]
			if value == "" {
				value = long(21)
			}
			b := with(t, body(t, userJSON), map[string]any{field: value})
			want := []string{field + ":Invalid" + strings.ToUpper(field[:1]) + field[1:]}
			short := Validator{Catalog: fakeCatalog{}, Deviations: Deviations{MaxLen: map[string]int{field: 20}}}
			if _, errs := short.UserUpdate(b, 1); !slices.Equal(codes(errs), want) {
				t.Errorf("limit 20, %d characters: errors = %q, want %q", runes(value), codes(errs), want)
			}
			if _, errs := spec.UserUpdate(b, 1); len(errs) > 0 {
				t.Errorf("the spec's limit, %d characters: errors = %q", runes(value), codes(errs))
			}
		})
	}
}

// TestValidateUnusualButValidInput: what the contract suite sends as valid
// but unusual input is valid to the reference too: limits count characters
// of any script, emails may have a +, dots and subdomains, a hash may be in
// upper case, a name may be one character or carry quotes and markup, a
// timezone's city may have hyphens.
func TestValidateUnusualButValidInput(t *testing.T) {
	cjk := func(n int) string { return strings.Repeat("中", n) } // three bytes each in UTF-8
	users := []changeCase{
		{"firstName of 255 three-byte characters", map[string]any{"firstName": cjk(255)}, nil},
		{"firstName of 256 three-byte characters", map[string]any{"firstName": cjk(256)}, []string{"firstName:InvalidFirstName"}},
		{"lastName of 246 letters after contract-", map[string]any{"lastName": "contract-" + strings.Repeat("ж", 246)}, nil},
		{"firstName of one character", map[string]any{"firstName": "Q"}, nil},
		{"names with quotes, a backslash and markup", map[string]any{"firstName": `O'Brien "Q" \ <b>&amp;`, "lastName": "Øster-Ødegård"}, nil},
		{"email with a plus", map[string]any{"email": "contract-a1b2+tag@example.com"}, nil},
		{"email with dots", map[string]any{"email": "contract-a.b.c@example.com"}, nil},
		{"email at a subdomain", map[string]any{"email": "contract-a1@contract-x1.example.com"}, nil},
		{"email with all three at 254", map[string]any{"email": "contract-" + strings.Repeat("a", 50) + ".b+c@" + strings.Repeat("d", 63) + "." + strings.Repeat("e", 63) + ".f" + strings.Repeat("g", 49) + ".example.com"}, nil},
		{"timezone with hyphens", map[string]any{"timezone": "America/Port-au-Prince"}, nil},
		{"password of 6 two-byte characters", map[string]any{"password": strings.Repeat("ж", 6)}, nil},
		{"password of 5 three-byte characters", map[string]any{"password": cjk(5)}, []string{"password:InvalidPassword"}},
	}
	for _, tt := range users {
		t.Run(tt.name, func(t *testing.T) {
			in, errs := spec.UserUpdate(with(t, body(t, userJSON), tt.changes), 1)
			if got := codes(errs); !slices.Equal(got, append([]string{}, tt.want...)) {
				t.Fatalf("errors = %q, want %q", got, tt.want)
			}
			if e, ok := tt.changes["email"].(string); ok && len(errs) == 0 && in.Email != e {
				t.Errorf("email stored as %q, want %q as sent", in.Email, e)
			}
		})
	}
	for _, field := range []string{"name", "addressLine1", "addressLine2", "addressCity"} {
		if _, errs := spec.ClientCreate(with(t, body(t, clientJSON), map[string]any{field: cjk(255)})); len(errs) > 0 {
			t.Errorf("client %s of 255 three-byte characters: %q", field, codes(errs))
		}
		if _, errs := spec.ClientCreate(with(t, body(t, clientJSON), map[string]any{field: cjk(256)})); len(errs) != 1 {
			t.Errorf("client %s of 256 three-byte characters: %q, want one error", field, codes(errs))
		}
	}
	in, errs := spec.App(with(t, body(t, hashAppJSON), map[string]any{"marketapp.hash": strings.ToUpper(knownHash)}))
	if len(errs) > 0 || in.MarketappHash == nil || *in.MarketappHash != knownHash {
		t.Errorf("an upper-case hash: %+v, %q; want the marketplace app %s", in, codes(errs), knownHash)
	}
}
