package match

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestMatchShape(t *testing.T) {
	tests := []struct {
		name  string
		shape string
		value string // "" means absent
		fails []string
	}{
		// literals
		{"string literal", `"a"`, `"a"`, nil},
		{"string literal differs", `"a"`, `"b"`, []string{`$: expected "a", got "b"`}},
		{"string literal is not a number", `"1"`, `1`, []string{`$: expected "1", got 1`}},
		{"number numerically", `1`, `1.0`, nil},
		{"number with exponent", `100`, `1e2`, nil},
		{"number differs", `1`, `2`, []string{`$: expected 1, got 2`}},
		{"number is not a string", `1`, `"1"`, []string{`$: expected 1, got "1"`}},
		{"true", `true`, `true`, nil},
		{"true is not false", `true`, `false`, []string{`$: expected true, got false`}},
		{"null literal", `null`, `null`, nil},
		{"null literal absent", `{"a": null}`, `{}`, []string{`$.a: expected null, got absent`}},
		{"literal absent", `{"a": 1}`, `{}`, []string{`$.a: expected 1, got absent`}},

		// type markers
		{"#string", `"#string"`, `"x"`, nil},
		{"#string not number", `"#string"`, `1`, []string{`$: expected #string, got 1`}},
		{"#string absent", `{"a": "#string"}`, `{}`, []string{`$.a: expected #string, got absent`}},
		{"#number", `"#number"`, `-1.5e3`, nil},
		{"#number not string", `"#number"`, `"1"`, []string{`$: expected #number, got "1"`}},
		{"#boolean true", `"#boolean"`, `true`, nil},
		{"#boolean false", `"#boolean"`, `false`, nil},
		{"#boolean not string", `"#boolean"`, `"true"`, []string{`$: expected #boolean, got "true"`}},
		{"#null", `"#null"`, `null`, nil},
		{"#null not absent", `{"a": "#null"}`, `{}`, []string{`$.a: expected #null, got absent`}},
		{"#null not zero", `"#null"`, `0`, []string{`$: expected #null, got 0`}},
		{"#object", `"#object"`, `{"x":1}`, nil},
		{"#object not array", `"#object"`, `[]`, []string{`$: expected #object, got []`}},
		{"#array", `"#array"`, `[1]`, nil},
		{"#array not object", `"#array"`, `{}`, []string{`$: expected #array, got {}`}},

		// presence
		{"#present with null", `{"a": "#present"}`, `{"a": null}`, nil},
		{"#present absent", `{"a": "#present"}`, `{}`, []string{`$.a: expected #present, got absent`}},
		{"#notpresent absent", `{"password": "#notpresent"}`, `{}`, nil},
		{"#notpresent present", `{"password": "#notpresent"}`, `{"password": "x"}`, []string{`$.password: expected #notpresent, got "x"`}},
		{"#notpresent null is present", `{"a": "#notpresent"}`, `{"a": null}`, []string{`$.a: expected #notpresent, got null`}},
		{"#ignore absent", `{"a": "#ignore"}`, `{}`, nil},
		{"#ignore anything", `{"a": "#ignore"}`, `{"a": [1, {}]}`, nil},

		// optional
		{"##string absent", `{"a": "##string"}`, `{}`, nil},
		{"##string null", `{"a": "##string"}`, `{"a": null}`, nil},
		{"##string string", `{"a": "##string"}`, `{"a": "x"}`, nil},
		{"##string number", `{"a": "##string"}`, `{"a": 1}`, []string{`$.a: expected ##string, got 1`}},
		{"##regex absent", `{"a": "##regex [a-z]+"}`, `{}`, nil},
		{"##regex null", `{"a": "##regex [a-z]+"}`, `{"a": null}`, nil},
		{"##regex wrong", `{"a": "##regex [a-z]+"}`, `{"a": "A"}`, []string{`$.a: expected ##regex [a-z]+, got "A"`}},
		{"##iso8601 good", `"##iso8601"`, `"2024-01-02"`, nil},
		{"#optional absent", `{"a": {"#optional": "x"}}`, `{}`, nil},
		{"#optional equal", `{"a": {"#optional": "x"}}`, `{"a": "x"}`, nil},
		{"#optional differs", `{"a": {"#optional": "x"}}`, `{"a": "y"}`, []string{`$.a: expected "x", got "y"`}},
		{"#optional null is not the value", `{"a": {"#optional": "x"}}`, `{"a": null}`, []string{`$.a: expected "x", got null`}},
		{"#optional marker", `{"a": {"#optional": "#regex [a-z]+"}}`, `{"a": "A"}`, []string{`$.a: expected #regex [a-z]+, got "A"`}},
		{"#optional object", `{"a": {"#optional": {"b": 1}}}`, `{"a": {"b": 2}}`, []string{`$.a.b: expected 1, got 2`}},
		{"#optional at the top", `{"#optional": 1}`, ``, nil},

		// alternatives
		{"string or null: string", `"#string|#null"`, `"x"`, nil},
		{"string or null: null", `"#string|#null"`, `null`, nil},
		{"string or null: number", `"#string|#null"`, `1`, []string{`$: expected #string|#null, got 1`}},
		{"string or null: absent", `{"a": "#string|#null"}`, `{}`, []string{`$.a: expected #string|#null, got absent`}},
		{"number or optional string: absent", `{"a": "#number|##string"}`, `{}`, nil},

		// regex, anchored
		{"#regex", `"#regex [0-9a-f]{32}"`, `"0123456789abcdef0123456789abcdef"`, nil},
		{"#regex is anchored at the end", `"#regex [0-9a-f]{4}"`, `"abcde"`, []string{`$: expected #regex [0-9a-f]{4}, got "abcde"`}},
		{"#regex is anchored at the start", `"#regex b"`, `"ab"`, []string{`$: expected #regex b, got "ab"`}},
		{"#regex alternation is anchored as a whole", `"#regex Android|iOS"`, `"xAndroid"`, []string{`$: expected #regex Android|iOS, got "xAndroid"`}},
		{"#regex alternation", `"#regex Android|iOS"`, `"iOS"`, nil},
		{"#regex dial code", `"#regex \\+[0-9]+"`, `"+44"`, nil},
		{"#regex only strings", `"#regex [0-9]+"`, `12`, []string{`$: expected #regex [0-9]+, got 12`}},

		// objects
		{"extra keys allowed", `{"a": 1}`, `{"a": 1, "b": 2}`, nil},
		{"not an object", `{"a": 1}`, `[1]`, []string{`$: expected an object, got [1]`}},
		{"object absent", `{"a": {"b": 1}}`, `{}`, []string{`$.a: expected an object, got absent`}},
		{"#closed", `{"a": 1, "#closed": true}`, `{"a": 1}`, nil},
		{"#closed extra", `{"a": 1, "#closed": true}`, `{"a": 1, "z": 2, "b": 3}`,
			[]string{`$.b: expected no such key (#closed), got 3`, `$.z: expected no such key (#closed), got 2`}},
		{"#closed false", `{"a": 1, "#closed": false}`, `{"a": 1, "z": 2}`, nil},
		{"nested, every failing path", `{"user": {"id": "#number", "phoneCountry": {"dialCode": "#regex \\+[0-9]+", "id": 1}}}`,
			`{"user": {"id": "7", "phoneCountry": {"dialCode": "44", "id": 2}}}`,
			[]string{`$.user.id: expected #number, got "7"`, `$.user.phoneCountry.dialCode: expected #regex \+[0-9]+, got "44"`, `$.user.phoneCountry.id: expected 1, got 2`}},
		{"odd key", `{"a.b": 1}`, `{"a.b": 2}`, []string{`$["a.b"]: expected 1, got 2`}},

		// arrays
		{"#each", `{"#each": {"id": "#number"}}`, `[{"id": 1}, {"id": 2}]`, nil},
		{"#each empty", `{"#each": "#number"}`, `[]`, nil},
		{"#each failing element", `{"#each": {"id": "#number"}}`, `[{"id": 1}, {"id": "2"}, {}]`,
			[]string{`$[1].id: expected #number, got "2"`, `$[2].id: expected #number, got absent`}},
		{"#each not array", `{"#each": "#number"}`, `{"a": 1}`, []string{`$: expected an array, got {"a": 1}`}},
		{"#each #minItems", `{"#each": "#number", "#minItems": 2}`, `[1, 2]`, nil},
		{"#each #minItems short", `{"#each": "#number", "#minItems": 1}`, `[]`, []string{`$: expected at least 1 elements, got []`}},
		{"nested #each", `{"platforms": {"#each": {"name": "#regex Android|iOS"}}}`, `{"platforms": [{"name": "iOS"}, {"name": "Web"}]}`,
			[]string{`$.platforms[1].name: expected #regex Android|iOS, got "Web"`}},
		{"array element-wise", `[1, "#string"]`, `[1, "x"]`, nil},
		{"array length", `[1, 2]`, `[1]`, []string{`$: expected an array of 2 elements, got [1]`}},
		{"array element", `[1, 2]`, `[1, 3]`, []string{`$[1]: expected 2, got 3`}},
		{"array not array", `[1]`, `1`, []string{`$: expected an array, got 1`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := gjson.Result{}
			if tt.value != "" {
				v = gjson.Parse(tt.value)
			}
			mm, err := Shape(tt.shape, v)
			if err != nil {
				t.Fatalf("Shape: %v", err)
			}
			got := make([]string, len(mm))
			for i, m := range mm {
				got[i] = m.String()
			}
			if strings.Join(got, "\n") != strings.Join(tt.fails, "\n") {
				t.Errorf("mismatches\n got: %q\nwant: %q", got, tt.fails)
			}
		})
	}
}

