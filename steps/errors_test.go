package steps

import (
	"strings"
	"testing"

	"github.com/cucumber/godog"
)

// TestErrorArraySteps holds the errors steps to spec 7.1 on answers the
// fake echoes (/reply answers the request body with the status asked for):
// every element's message is human-readable text, and "name only" wants
// each listed field named and nothing else.
func TestErrorArraySteps(t *testing.T) {
	base := newFakeAPI().start(t)
	tests := []struct {
		name, body, then string
		fail             string // a part of the failure; "" to pass
	}{
		{"one field named", `[{"fieldName": "email", "error": "InvalidEmail", "message": "The email address is invalid."}]`,
			`the errors name only the field "email"`, ""},
		{"one field, two elements", `[{"fieldName": "email", "error": "InvalidEmail", "message": "Invalid."}, {"fieldName": "email", "error": "TooLong", "message": "Too long."}]`,
			`the errors name only the field "email"`, ""},
		{"several fields", `[{"fieldName": "lastName", "error": "B", "message": "b"}, {"fieldName": "email", "error": "A", "message": "a"}, {"fieldName": "a\"b", "error": "C", "message": "c"}]`,
			`the errors name only the fields "email", "lastName" and "a\"b"`, ""},
		{"a message in another script", `[{"fieldName": "email", "error": "InvalidEmail", "message": "無効なメールアドレス"}]`,
			`the errors name only the field "email"`, ""},
		{"an element for a valid field", `[{"fieldName": "email", "error": "InvalidEmail", "message": "Invalid."}, {"fieldName": "timezone", "error": "InvalidTimezone", "message": "Invalid."}]`,
			`the errors name only the field "email"`, "errors name fields that were valid (spec 7.1: fieldName is the name of the offending body field):\n  | timezone | InvalidTimezone |"},
		{"an element for no field", `[{"fieldName": "email", "error": "InvalidEmail", "message": "Invalid."}, {"fieldName": "", "error": "Invalid", "message": "Invalid."}]`,
			`the errors name only the field "email"`, "errors name fields that were valid"},
		{"the field not named", `[{"fieldName": "e-mail", "error": "InvalidEmail", "message": "Invalid."}]`,
			`the errors name only the field "email"`, `no error names the field "email"; errors name fields that were valid`},
		{"one of several not named", `[{"fieldName": "email", "error": "A", "message": "a"}]`,
			`the errors name only the fields "email" and "lastName"`, `no error names the field "lastName"`},
		{"an empty message", `[{"fieldName": "email", "error": "InvalidEmail", "message": ""}]`,
			`the errors name the field "email"`, `[0].message: expected human-readable text, got ""`},
		{"a message of punctuation", `[{"fieldName": "email", "error": "InvalidEmail", "message": "Invalid."}, {"fieldName": "x", "error": "X", "message": " ... "}]`,
			`the errors include:
      | fieldName | error        |
      | email     | InvalidEmail |`, `[1].message: expected human-readable text, got " ... "`},
		{"a message that is no string", `[{"fieldName": "email", "error": "InvalidEmail", "message": {"en": "Invalid."}}]`,
			`the errors are exactly:
      | fieldName | error        |
      | email     | InvalidEmail |`, "$[0].message: expected #string"},
		{"not a 400", `[{"fieldName": "email", "error": "InvalidEmail", "message": "Invalid."}]`,
			`the errors name only the field "email"`, "expected status 400 with the error array of spec 7.1, got 422"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status := "400"
			if tt.name == "not a 400" {
				status = "422"
			}
			feature := "Feature: errors\n  Scenario: errors\n    Given the request body is:\n      \"\"\"json\n      " + tt.body +
				"\n      \"\"\"\n    When I send \"POST\" to \"/reply?status=" + status + "\"\n    Then " + tt.then + "\n"
			s := NewSuite(testProfile(base), Options{Output: &strings.Builder{}})
			o := s.Run(t.Name(), godog.Options{
				Format:          "progress",
				FeatureContents: []godog.Feature{{Name: "errors.feature", Contents: []byte(feature)}},
			})
			if o.Ran != 1 {
				t.Fatalf("ran %d scenarios; output:\n%s", o.Ran, o.Output)
			}
			switch {
			case tt.fail == "" && len(o.Failed) > 0:
				t.Fatalf("failed, want a pass:\n%v", o.Failed[0].Err)
			case tt.fail != "" && len(o.Failed) == 0:
				t.Fatalf("passed, want a failure with %q", tt.fail)
			case tt.fail != "" && !strings.Contains(o.Failed[0].Err.Error(), tt.fail):
				t.Fatalf("the failure lacks %q:\n%v", tt.fail, o.Failed[0].Err)
			}
		})
	}
}

// TestMessageCarriesNumber holds "the error messages do not carry the
// number" to whole numbers inside messages: an id of 2 is in "user 2" and
// "#2", never in 12, 2.5, a fieldName or a code.
func TestMessageCarriesNumber(t *testing.T) {
	tests := []struct {
		name, body, n, where, err string
	}{
		{"the id named", `[{"fieldName": "email", "error": "InvalidEmail", "message": "the email address is already used by user 2"}]`, "2", "0.message", ""},
		{"the id after a sign", `[{"fieldName": "email", "error": "InvalidEmail", "message": "taken by #2."}]`, "2", "0.message", ""},
		{"the id in brackets", `[{"fieldName": "email", "error": "InvalidEmail", "message": "taken (2)"}]`, "2", "0.message", ""},
		{"the id with leading zeros", `[{"fieldName": "email", "error": "InvalidEmail", "message": "taken by user 002"}]`, "2", "0.message", ""},
		{"a later element", `[{"fieldName": "a", "error": "A", "message": "a"}, {"fieldName": "email", "error": "B", "message": "user 17 has it"}]`, "17", "1.message", ""},
		{"a longer number", `[{"fieldName": "email", "error": "InvalidEmail", "message": "at most 12 or 255 characters"}]`, "2", "", ""},
		{"a decimal", `[{"fieldName": "email", "error": "InvalidEmail", "message": "see section 2.5 or 1.2"}]`, "2", "", ""},
		{"a message without it", `[{"fieldName": "email", "error": "InvalidEmail", "message": "the email address is already in use"}]`, "2", "", ""},
		{"the number in the fieldName only", `[{"fieldName": "2", "error": "Invalid2", "message": "invalid"}]`, "2", "", ""},
		{"the number in another member", `[{"fieldName": "email", "error": "InvalidEmail", "message": "taken", "owner": 2, "detail": "user 2"}]`, "2", "", ""},
		{"an object of another status", `{"error": "Forbidden", "message": "user 2 belongs to another account"}`, "2", "message", ""},
		{"a nested message", `{"errors": [{"message": "user 2"}]}`, "2", "errors.0.message", ""},
		{"a body that is not JSON", `user 2 holds it`, "2", "(the body, not JSON)", ""},
		{"a body that is one JSON string", `"user 2 holds it"`, "2", "(the body, a JSON string)", ""},
		{"an empty body", ``, "2", "", ""},
		{"no whole number asked for", `[]`, "2a", "", "is not a whole number"},
		{"nothing asked for", `[]`, "", "", "is not a whole number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			where, err := messageCarriesNumber([]byte(tt.body), tt.n)
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one with %q", err, tt.err)
			case tt.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case where != tt.where:
				t.Fatalf("where = %q, want %q", where, tt.where)
			}
		})
	}
}
