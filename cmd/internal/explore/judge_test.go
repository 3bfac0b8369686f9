package explore

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/steps/match"
)

// The judgement is a function of a verdict, an answer and what the run
// knows: each case gives the three and the divergence's key ("" none).
func TestJudge(t *testing.T) {
	wd := testWorld(t)
	errs := func(elems ...string) string { return "[" + strings.Join(elems, ",") + "]" }
	el := func(field, code string) string {
		return `{"fieldName":"` + field + `","error":"` + code + `","message":"It is wrong."}`
	}
	now := time.Now().UTC().Format(time.RFC3339)
	user := func(edit func(string) string) string {
		b := `{"id":1,"created":"2025-01-01T00:00:00Z","email":"qa@example.com","passwordLastChanged":"2025-01-01T00:00:00Z",` +
			`"firstName":"Quinn","lastName":"Assurance","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,` +
			`"subscribeOnboarding":false,"phoneCountry":{"id":1,"name":"United Kingdom (+44)","dialCode":"+44"},` +
			`"phoneNumber":"7700900123","phoneExtension":null,"timezone":"Europe/London"}`
		if edit != nil {
			b = edit(b)
		}
		return b
	}
	cases := []struct {
		name string
		step func(s *seqState) Step
		got  wireAnswer
		key  string
	}{
		{"the answer the spec gives", func(s *seqState) Step { return userStep(s) }, jsonAnswer(200, user(nil)), ""},
		{"another status", func(s *seqState) Step { return userStep(s) }, jsonAnswer(201, user(nil)), "status 201"},
		{"a 5xx, whatever the verdict", func(s *seqState) Step { st := userStep(s); st.Wire = WireNotJSON; return st },
			jsonAnswer(500, `{}`), "5xx"},
		{"no answer", func(s *seqState) Step { return userStep(s) }, wireAnswer{status: -1, err: "connection refused"}, "no-answer"},
		{"a 400 that is not the error array", func(s *seqState) Step { return userStep(s, Mutation{Field: "firstName", Op: "empty", Value: ""}) },
			jsonAnswer(400, `{"errors":[]}`), "errors-shape"},
		{"a 400 that names a valid field", func(s *seqState) Step { return userStep(s, Mutation{Field: "firstName", Op: "empty", Value: ""}) },
			jsonAnswer(400, errs(el("firstName", "InvalidFirstName"), el("lastName", "InvalidLastName"))), "errors-names"},
		{"a 400 with another code than 7.3's", func(s *seqState) Step { return userStep(s, Mutation{Field: "firstName", Op: "empty", Value: ""}) },
			jsonAnswer(400, errs(el("firstName", "Required"))), "errors-code firstName=InvalidFirstName"},
		{"a value of another JSON type refused with the body whole, naming no field", func(s *seqState) Step {
			return userStep(s, Mutation{Field: "firstName", Op: "number-for-string", Value: json.Number("7")})
		}, jsonAnswer(400, errs(el("", "InvalidBody"))), ""},
		{"an empty name and an unknown phone country refused for the name alone: ids looked up once the values are valid", func(s *seqState) Step {
			return userStep(s, Mutation{Field: "lastName", Op: "empty", Value: ""}, Mutation{Field: "phoneCountry.id", Op: "id-unknown", Value: json.Number("999999999")})
		}, jsonAnswer(400, errs(el("lastName", "InvalidLastName"))), ""},
		{"an empty name and an unknown phone country refused for the country alone", func(s *seqState) Step {
			return userStep(s, Mutation{Field: "lastName", Op: "empty", Value: ""}, Mutation{Field: "phoneCountry.id", Op: "id-unknown", Value: json.Number("999999999")})
		}, jsonAnswer(400, errs(el("phoneCountry.id", "InvalidPhoneCountryId"))), "errors-names"},
		{"a password of another type and an unknown phone country refused for the password alone", func(s *seqState) Step {
			return userStep(s, Mutation{Field: "password", Op: "number-for-string", Value: json.Number("7")}, Mutation{Field: "phoneCountry.id", Op: "id-unknown", Value: json.Number("999999999")})
		}, jsonAnswer(400, errs(el("password", "InvalidType"))), ""},
		{"an empty name refused naming no field", func(s *seqState) Step { return userStep(s, Mutation{Field: "firstName", Op: "empty", Value: ""}) },
			jsonAnswer(400, errs(el("", "InvalidBody"))), "errors-shape"},
		{"an address line refused as no address (unstated-validity)", func(s *seqState) Step {
			return clientStep(s, Mutation{Field: "addressCity", Op: "one-character", Value: "Q"})
		}, jsonAnswer(400, errs(el("addressCity", "InvalidAddressCity"))), ""},
		{"a first name of one character refused", func(s *seqState) Step {
			return userStep(s, Mutation{Field: "firstName", Op: "one-character", Value: "Q"})
		}, jsonAnswer(400, errs(el("firstName", "InvalidFirstName"))), "status 400"},
		{"a 400 naming the field in brackets", func(s *seqState) Step {
			return userStep(s, Mutation{Field: "phoneCountry.id", Op: "id-unknown", Value: "x"})
		}, jsonAnswer(400, errs(el("phoneCountry[id]", "InvalidPhoneCountryId"))), ""},
		{"an app by name refused for its missing marketplace app", func(s *seqState) Step {
			return appStep(appByNameBody())
		}, jsonAnswer(400, errs(el("marketapp.hash", "InvalidMarketappHash"))), ""},
		{"an app by name refused naming its plan", func(s *seqState) Step {
			return appStep(appByNameBody())
		}, jsonAnswer(400, errs(el("nextplan.id", "InvalidPlan"))), "errors-names"},
		{"an app by name without a platform refused for its missing marketplace app, beside another refusal", func(s *seqState) Step {
			return Step{Op: OpPostClient, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: testGenerator(wd, 1).newClientBody(false),
				Muts: []Mutation{{Field: "app", Op: "given", Value: appByName()}, {Field: "app.platform", Op: "null", Value: nil},
					{Field: "addressLine1", Op: "object-for-value", Value: map[string]any{}}}}
		}, jsonAnswer(400, errs(el("addressLine1", "InvalidAddress"), el("app.marketapp.hash", "InvalidMarketappHash"))), ""},
		{"an app by name without a platform refused naming nothing of it", func(s *seqState) Step {
			return Step{Op: OpPostClient, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: testGenerator(wd, 1).newClientBody(false),
				Muts: []Mutation{{Field: "app", Op: "given", Value: appByName()}, {Field: "app.platform", Op: "null", Value: nil}}}
		}, jsonAnswer(400, errs(el("name", "InvalidName"))), "errors-names"},
		{"no credential and no name: 401 before the body's 400", func(s *seqState) Step {
			return Step{Op: OpPostClient, Actor: "A", Cred: Cred{Scheme: "none"}, Base: testGenerator(wd, 1).newClientBody(false),
				Muts: []Mutation{{Field: "name", Op: "empty", Value: ""}}}
		}, jsonAnswer(400, errs(el("name", "InvalidName"))), "status 400"},
		{"neither a hash nor a name, the name refused alone", func(s *seqState) Step {
			return appStep(noHashNorNameBody())
		}, jsonAnswer(400, errs(el("name", "InvalidName"))), ""},
		{"neither a hash nor a name, the name and the platform refused", func(s *seqState) Step {
			return appStep(noHashNorNameBody())
		}, jsonAnswer(400, errs(el("name", "InvalidName"), el("platform.id", "InvalidPlatform"))), ""},
		{"neither a hash nor a name, the platform refused alone", func(s *seqState) Step {
			return appStep(noHashNorNameBody())
		}, jsonAnswer(400, errs(el("platform.id", "InvalidPlatform"))), "errors-names"},
		{"no hash and a plan id written 1.0, refused for the plan alone: a name needed for want of a hash judged once the values are valid", func(s *seqState) Step {
			return appStep(map[string]any{"marketapp": map[string]any{"hash": wd.cat.hash}, "name": nil, "platform": map[string]any{"id": nil}, "nextplan": map[string]any{"id": json.Number("1")}},
				Mutation{Field: "marketapp", Op: "null", Value: nil}, Mutation{Field: "nextplan.id", Op: "id-decimal-form", Value: json.Number("1.0"), Alt: json.Number("1")})
		}, jsonAnswer(400, errs(el("nextplan.id", "InvalidPlanId"))), ""},
		{"neither a hash nor a name, the name refused with another code", func(s *seqState) Step {
			return appStep(map[string]any{"marketapp": map[string]any{}, "name": "contract-app", "platform": map[string]any{"id": json.Number("1")}, "nextplan": map[string]any{"id": json.Number("1")}},
				Mutation{Field: "name", Op: "null", Value: nil})
		}, jsonAnswer(400, errs(el("name", "InvalidAppName"))), "errors-code name=InvalidName"},
		{"an unknown country named, an over-length VAT number not: the address judged by its country", func(s *seqState) Step {
			return clientStep(s, Mutation{Field: "addressCountry", Op: "new-value", Value: "Atlantis"},
				Mutation{Field: "vat", Op: "over-length", Value: strings.Repeat("x", 256)},
				Mutation{Field: "currency", Op: "string-for-value", Value: "1"})
		}, jsonAnswer(400, errs(el("addressCountry", "InvalidAddressCountry"), el("currency.id", "InvalidCurrency"))), ""},
		{"an over-length country named, an over-length VAT number not: the address judged by its country", func(s *seqState) Step {
			return clientStep(s, Mutation{Field: "addressCountry", Op: "over-length", Value: strings.Repeat("x", 256)},
				Mutation{Field: "vat", Op: "over-length", Value: strings.Repeat("x", 256)})
		}, jsonAnswer(400, errs(el("addressCountry", "InvalidAddressCountry"))), ""},
		{"an over-length VAT number unnamed, the country unchanged", func(s *seqState) Step {
			return clientStep(s, Mutation{Field: "vat", Op: "over-length", Value: strings.Repeat("x", 256)})
		}, jsonAnswer(400, errs(el("addressCountry", "InvalidAddressCountry"))), "errors-names"},
		{"a message quoting a country of which the password is a part", func(s *seqState) Step {
			return userStep(s, Mutation{Field: "password", Op: "password-6-two-byte", Value: strings.Repeat("é", 6)},
				Mutation{Field: "client", Op: "object-new", Value: map[string]any{"name": "c", "addressLine1": "l", "addressCity": "c",
					"addressPostcode": "p", "addressCountry": strings.Repeat("é", 256), "currency": map[string]any{"id": json.Number("1")}, "terms": "I agree"}})
		}, jsonAnswer(400, `[{"fieldName":"client.addressCountry","error":"InvalidAddressCountry","message":"`+strings.Repeat("é", 256)+` is not a country we bill in."}]`), ""},
		{"a message quoting the password", func(s *seqState) Step {
			return userStep(s, Mutation{Field: "password", Op: "password-6-two-byte", Value: strings.Repeat("é", 6)},
				Mutation{Field: "client", Op: "object-new", Value: map[string]any{"name": "c", "addressLine1": "l", "addressCity": "c",
					"addressPostcode": "p", "addressCountry": strings.Repeat("é", 256), "currency": map[string]any{"id": json.Number("1")}, "terms": "I agree"}})
		}, jsonAnswer(400, `[{"fieldName":"client.addressCountry","error":"InvalidAddressCountry","message":"`+strings.Repeat("é", 6)+` is not a country we bill in."}]`), "password"},
		{"JSON labelled as text", func(s *seqState) Step { return userStep(s) },
			wireAnswer{status: 200, body: []byte(user(nil)), header: http.Header{"Content-Type": {"text/plain"}}}, "json-label"},
		{"a 200 with another first name", func(s *seqState) Step { return userStep(s) },
			jsonAnswer(200, user(func(b string) string { return strings.Replace(b, `"Quinn"`, `"Quin"`, 1) })), "field firstName"},
		{"a 200 with the password", func(s *seqState) Step { return userStep(s) },
			jsonAnswer(200, user(func(b string) string { return strings.Replace(b, `"id":1,`, `"id":1,"password":"qa-password",`, 1) })), "password"},
		{"a 200 with a float for an id", func(s *seqState) Step { return userStep(s) },
			jsonAnswer(200, user(func(b string) string { return strings.Replace(b, `"id":1,`, `"id":1.0,`, 1) })), "id id"},
		{"a 200 with another user's id", func(s *seqState) Step { return userStep(s) },
			jsonAnswer(200, user(func(b string) string { return strings.Replace(b, `"id":1,`, `"id":2,`, 1) })), "id id"},
		{"a 200 whose dial code has no plus", func(s *seqState) Step { return userStep(s) },
			jsonAnswer(200, user(func(b string) string { return strings.Replace(b, `"dialCode":"+44"`, `"dialCode":"44"`, 1) })), "field phoneCountry.dialCode"},
		{"a new password undated", func(s *seqState) Step {
			return userStep(s, Mutation{Field: "password", Op: "password-6", Value: "pw-abc"})
		}, jsonAnswer(200, user(nil)), "date passwordLastChanged"},
		{"a new password dated now, in another ISO 8601 form", func(s *seqState) Step {
			return userStep(s, Mutation{Field: "password", Op: "password-6", Value: "pw-abc"})
		}, jsonAnswer(200, user(func(b string) string {
			return strings.Replace(b, `"passwordLastChanged":"2025-01-01T00:00:00Z"`, `"passwordLastChanged":"`+strings.Replace(now, "Z", ".000+00:00", 1)+`"`, 1)
		})), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The run knows the target's dates of account A.
			wd.acct["A"].user.Created = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			wd.acct["A"].user.PasswordLastChanged = wd.acct["A"].user.Created
			s := testSequence(t, wd)
			d, key, reason := judgeFirst(wd, s, c.step(s), c.got)
			if key != c.key {
				t.Errorf("divergence %q (%s), want %q", key, reason, c.key)
			}
			if d != nil && len(d.expect) == 0 && d.key != "no-answer" {
				t.Errorf("a divergence without the lines that assert the reference's answer: %s", d.reason)
			}
		})
	}
}

