package explore

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The reference's verdicts, case by case: what the spec answers, the
// freedoms it grants and nothing more.
func TestVerdicts(t *testing.T) {
	wd := testWorld(t)
	mut := func(field, op string, v any) Mutation { return Mutation{Field: field, Op: op, Value: v} }
	big := strings.Repeat("h", 100_000)
	cases := []struct {
		name     string
		step     func(s *seqState) Step
		statuses []int
		any4xx   bool
		required []string
		codes    []string
		freedoms []string
		ok200    bool // a 200 shows the entity
	}{
		{name: "a valid update", step: func(s *seqState) Step { return userStep(s, mut("firstName", "new-value", "contract-Ann")) },
			statuses: []int{200}, ok200: true},
		{name: "no credentials", step: func(s *seqState) Step { st := userStep(s); st.Cred = Cred{Scheme: "none"}; return st },
			statuses: []int{401}},
		{name: "no credentials and a body over 64 KiB: 413 before authentication is correct too",
			step: func(s *seqState) Step {
				st := userStep(s, mut("firstName", "huge", big))
				st.Cred = Cred{Scheme: "none"}
				return st
			},
			statuses: []int{400, 401, 413}, freedoms: []string{"size-limit"}},
		{name: "an id with a leading zero without credentials: 401, or refused as no plain decimal", step: func(s *seqState) Step {
			st := userStep(s)
			st.Cred, st.Path, st.PathID = Cred{Scheme: "none"}, "leading-zero", "0"+st.PathID
			return st
		}, statuses: []int{401, 400, 404, 405, 422}, freedoms: []string{"malformed-id"}},
		{name: "an unknown version without credentials", step: func(s *seqState) Step {
			st := userStep(s)
			st.Cred, st.Version = Cred{Scheme: "none"}, "v2"
			return st
		}, statuses: []int{404, 401}, freedoms: []string{"unknown-version"}},
		{name: "an unknown version with credentials", step: func(s *seqState) Step { st := userStep(s); st.Version = "v2"; return st },
			statuses: []int{404}},
		{name: "another's user", step: func(s *seqState) Step { st := userStep(s); st.Path = "other"; return st },
			statuses: []int{403}},
		{name: "another's user with a refused body: either refusal (the order of the checks)", step: func(s *seqState) Step {
			st := userStep(s, mut("firstName", "empty", ""))
			st.Path = "other"
			return st
		}, statuses: []int{403, 400}, required: []string{"firstName"}, codes: []string{"firstName=InvalidFirstName"}, freedoms: []string{"check-order"}},
		{name: "an unknown id", step: func(s *seqState) Step { st := userStep(s); st.Path, st.PathID = "unknown", "999999999"; return st },
			statuses: []int{403, 404}, freedoms: []string{"unknown-id"}},
		{name: "an id that is no id", step: func(s *seqState) Step { st := userStep(s); st.Path, st.PathID = "letters", "abc"; return st },
			statuses: []int{400, 403, 404}, any4xx: true, freedoms: []string{"malformed-id"}},
		{name: "an empty first name: 400 with 7.3's code", step: func(s *seqState) Step { return userStep(s, mut("firstName", "empty", "")) },
			statuses: []int{400}, required: []string{"firstName"}, codes: []string{"firstName=InvalidFirstName"}},
		{name: "a first name of 256 characters: 400 naming it, the code the server's", step: func(s *seqState) Step {
			return userStep(s, mut("firstName", "over-length", strings.Repeat("x", 256)))
		}, statuses: []int{400}, required: []string{"firstName"}},
		{name: "a password of 5 characters", step: func(s *seqState) Step { return userStep(s, mut("password", "password-5", "pw-ab")) },
			statuses: []int{400}, required: []string{"password"}, codes: []string{"password=InvalidPassword"}},
		{name: "an unknown phone country: 400 with 7.3's code, however the operator reads", step: func(s *seqState) Step {
			return userStep(s, mut("phoneCountry.id", "id-unknown", json.Number("999999999")))
		}, statuses: []int{400}, required: []string{"phoneCountry.id"}, codes: []string{"phoneCountry.id=InvalidPhoneCountryId"}},
		{name: "a wrong type: any 4xx but 401", step: func(s *seqState) Step { return userStep(s, mut("subscribeBlog", "string-for-value", "true")) },
			statuses: []int{400}, any4xx: true, freedoms: []string{"unstated-refusal"}},
		{name: "no password: kept, or refused (4.1 does not mark it optional)", step: func(s *seqState) Step {
			return userStep(s, Mutation{Field: "password", Op: "absent", Remove: true})
		}, statuses: []int{200}, any4xx: true, freedoms: []string{"omitted-fields"}, ok200: true},
		{name: "an email of 255 characters: accepted or refused", step: func(s *seqState) Step {
			return userStep(s, mut("email", "email-255", emailOf(draw{domain: "example.com", unique: func() string { return "x" }}, 255)))
		}, statuses: []int{200}, any4xx: true, freedoms: []string{"email-255"}, ok200: true},
		{name: "the own email in capitals: accepted", step: func(s *seqState) Step {
			return userStep(s, mut("email", "email-own-in-capitals", "QA@EXAMPLE.COM"))
		}, statuses: []int{200}, ok200: true},
		{name: "a display name: refused as an invalid email", step: func(s *seqState) Step {
			return userStep(s, mut("email", "email-display-name", "Quinn <contract-q@example.com>"))
		}, statuses: []int{400}, required: []string{"email"}, codes: []string{"email=InvalidEmail"}},
		{name: "a secret in capitals: 401, or the account's answer", step: func(s *seqState) Step {
			st := userStep(s)
			st.Cred.Op = "secret-upper-case"
			return st
		}, statuses: []int{401, 200}, freedoms: []string{"secret-forms"}, ok200: true},
		{name: "the scheme word in capitals: the account's answer, or 401", step: func(s *seqState) Step {
			st := userStep(s)
			st.Cred.Op = "scheme-word-case"
			return st
		}, statuses: []int{200, 401}, freedoms: []string{"scheme-word"}, ok200: true},
		{name: "a key with one character more: 401", step: func(s *seqState) Step {
			st := userStep(s)
			st.Cred.Op = "secret-character-added"
			return st
		}, statuses: []int{401}},
		{name: "a body with a duplicate member: that value, or refused", step: func(s *seqState) Step { st := userStep(s); st.Wire = WireDuplicate; return st },
			statuses: []int{200}, any4xx: true, freedoms: []string{"duplicate-keys"}, ok200: true},
		{name: "a body of 1 MiB: accepted, refused, or 413", step: func(s *seqState) Step { st := userStep(s); st.Wire = WireLarge; return st },
			statuses: []int{200, 400, 413}, any4xx: true, freedoms: []string{"size-limit"}, ok200: true},
		{name: "a body that is no JSON: any 4xx", step: func(s *seqState) Step { st := userStep(s); st.Wire = WireNotJSON; return st },
			any4xx: true, freedoms: []string{"unstated-refusal"}},
		{name: "a body labelled text/plain: read, or refused", step: func(s *seqState) Step { st := userStep(s); st.ContentType = "text/plain"; return st },
			statuses: []int{200}, any4xx: true, freedoms: []string{"content-type"}, ok200: true},
		{name: "terms in another case: any 4xx", step: func(s *seqState) Step {
			return clientStep(s, mut("terms", "terms-case", "i agree"))
		}, statuses: []int{400}, any4xx: true, freedoms: []string{"unstated-refusal"}},
		{name: "a currency id written 1.0: refused, or read as 1", step: func(s *seqState) Step {
			return clientStep(s, Mutation{Field: "currency.id", Op: "id-decimal-form", Value: json.Number("1.0"), Alt: json.Number("1")})
		}, statuses: []int{400, 200}, any4xx: true, freedoms: []string{"number-forms"}, ok200: true},
		{name: "an app by name: made, or refused", step: func(s *seqState) Step {
			return appStep(appByNameBody())
		}, statuses: []int{200}, any4xx: true, freedoms: []string{"app-by-name"}, ok200: true},
		{name: "another postcode: accepted, or refused by the country's form", step: func(s *seqState) Step {
			return clientStep(s, mut("addressPostcode", "new-value", "contract-7"))
		}, statuses: []int{200}, any4xx: true, freedoms: []string{"unstated-validity"}, ok200: true},
		{name: "another address line: accepted, or refused as no address (the spec judges it by its length alone: unstated-validity)", step: func(s *seqState) Step {
			return clientStep(s, mut("addressLine1", "new-value", "contract-7"))
		}, statuses: []int{200}, any4xx: true, freedoms: []string{"unstated-validity"}, ok200: true},
		{name: "an address line of 255 characters: accepted (8 decides its length)", step: func(s *seqState) Step {
			return clientStep(s, mut("addressLine1", "max-length", strings.Repeat("x", 255)))
		}, statuses: []int{200}, ok200: true},
		{name: "the platforms collection without credentials", step: func(s *seqState) Step {
			return Step{Op: OpPlatforms, Actor: "A", Cred: Cred{Scheme: "none"}}
		}, statuses: []int{200, 401}, freedoms: []string{"platforms-auth"}, ok200: true},
		{name: "a login with the account's credentials", step: func(s *seqState) Step {
			return Step{Op: OpLogin, Actor: "A", Login: [2]string{"{{A.email}}", "{{A.password}}"}}
		}, statuses: []int{200}, ok200: true},
		{name: "a login with the email in capitals: the session, or a refusal", step: func(s *seqState) Step {
			return Step{Op: OpLogin, Actor: "A", Login: [2]string{"{{upper:A.email}}", "{{A.password}}"}}
		}, statuses: []int{200, 400, 401}, freedoms: []string{"login-email-case"}, ok200: true},
		// Silent: the spec does not judge the value; either answer, then held.
		{name: "two dots in a row in an email: refused by the mock, taken by WHATWG: either (silent)", step: func(s *seqState) Step {
			return userStep(s, mut("email", "email-double-dot", "contract..q@example.com"))
		}, statuses: []int{400, 200}, any4xx: true, freedoms: []string{"silent"}, ok200: true},
		{name: "no email in an update: refused by the mock, kept by another: either (silent)", step: func(s *seqState) Step {
			return userStep(s, Mutation{Field: "email", Op: "absent", Remove: true})
		}, statuses: []int{400, 200}, any4xx: true, freedoms: []string{"silent"}, ok200: true},
		{name: "an empty phone extension: refused by the mock, a String to another: either (silent)", step: func(s *seqState) Step {
			return userStep(s, mut("phoneExtension", "empty", ""))
		}, statuses: []int{400, 200}, any4xx: true, freedoms: []string{"silent"}, ok200: true},
		{name: "null for an optional address line: taken by the mock as none, refused by another: either (silent)", step: func(s *seqState) Step {
			return clientStep(s, mut("addressLine2", "null", nil))
		}, statuses: []int{200}, any4xx: true, freedoms: []string{"silent"}, ok200: true},
		{name: "a real Area/City timezone with three parts: taken (2.1's form, an IANA name)", step: func(s *seqState) Step {
			return userStep(s, mut("timezone", "timezone-other", "America/Argentina/Buenos_Aires"))
		}, statuses: []int{200}, ok200: true},
		{name: "an empty first name and two dots in the email: the first name refused with its code whatever the email", step: func(s *seqState) Step {
			return userStep(s, mut("firstName", "empty", ""), mut("email", "email-double-dot", "contract..q@example.com"))
		}, statuses: []int{400}, any4xx: true, required: []string{"firstName"}, codes: []string{"firstName=InvalidFirstName"}, freedoms: []string{"silent"}},
		{name: "a login with the password in capitals: refused, 400 or 401", step: func(s *seqState) Step {
			return Step{Op: OpLogin, Actor: "A", Login: [2]string{"{{A.email}}", "{{upper:A.password}}"}}
		}, statuses: []int{400, 401}, freedoms: []string{"login-refused"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testSequence(t, wd)
			st := c.step(s)
			sent := st.Encode()
			if st.Op == OpLogin {
				sent = string(mustJSON(t, map[string]any{"email": expandLogin(st.Login[0], wd.acct), "password": expandLogin(st.Login[1], wd.acct)}))
			}
			v := wd.verdictOf(s, st, sent)
			got := slices.Clone(v.statuses)
			slices.Sort(got)
			want := slices.Clone(c.statuses)
			slices.Sort(want)
			if !slices.Equal(got, want) || v.any4xx != c.any4xx {
				t.Errorf("statuses %v (any 4xx %v), want %v (any 4xx %v)", got, v.any4xx, want, c.any4xx)
			}
			if !slices.Equal(v.required, c.required) {
				t.Errorf("required %q, want %q", v.required, c.required)
			}
			if !slices.Equal(v.codes, c.codes) {
				t.Errorf("codes %q, want %q", v.codes, c.codes)
			}
			for _, f := range c.freedoms {
				if !slices.Contains(v.freedoms, f) {
					t.Errorf("freedoms %q, want %s among them", v.freedoms, f)
				}
			}
			if len(c.freedoms) == 0 && len(v.freedoms) > 0 {
				t.Errorf("freedoms %q granted where the spec leaves no choice", v.freedoms)
			}
			if c.ok200 != (v.accept != nil) {
				t.Errorf("a 200 shows an entity: %v, want %v", v.accept != nil, c.ok200)
			}
		})
	}
}

