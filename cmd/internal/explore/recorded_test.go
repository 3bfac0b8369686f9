package explore

import (
	"encoding/json"
	"strings"
	"testing"
)

// A recorded body is judged by the operators that describe it, so that a
// recording gets the freedoms the explorer's own steps get: each case is a
// body as a frontend sent it, an answer a correct server may give (or not),
// and the divergence's key ("" none). With classify returning no
// operators, 14 of the 16 cases fail.
func TestRecordedBodies(t *testing.T) {
	wd := testWorld(t)
	errs := func(field, code string) string {
		return `[{"fieldName":"` + field + `","error":"` + code + `","message":"It is wrong."}]`
	}
	user := func(changes map[string]any, drop ...string) map[string]any {
		b := map[string]any{"email": "qa@example.com", "firstName": "Quinn", "lastName": "Assurance", "subscribeWelcome": true,
			"subscribeBlog": false, "subscribeHowto": true, "subscribeOnboarding": false, "timezone": "Europe/London", "password": nil,
			"phoneCountry": map[string]any{"id": json.Number("1")}, "phoneNumber": "7700900123", "phoneExtension": nil}
		for k, v := range changes {
			b[k] = v
		}
		for _, k := range drop {
			delete(b, k)
		}
		return b
	}
	client := func(changes map[string]any) map[string]any {
		b := map[string]any{"name": "Frontend Ltd", "addressLine1": "1 Main Street", "addressCity": "London", "addressPostcode": "SW1A 1AA",
			"addressCountry": "United Kingdom", "currency": map[string]any{"id": json.Number("1")}, "terms": "I agree"}
		for k, v := range changes {
			b[k] = v
		}
		return b
	}
	putUser := func(body map[string]any) Step {
		return Step{Op: OpPutUser, Actor: "A", Cred: Cred{Scheme: "session-token", Op: "as-specified"}, Path: "own", Base: body, Recorded: "recorded request 1"}
	}
	postClient := func(body map[string]any) Step {
		return Step{Op: OpPostClient, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: body, Recorded: "recorded request 1"}
	}
	cases := []struct {
		name string
		st   Step
		got  wireAnswer
		key  string
	}{
		{"the phone fields left out, refused", putUser(user(nil, "phoneCountry", "phoneNumber", "phoneExtension")),
			jsonAnswer(400, errs("phoneNumber", "Required")), ""},
		{"the password left out, refused", putUser(user(nil, "password")), jsonAnswer(400, errs("password", "Required")), ""},
		{"a field the spec does not name, refused", putUser(user(map[string]any{"id": json.Number("1")})), jsonAnswer(400, errs("id", "Unknown")), ""},
		{"a field the spec does not name, refused naming another", putUser(user(map[string]any{"id": json.Number("1")})),
			jsonAnswer(400, errs("firstName", "Unknown")), "errors-names"},
		{"a timezone of the form Area/City that no database lists, refused", putUser(user(map[string]any{"timezone": "Europe/Atlantis"})),
			jsonAnswer(400, errs("timezone", "InvalidTimezone")), ""},
		{"a timezone of the database, refused", putUser(user(map[string]any{"timezone": "Asia/Tokyo"})),
			jsonAnswer(400, errs("timezone", "InvalidTimezone")), "status 400"},
		{"a first name of another type, refused 422", putUser(user(map[string]any{"firstName": json.Number("7")})),
			jsonAnswer(422, errs("firstName", "InvalidType")), ""},
		{"an invalid email, refused without 7.3's code", putUser(user(map[string]any{"email": "not an address"})),
			jsonAnswer(400, errs("email", "Invalid")), "errors-code email=InvalidEmail"},
		{"the other account's email, refused 409", putUser(user(map[string]any{"email": "other@example.com"})),
			jsonAnswer(409, `[]`), ""},
		{"a phone number with spaces, refused", putUser(user(map[string]any{"phoneNumber": "7700 900 123"})),
			jsonAnswer(400, errs("phoneNumber", "InvalidPhoneNumber")), ""},
		{"an unknown phone country, refused without 7.3's code", putUser(user(map[string]any{"phoneCountry": map[string]any{"id": json.Number("99")}})),
			jsonAnswer(400, errs("phoneCountry.id", "Unknown")), "errors-code phoneCountry.id=InvalidPhoneCountryId"},
		{"a postcode, refused by its country's form", postClient(client(map[string]any{"addressPostcode": "12345"})),
			jsonAnswer(400, errs("addressPostcode", "InvalidPostcode")), ""},
		{"an unknown currency, refused 404", postClient(client(map[string]any{"currency": map[string]any{"id": json.Number("99")}})),
			jsonAnswer(404, `[]`), ""},
		{"terms in other words, refused 422", postClient(client(map[string]any{"terms": "yes"})), jsonAnswer(422, `[]`), ""},
		{"JSON sent as text, refused", func() Step { st := postClient(client(nil)); st.ContentType = "text/plain;charset=UTF-8"; return st }(),
			jsonAnswer(415, `[]`), ""},
		{"a plain body, refused naming a valid field", postClient(client(nil)), jsonAnswer(400, errs("name", "Invalid")), "errors-names"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testSequence(t, wd)
			st := c.st
			st.Muts = wd.classify(s, st)
			_, key, reason := judgeFirst(wd, s, st, c.got)
			if key != c.key {
				var ops []string
				for _, m := range st.Muts {
					ops = append(ops, m.Field+": "+m.Op)
				}
				t.Errorf("divergence %q (%s), want %q; operators: %s", key, reason, c.key, strings.Join(ops, ", "))
			}
			if st.Encode() != c.st.Encode() {
				t.Errorf("the operators changed the body sent:\n%s\nwant:\n%s", st.Encode(), c.st.Encode())
			}
		})
	}
}

// A "created" path with a label names the client the step of that label
// made, not the last one the account made.
func TestCreatedByLabel(t *testing.T) {
	wd := testWorld(t)
	s := testSequence(t, wd)
	s.posted["A"] = []posted{{ref: 3, at: 0, label: "recorded request 2"}, {ref: 4, at: 1, label: "recorded request 5"}}
	s.bind("client", 3, "30", 0)
	s.bind("client", 4, "40", 1)
	st := Step{Op: OpPutClient, Actor: "A", Path: "created", PathID: "recorded request 2"}
	if p, ok := s.createdFor(st); !ok || p.ref != 3 {
		t.Errorf("the client of recorded request 2: %+v, %v", p, ok)
	}
	st.PathID = ""
	if p, ok := s.createdFor(st); !ok || p.ref != 4 {
		t.Errorf("the last client made: %+v, %v", p, ok)
	}
	st.PathID = "recorded request 9"
	if _, ok := s.createdFor(st); ok {
		t.Error("a label no step made names a client")
	}
}