// Ids are compared exactly, as the text the target wrote: two ids that a
// float64 cannot tell apart (above 2^53) are two entities.
func TestIDsComparedExactly(t *testing.T) {
	wd := testWorld(t)
	wd.acct["A"].userID = "9007199254740993"
	s := testSequence(t, wd)
	c := checker{judgement: judgement{wd: wd, k: newKnowledge(), s: s}}
	for _, tc := range []struct {
		raw  string
		want bool // the same user
	}{
		{`{"id":9007199254740993}`, true},
		{`{"id":9007199254740992}`, false},
		{`{"id":9007199254740993.0}`, false},
		{`{"id":"9007199254740993"}`, false},
		{`{"id":18446744073709551615}`, false},
	} {
		c.d = nil
		c.b = parse(tc.raw)
		c.id("user", "id", 1, false)
		if (c.d == nil) != tc.want {
			t.Errorf("%s as user 9007199254740993: same %v, want %v (%v)", tc.raw, c.d == nil, tc.want, c.d)
		}
	}
	if got := addOne("9007199254740993"); got != "9007199254740994" {
		t.Errorf("the neighbour of 9007199254740993 is %s", got)
	}
	if got := addOne("999"); got != "1000" {
		t.Errorf("the neighbour of 999 is %s", got)
	}
}