// A choice of a field an address judges by its country is not held by its
// kind and place: a VAT number taken beside one country may be refused
// beside another (freedom unstated-validity).
func TestCountryFormFieldsAreNotHeld(t *testing.T) {
	for _, c := range []struct {
		op   Op
		path string
		want bool
	}{
		{OpPutClient, "vat", true},
		{OpPostClient, "addressPostcode", true},
		{OpPutUser, "client.addressCountry", true},
		{OpPutClient, "name", false},
		{OpPutUser, "firstName", false},
	} {
		if got := judgedByItsCountry(c.op, c.path); got != c.want {
			t.Errorf("judgedByItsCountry(%s, %s) = %v, want %v", c.op, c.path, got, c.want)
		}
	}
}

// TestBesideHash: a name and a platform beside a marketplace hash, the
// platform an object or not, are what a server may ignore; with no hash,
// or null, nothing is.
func TestBesideHash(t *testing.T) {
	hash := map[string]any{"hash": "0123456789abcdef0123456789abcdef01234567"}
	for _, c := range []struct {
		op   Op
		body map[string]any
		want []string
	}{
		{OpPostApp, map[string]any{"marketapp": hash, "name": "x", "platform": map[string]any{"id": 1}}, []string{"platform.id", "name"}},
		{OpPostApp, map[string]any{"marketapp": hash, "name": nil, "platform": "android"}, []string{"platform"}},
		{OpPostApp, map[string]any{"marketapp": hash, "name": nil, "platform": map[string]any{"id": nil}}, nil},
		{OpPostApp, map[string]any{"marketapp": map[string]any{}, "name": "x", "platform": map[string]any{"id": 1}}, nil},
		{OpPostClient, map[string]any{"app": map[string]any{"marketapp": hash, "name": "x"}}, []string{"app.name"}},
		{OpPutUser, map[string]any{"client": map[string]any{"app": map[string]any{"marketapp": hash, "name": "x"}}}, []string{"client.app.name"}},
	} {
		got := besideHash(c.op, c.body)
		if !slices.Equal(got, c.want) {
			t.Errorf("besideHash(%v, %v) = %q, want %q", c.op, c.body, got, c.want)
		}
		rs := readingSet{}
		for _, at := range got {
			rs.refuse = append(rs.refuse, fieldReading{field: at, reading: mayRefuse, f: policy.PlatformBesideHash})
		}
		for _, at := range c.want {
			if !rs.ignorable(at) {
				t.Errorf("%s beside a hash: not ignorable", at)
			}
		}
		if rs.ignorable("nextplan.id") {
			t.Error("nextplan.id ignorable beside a hash")
		}
	}
}

