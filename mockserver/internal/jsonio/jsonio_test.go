package jsonio

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestDecode(t *testing.T) {
	type rule struct {
		Path string `json:"path"`
	}
	tests := []struct {
		name    string
		in      string
		into    func() any
		wantErr error // nil: no error; errAny: some error
	}{
		{"an object", `{"id": 12345678901234567890}`, func() any { return new(any) }, nil},
		{"white space after the value", "{}\n\t ", func() any { return new(any) }, nil},
		{"a second value", `{} {}`, func() any { return new(any) }, ErrTrailingData},
		{"a stray character", `[1] x`, func() any { return new(any) }, ErrTrailingData},
		{"not JSON", `{"a":`, func() any { return new(any) }, errAny},
		{"empty", ``, func() any { return new(any) }, errAny},
		{"a known field", `{"path":"/v1"}`, func() any { return new(rule) }, nil},
		{"an unknown field", `{"pth":"/v1"}`, func() any { return new(rule) }, errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Decode([]byte(tt.in), tt.into())
			switch {
			case tt.wantErr == nil && err != nil:
				t.Errorf("Decode(%q) = %v, want no error", tt.in, err)
			case tt.wantErr == errAny && err == nil:
				t.Errorf("Decode(%q) accepted it", tt.in)
			case tt.wantErr == ErrTrailingData && !errors.Is(err, ErrTrailingData):
				t.Errorf("Decode(%q) = %v, want ErrTrailingData", tt.in, err)
			}
		})
	}

	var v any
	if err := Decode([]byte(`{"id": 12345678901234567890}`), &v); err != nil {
		t.Fatal(err)
	}
	if n, ok := v.(map[string]any)["id"].(json.Number); !ok || n != "12345678901234567890" {
		t.Errorf("id decoded as %#v, want the json.Number as written", v.(map[string]any)["id"])
	}
}

var errAny = errors.New("any error")

func TestEncode(t *testing.T) {
	b, err := Encode(map[string]any{"message": "Authorization: api-key <API_KEY> & more"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"message":"Authorization: api-key <API_KEY> & more"}` + "\n"; string(b) != want {
		t.Errorf("Encode = %q, want %q", b, want)
	}
	if _, err := Encode(func() {}); err == nil {
		t.Error("Encode of a function succeeded")
	}
}

func TestCheckShape(t *testing.T) {
	s := Shape{Depth: 4, Items: 5, Values: 20}
	cases := []struct {
		doc string
		ok  bool
	}{
		{`{"a":1,"b":[1,2,3],"c":{"d":"x,y,z]]]}}}"}}`, true},
		{`[1,2,3,4,5]`, true},
		{`[1,2,3,4,5,6]`, false},
		{`[[[[1]]]]`, true},
		{`[[[[[1]]]]]`, false},
		{`{"s":"\"[[[[[[[[,,,,,,,,"}`, true},
		{`[1,2],[3,4],[5,6],[7,8],[9,10],[11,12],[13,14],[15,16],[17,18],[19,20],[21]`, false},
	}
	for _, c := range cases {
		err := CheckShape([]byte(c.doc), s)
		if (err == nil) != c.ok || err != nil && !errors.Is(err, ErrShape) {
			t.Errorf("CheckShape(%s) = %v, want ok %v", c.doc, err, c.ok)
		}
	}
}