// appByName is an app made from a name and a platform, not a marketplace
// app.
func appByName() map[string]any {
	return map[string]any{"name": "contract-app", "platform": map[string]any{"id": json.Number("1")}, "nextplan": map[string]any{"id": json.Number("1")}}
}

// A date the run began with that moved: the reproducer reads it when it
// begins, and compares the answer with that, not with the run's value (the
// suite's own restores set a password again, and so move its date).
func TestSeedDateReadWhenTheReproducerBegins(t *testing.T) {
	wd := testWorld(t)
	seed := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	wd.acct["A"].user.Created, wd.acct["A"].user.PasswordLastChanged = seed, seed
	s := testSequence(t, wd)
	st := userStep(s)
	moved := strings.Replace(`{"id":1,"created":"2025-01-01T00:00:00Z","email":"qa@example.com","passwordLastChanged":"2025-01-01T00:00:00Z",`+
		`"firstName":"Quinn","lastName":"Assurance","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,`+
		`"subscribeOnboarding":false,"phoneCountry":{"id":1,"name":"United Kingdom (+44)","dialCode":"+44"},`+
		`"phoneNumber":"7700900123","phoneExtension":null,"timezone":"Europe/London"}`,
		`"passwordLastChanged":"2025-01-01T00:00:00Z"`, `"passwordLastChanged":"2026-01-01T00:00:00Z"`, 1)
	d, _, _ := judgeFirst(wd, s, st, jsonAnswer(200, moved))
	if d == nil || d.key != "date passwordLastChanged" {
		t.Fatalf("divergence %v, want the date moved", d)
	}
	want := stateRead{path: Text{Before: "/users/", Var: AccountVar("A", "userId")}, as: "A", remember: []remembered{{"passwordLastChanged", "began_passwordLastChanged"}}}
	if d.opening == nil || !reflect.DeepEqual(*d.opening, want) {
		t.Errorf("the reproducer opens with %+v, want %+v", d.opening, want)
	}
	if len(d.expect) != 1 || !reflect.DeepEqual(d.expect[0], expectValue(expectSameInstant, "passwordLastChanged", Of(NamedVar("began_passwordLastChanged")))) {
		t.Errorf("the reproducer asserts %+v", d.expect)
	}
	f := (&sequence{steps: s.steps, div: d, reason: "moved"}).feature()
	if !strings.Contains(f, "@get-extensions") || strings.Index(f, pReadExtension("/users/{{A.userId}}")) > strings.Index(f, "When I send \"PUT\"") {
		t.Errorf("the reproducer does not read the date before the sequence:\n%s", f)
	}
}