// A marketplace app that is no object, or a hash that is no 40 hexadecimal
// characters, may be read as no hash given: a refusal may then name the
// app's name and platform where the body gives none (freedom
// malformed-hash); a well-formed hash, known or not, is a hash given.
func TestMalformedHashNamesNameAndPlatform(t *testing.T) {
	hash := "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		op   Op
		body map[string]any
		want []string
	}{
		{OpPostApp, map[string]any{"marketapp": "x", "name": nil, "platform": map[string]any{"id": nil}}, []string{"name", "platform.id"}},
		{OpPostApp, map[string]any{"marketapp": map[string]any{"hash": hash[:39] + "g"}}, []string{"name", "platform.id"}},
		{OpPostApp, map[string]any{"marketapp": map[string]any{"hash": 12}, "name": "x"}, []string{"platform.id"}},
		{OpPostApp, map[string]any{"marketapp": map[string]any{"hash": hash + "a"}, "name": "x", "platform": map[string]any{"id": 1}}, nil},
		{OpPostApp, map[string]any{"marketapp": map[string]any{"hash": hash}, "name": nil}, nil},
		{OpPostApp, map[string]any{"marketapp": map[string]any{"hash": strings.ToUpper(hash)}}, nil},
		{OpPostApp, map[string]any{"marketapp": map[string]any{"hash": nil}}, nil},
		{OpPostApp, map[string]any{"marketapp": nil}, nil},
		{OpPostClient, map[string]any{"app": map[string]any{"marketapp": []any{}}}, []string{"app.name", "app.platform.id"}},
	} {
		var rs readingSet
		rs.appReadings(Step{Op: c.op}, c.body)
		if !slices.Equal(rs.alsoName, c.want) {
			t.Errorf("%v %v: a refusal may name %q too, want %q", c.op, c.body, rs.alsoName, c.want)
		}
	}
}

