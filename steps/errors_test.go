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