// An optional field a PUT left out may be cleared or kept: the target's
// first answer is its reading, a later answer of the other reading is a
// held divergence, and any third value is a field divergence.
func TestOmittedOptionalIsAdoptedThenHeld(t *testing.T) {
	wd := testWorld(t)
	s := testSequence(t, wd)
	k := newKnowledge()
	check := func(raw string) *divergence {
		c := checker{judgement: judgement{wd: wd, k: k, s: s}, b: parse(raw), kept: map[string]string{"vat": "GB1"}}
		c.optional("vat", nil)
		return c.d
	}
	if d := check(`{"vat":"GB2"}`); d == nil || d.check != policy.CheckField {
		t.Errorf("vat neither cleared nor kept: %v, want a field divergence", d)
	}
	if d := check(`{"vat":"GB1"}`); d != nil {
		t.Errorf("vat kept, the first answer: %v", d.reason)
	}
	if d := check(`{"vat":"GB1"}`); d != nil {
		t.Errorf("vat kept again: %v", d.reason)
	}
	if d := check(`{"vat":null}`); d == nil || d.check != policy.CheckHeld {
		t.Errorf("vat cleared after it was kept: %v, want a held divergence", d)
	}
	if d := check(`{}`); d == nil || d.check != policy.CheckHeld {
		t.Errorf("vat left out of the answer after it was kept: %v, want a held divergence", d)
	}
}