// A hash past the limit of section 8 is a validation failure: 400 (7.2),
// not any 4xx, naming the hash or no other field.
func TestBadRequestIsFourHundred(t *testing.T) {
	for _, name := range []string{"hash-39", "hash-41", "hash-not-hex", "hash-padded"} {
		if o, _ := bodyOp(name); o.Reading != badRequest {
			t.Errorf("operator %s: reading %d, want badRequest", name, o.Reading)
		}
	}
	v := verdict{statuses: []int{400}}
	v.readErrors([]pricing.FieldError{{FieldName: "marketapp.hash"}}, readingSet{byPath: []fieldReading{{field: "marketapp.hash", reading: badRequest}}})
	if v.any4xx || !v.allows(400) || v.allows(404) || v.allows(422) {
		t.Errorf("a hash of 39 characters: allows 400 %v, 404 %v, 422 %v; want 400 alone", v.allows(400), v.allows(404), v.allows(422))
	}
	if !v.mayNameField("marketapp.hash") || v.mayNameField("name") || len(v.required) > 0 {
		t.Errorf("a hash of 39 characters: may name %q, must name %q; want marketapp.hash, or nothing", v.mayName, v.required)
	}
}

// A field sent as the body held it, in another form (escaped, or the own
// email in capitals), is still the target's own value (ownValues): the
// reference waives what the target took of it before.
func TestFormOnly(t *testing.T) {
	base := map[string]any{"email": "contract..x@example.com", "firstName": "Ann"}
	for _, c := range []struct {
		m    Mutation
		want bool
	}{
		{Mutation{Field: "email", Value: Escaped("contract..x@example.com")}, true},
		{Mutation{Field: "email", Value: Escaped("other@example.com")}, false},
		{Mutation{Field: "email", Op: "email-own-in-capitals", Value: "CONTRACT..X@EXAMPLE.COM"}, true},
		{Mutation{Field: "email", Op: "email-new", Value: "CONTRACT..X@EXAMPLE.COM"}, false},
		{Mutation{Field: "email", Op: "email-own-in-capitals", Value: "someone@example.com"}, false},
		{Mutation{Field: "firstName", Value: Escaped("Ann")}, false},
	} {
		st := Step{Base: base, Muts: []Mutation{c.m}}
		if got := st.formOnly("email"); got != c.want {
			t.Errorf("%+v: formOnly(email) = %v, want %v", c.m, got, c.want)
		}
	}
}