func TestMatchShapeRejectsBadShapes(t *testing.T) {
	tests := []struct{ name, shape, want string }{
		{"not JSON", `{"a": }`, "not valid JSON"},
		{"unknown marker", `"#strin"`, `unknown marker "#strin"`},
		{"unknown alternative", `"#string|#nul"`, `unknown marker "#nul"`},
		{"literal in alternatives", `"#string|x"`, `unknown marker "x"`},
		{"regex without pattern", `"#regex"`, "takes a pattern"},
		{"regex as alternative", `"#string|#regex a"`, "cannot be an alternative"},
		{"bad regex", `"#regex ("`, "missing closing )"},
		{"unknown object key", `{"#open": true}`, `unknown key "#open"`},
		{"#closed not a boolean", `{"#closed": "yes"}`, `unknown key "#closed"`},
		{"key next to #each", `{"#each": 1, "a": 1}`, `key "a" next to #each`},
		{"bad #minItems", `{"#each": 1, "#minItems": -1}`, "#minItems must be"},
		{"nested bad marker", `{"a": {"#each": {"b": "#nope"}}}`, "invalid shape at $.a[0].b"},
		{"key next to #optional", `{"#optional": 1, "b": 1}`, "#optional takes no other key"},
		{"bad marker in #optional, value absent", `{"z": {"#optional": "#nope"}}`, `unknown marker "#nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			value := `{"a": [{"b": 1}]}`
			_, err := Shape(tt.shape, gjson.Parse(value))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestISO8601(t *testing.T) {
	tests := []struct {
		s  string
		ok bool
	}{
		{"2024-01-02", true},
		{"2024-01-02T03:04:05Z", true},
		{"2024-01-02T03:04:05.123+01:00", true},
		{"2024-01-02T03:04:05,5-05:00", true},
		{"2024-01-02T03:04:05+0100", false}, // extended time with a basic zone is mixed
		{"2024-01-02T03:04", true},
		{"2024-01-02T03:04:05", true},
		{"2024-01-02T03:04:05+01", true},
		{"20240102", true},
		{"20240102T030405Z", true},
		{"20240102T030405.5+0100", true},
		{"2024-02-29", true},
		{"2024-01-02T24:00:00Z", true},
		{"", false},
		{"2024", false},
		{"2024-1-2", false},
		{"2024-13-01", false},
		{"2024-00-10", false},
		{"2023-02-29", false},
		{"2024-04-31", false},
		{"2024-01-02T25:00:00Z", false},
		{"2024-01-02T24:00:01Z", false},
		{"2024-01-02T03:60:00Z", false},
		{"2024-01-02T03:04:61Z", false},
		{"2024-01-02 03:04:05Z", false},
		{"2024-01-02Z", false},
		{"2024-01-02T03:04:05+15:00", false},
		{"2024-01-02T03:04:05+01:60", false},
		{"2024-01-02T030405Z", false},
		{"20240102T03:04:05Z", false},
		{"Tue, 02 Jan 2024 03:04:05 GMT", false},
		{"1704164645", false},
		{"2024-01-02T03:04:05Zjunk", false},
	}
	for _, tt := range tests {
		if got := IsISO8601(tt.s); got != tt.ok {
			t.Errorf("IsISO8601(%q) = %v, want %v", tt.s, got, tt.ok)
		}
		// The same through the marker, as a string and as a non-string.
		mm, err := Shape(`"#iso8601"`, gjson.Parse(JSONString(tt.s)))
		if err != nil || (len(mm) == 0) != tt.ok {
			t.Errorf("#iso8601 on %q: mismatches %v, err %v, want ok=%v", tt.s, mm, err, tt.ok)
		}
	}
	if mm, _ := Shape(`"#iso8601"`, gjson.Parse(`20240102`)); len(mm) != 1 {
		t.Errorf("#iso8601 accepted a number")
	}
}

func TestJSONEqual(t *testing.T) {
	tests := []struct {
		a, b string
		eq   bool
	}{
		{`1`, `1.00`, true},
		{`1`, `"1"`, false},
		{`"x"`, `"x"`, true},
		{`null`, `null`, true},
		{`null`, `false`, false},
		{`{"a": 1, "b": [1, 2]}`, `{"b": [1, 2], "a": 1.0}`, true},
		{`{"a": 1}`, `{"a": 1, "b": 2}`, false},
		{`{"a": 1, "b": 2}`, `{"a": 1}`, false},
		{`[1, 2]`, `[2, 1]`, false},
		{`[]`, `{}`, false},
		{`{"id": 1}`, `{"id": "#number"}`, false}, // no markers in equality
	}
	for _, tt := range tests {
		if got := JSONEqual(gjson.Parse(tt.a), gjson.Parse(tt.b)); got != tt.eq {
			t.Errorf("JSONEqual(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.eq)
		}
	}
	if JSONEqual(gjson.Parse(`null`), gjson.Result{}) {
		t.Error("null equals an absent value")
	}
}