// An optional field a PUT sent as null is a reading of its own, held
// apart from the field left out: a server may clear one and keep the other.
func TestNulledOptionalIsHeldApart(t *testing.T) {
	wd := testWorld(t)
	s := testSequence(t, wd)
	k := newKnowledge()
	check := func(raw string, nulled bool) *divergence {
		c := checker{judgement: judgement{wd: wd, k: k, s: s}, b: parse(raw), kept: map[string]string{"vat": "GB1"}, nulled: map[string]bool{"vat": nulled}}
		c.optional("vat", nil)
		return c.d
	}
	if d := check(`{"vat":"GB1"}`, true); d != nil {
		t.Errorf("vat sent as null and kept, the first answer: %v", d.reason)
	}
	if d := check(`{"vat":null}`, false); d != nil {
		t.Errorf("vat left out and cleared, a reading apart from null's: %v", d.reason)
	}
	if d := check(`{"vat":null}`, true); d == nil || d.check != policy.CheckHeld {
		t.Errorf("vat sent as null cleared after null kept it: %v, want a held divergence", d)
	}
}

// A silent null the target took as none: the answer's null is adopted,
// where the reference kept the stored value (a phone extension a PUT sent
// as null beside another silent value).
func TestSilentNullIsAdopted(t *testing.T) {
	wd := testWorld(t)
	s := testSequence(t, wd)
	var patched []string
	c := checker{judgement: judgement{wd: wd, k: newKnowledge(), s: s}, b: parse(`{"phoneExtension":null}`),
		adopt: []string{"phoneExtension"}, patch: func(path string, v any) bool {
			patched = append(patched, fmt.Sprintf("%s=%v", path, v))
			return true
		}}
	want := "101"
	c.optional("phoneExtension", &want)
	if c.d != nil || !slices.Equal(patched, []string{"phoneExtension=<nil>"}) {
		t.Errorf("a null answered for an adopted field: divergence %v, patched %q; want it adopted as none", c.d, patched)
	}
	c = checker{judgement: judgement{wd: wd, k: newKnowledge(), s: s}, b: parse(`{"phoneExtension":null}`),
		patch: func(string, any) bool { return true }}
	c.optional("phoneExtension", &want)
	if c.d == nil {
		t.Error("a null answered for a field the spec decides: no divergence")
	}
}