// Null may be read as left out for the phone fields PUT /users does not
// list, and for no other: not the extension (null clears it), not a field
// of the table.
func TestNullMayBeLeftOut(t *testing.T) {
	want := map[string]bool{"phoneNumber": true, "phoneCountry": true}
	seen := map[string]bool{}
	for _, op := range []Op{OpPutUser, OpPutClient, OpPostClient, OpPostApp} {
		for _, f := range bodyFields(op) {
			got := nullMayBeLeftOut(op, f)
			if got != (op == OpPutUser && want[f.path]) {
				t.Errorf("%s %s: null may be left out %v", op, f.path, got)
			}
			if got {
				seen[f.path] = true
			}
		}
	}
	if len(seen) != len(want) {
		t.Errorf("null may be left out for %v, want %v", seen, want)
	}
}

// Two members a server may each read as not given, in one body: an empty
// hash read as none and a null phone number read as left out are one
// reading together, as each is alone, so the 200 that takes both is
// correct.
func TestMembersReadAsNotGivenTogether(t *testing.T) {
	wd := testWorld(t)
	s := testSequence(t, wd)
	st := userStep(s)
	st.Base["client"] = map[string]any{
		"addressCity": "London", "addressCountry": "United Kingdom", "addressLine1": "1 Market Street",
		"addressPostcode": "EC1A 1AA", "currency": map[string]any{"id": json.Number("1")}, "name": "contract-x", "terms": "I agree",
		"app": map[string]any{"marketapp": map[string]any{"hash": wd.cat.hash}, "name": "contract-app-x",
			"nextplan": map[string]any{"id": json.Number("2")}, "platform": map[string]any{"id": json.Number("1")}},
	}
	hash := Mutation{Field: "client.app.marketapp.hash", Op: "empty", Value: ""}
	phone := Mutation{Field: "phoneNumber", Op: "null", Value: nil}
	for _, muts := range [][]Mutation{{hash}, {phone}, {hash, phone}} {
		st.Muts = muts
		if v := wd.verdictOf(s, st, st.Encode()); !v.allows(200) {
			t.Errorf("%s: statuses %v, no 200", describeMuts(muts), v.statuses)
		}
	}
}

func describeMuts(muts []Mutation) string {
	var s []string
	for _, m := range muts {
		s = append(s, m.Field+" "+m.Op)
	}
	return strings.Join(s, ", ")
}

// A secret in capitals that a server may read as the account's own, beside
// a member it may read as not given: the account's answer to the reading
// is judged with the account's credentials, so its 200 is correct.
func TestLenientReadingWithASecretInCapitals(t *testing.T) {
	wd := testWorld(t)
	s := testSequence(t, wd)
	st := userStep(s, Mutation{Field: "phoneNumber", Op: "null", Value: nil})
	st.Cred.Op = "secret-upper-case"
	if v := wd.verdictOf(s, st, st.Encode()); !v.allows(200) || !v.allows(401) {
		t.Errorf("statuses %v: want 401 and the account's 200", v.statuses)
	}
}