// Past the bound on what an account keeps, a create may be refused with any
// 4xx but 401; one without correct credentials is still 401's (5), and a
// 400 for its body is no bound.
func TestBoundWidensOnlyAuthenticatedCreates(t *testing.T) {
	wd := testWorld(t)
	k := newKnowledge()
	j := judgement{wd: wd, k: k, s: testSequence(t, wd), label: "1"}
	k.created[j.owner("A")+" client"] = createBound
	valid := verdict{statuses: []int{http.StatusOK}}
	j.bounded(Step{Op: OpPostClient, Actor: "A"}, &valid)
	if !valid.any4xx {
		t.Error("a valid create past the bound: not widened to any 4xx")
	}
	unauthenticated := verdict{statuses: []int{http.StatusUnauthorized}}
	j.bounded(Step{Op: OpPostClient, Actor: "A", Cred: Cred{Scheme: "none"}}, &unauthenticated)
	if unauthenticated.any4xx || unauthenticated.anyNames {
		t.Error("a create without credentials past the bound: widened beyond 401")
	}
	ended := verdict{statuses: []int{http.StatusBadRequest, http.StatusUnauthorized}}
	j.bounded(Step{Op: OpPutUser, Actor: "A", Cred: Cred{Scheme: "session-token", Op: "as-specified"}, Base: map[string]any{"client": map[string]any{}}}, &ended)
	if !ended.any4xx {
		t.Error("a create whose session may have ended, past the bound: not widened")
	}
}

// TestBoundCountsTheCreatesBefore: the creates the gate's scenarios made
// count toward the bound, each account's own.
func TestBoundCountsTheCreatesBefore(t *testing.T) {
	wd := testWorld(t)
	k := newKnowledge()
	j := judgement{wd: wd, k: k, s: testSequence(t, wd), label: "1"}
	k.countBefore("1", wd, map[string]int{wd.acct["A"].email + " client": createBound, wd.acct["B"].email + " app": 1})
	if !j.pastBound("A", "client") {
		t.Error("A made the bound's clients before the run: not past it")
	}
	if j.pastBound("A", "app") || j.pastBound("B", "client") || j.pastBound("B", "app") {
		t.Error("past the bound with creates another account or kind made")
	}
}

// The date of a step's own event is no earlier than the target's clock
// when the step was sent, as the dates answered before put it: a date kept
// from an earlier event (a password change dated when the server started)
// shows without a clock skew to allow, and a date of an earlier event, or
// one judged before any date was seen, is not held to it.
func TestStaleEventDate(t *testing.T) {
	wd := testWorld(t)
	s := testSequence(t, wd)
	sent := time.Date(2026, 11, 29, 8, 0, 10, 500e6, time.UTC)
	for _, tc := range []struct {
		name  string
		floor time.Duration // the target's clock ahead of the runner's, as seen; -1: no date seen
		date  string
		ref   time.Time
		stale bool
	}{
		{"kept from the server's start", 0, "2026-11-29T08:00:00.392Z", sent, true},
		{"now", 0, "2026-11-29T08:00:10.600Z", sent, false},
		{"now, to the second", 0, "2026-11-29T08:00:10Z", sent, false},
		{"a second earlier, a server that rounds", 0, "2026-11-29T08:00:09.600Z", sent, false},
		{"a target clock an hour ahead", time.Hour, "2026-11-29T09:00:10.700Z", sent, false},
		{"a target clock an hour ahead, kept", time.Hour, "2026-11-29T09:00:02Z", sent, true},
		{"a target clock an hour behind", -time.Hour, "2026-11-29T07:00:10.700Z", sent, false},
		{"no date seen before", -1, "2026-11-29T08:00:00Z", sent, false},
		{"an earlier event, first read now", 0, "2026-11-29T08:00:00Z", sent.Add(-5 * time.Second), false},
	} {
		k := newKnowledge()
		if tc.floor != -1 {
			k.clockSeen(time.Date(2026, 11, 29, 8, 0, 5, 0, time.UTC).Add(tc.floor), time.Date(2026, 11, 29, 8, 0, 5, 100e6, time.UTC))
		}
		c := checker{judgement: judgement{wd: wd, k: k, s: s}, sent: sent, received: sent.Add(50 * time.Millisecond)}
		got, err := match.ParseISORange(tc.date)
		if err != nil {
			t.Fatal(err)
		}
		if reason := c.staleEvent("passwordLastChanged", tc.date, got, tc.ref); (reason != "") != tc.stale {
			t.Errorf("%s: %s sent at %s: stale %v, want %v (%s)", tc.name, tc.date, sent.Format(time.RFC3339Nano), reason != "", tc.stale, reason)
		}
	}
}

// A nested field may be named by its own name within its object: a server
// that checks the client of PUT /users with the validator of POST /clients
// names client.terms "terms". A name that ends no field the verdict knows
// is still a valid field named.
func TestNestedFieldNamedWithinItsObject(t *testing.T) {
	terms := verdict{statuses: []int{400}, required: []string{"client.terms"}}
	// Below a field the verdict knows, named within its object: an app's
	// nextplan that is no object, its id named.
	below := verdict{statuses: []int{400}, mayName: []string{"app.nextplan"}}
	for _, c := range []struct {
		v    verdict
		body string
		key  string
	}{
		{terms, `[{"fieldName":"client.terms","error":"InvalidTerms","message":"No."}]`, ""},
		{terms, `[{"fieldName":"terms","error":"InvalidTerms","message":"No."}]`, ""},
		{terms, `[{"fieldName":"vat","error":"InvalidVat","message":"No."}]`, "errors-names"},
		{below, `[{"fieldName":"nextplan.id","error":"InvalidPlanId","message":"No."}]`, ""},
		{below, `[{"fieldName":"platform.id","error":"InvalidPlatformId","message":"No."}]`, "errors-names"},
	} {
		d := c.v.errorsDiverge([]byte(c.body))
		switch {
		case c.key == "" && d != nil:
			t.Errorf("%s: %s", c.body, d.reason)
		case c.key != "" && (d == nil || d.key != c.key):
			t.Errorf("%s: %+v, want %s", c.body, d, c.key)
		}
	}
}

// An email answered in another letter case is the address sent where only
// its domain differs, or where the step sent one's own address in capitals
// (a change of case a server may keep as it was); a new address lower-cased
// is another mailbox (RFC 5321 2.4).
func TestSameMailbox(t *testing.T) {
	for _, c := range []struct {
		got, sent string
		same      bool
	}{
		{"Contract.Cap-x@example.com", "Contract.Cap-x@example.com", true},
		{"Contract.Cap-x@example.com", "Contract.Cap-x@EXAMPLE.COM", true},
		{"qa@example.com", "QA@EXAMPLE.COM", true},
		{"contract.cap-x@example.com", "Contract.Cap-x@example.com", false},
		{"other@example.com", "Contract.Cap-x@example.com", false},
	} {
		if got := sameMailbox(c.got, c.sent); got != c.same {
			t.Errorf("sameMailbox(%q, %q) = %v, want %v", c.got, c.sent, got, c.same)
		}
	}
}

// A field of the client in a user's body may wait for the user's own
// fields (freedom check-order), not for the client's other fields.
func TestNestedObjectJudgedAfterTheFieldsAroundIt(t *testing.T) {
	wd := testWorld(t)
	el := func(field, code string) string {
		return `{"fieldName":"` + field + `","error":"` + code + `","message":"It is wrong."}`
	}
	step := func(s *seqState) Step {
		st := userStep(s, Mutation{Field: "lastName", Op: "empty", Value: ""},
			Mutation{Field: "client.name", Op: "over-length", Value: strings.Repeat("x", 256)}, Mutation{Field: "client.addressLine2", Op: "over-length", Value: strings.Repeat("x", 256)})
		st.Base["client"] = testGenerator(wd, 1).newClientBody(false)
		return st
	}
	for _, c := range []struct {
		name, body string
		diverges   bool
	}{
		{"the user's field alone", "[" + el("lastName", "InvalidLastName") + "]", false},
		{"every offending field", "[" + el("lastName", "InvalidLastName") + "," + el("client.name", "InvalidName") + "," + el("client.addressLine2", "InvalidAddressLine2") + "]", false},
		{"one of the client's fields beside the user's", "[" + el("lastName", "InvalidLastName") + "," + el("client.name", "InvalidName") + "]", true},
	} {
		s := testSequence(t, wd)
		_, key, reason := judgeFirst(wd, s, step(s), jsonAnswer(400, c.body))
		if (key != "") != c.diverges {
			t.Errorf("%s: diverged %q (%s), want a divergence %v", c.name, key, reason, c.diverges)
		}
	}
}

// A create refused past the bound names no field, and is no 404 or 413
// (a path, a size): the suite's bound (target.CreateBound), so that a
// refusal of a valid value is not taken for the bound.
func TestBoundRefusalNamesNoField(t *testing.T) {
	wd := testWorld(t)
	el := func(field string) string {
		return `[{"fieldName":"` + field + `","error":"LimitReached","message":"Too many."}]`
	}
	for _, c := range []struct {
		name     string
		got      wireAnswer
		diverges bool
	}{
		{"a refusal naming no field", jsonAnswer(409, el("")), false},
		{"a 400 naming no field", jsonAnswer(400, el("")), false},
		{"a 400 naming the hash", jsonAnswer(400, el("marketapp.hash")), true},
		{"a 422 naming the hash", jsonAnswer(422, el("marketapp.hash")), true},
		{"a 404", jsonAnswer(404, el("")), true},
		{"a 422 naming no field", jsonAnswer(422, el("")), false},
	} {
		k := newKnowledge()
		s := testSequence(t, wd)
		j := judgement{wd: wd, k: k, s: s, label: "1"}
		k.created[j.owner("A")+" app"] = createBound
		st := appStep(map[string]any{"marketapp": map[string]any{"hash": wd.cat.hash}, "nextplan": map[string]any{"id": json.Number("1")}})
		v := wd.verdictOf(s, st, st.Encode())
		j.bounded(st, &v)
		s.steps = append(s.steps, st)
		if d := j.judge(st, v, c.got); (d != nil) != c.diverges {
			t.Errorf("%s: divergence %v, want one %v", c.name, d, c.diverges)
		}
	}
}
