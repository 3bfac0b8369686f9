package mockserver

import (
	"strings"
	"testing"
)

// The secrets of the table below, none of which may be left in what the
// journal shows.
var maskSecrets = []string{"hunter2", "tok-123", "key-456"}

func wantMasked(t *testing.T, what, got string) {
	t.Helper()
	for _, s := range maskSecrets {
		if strings.Contains(got, s) {
			t.Errorf("%s shows the secret %q: %s", what, s, got)
		}
	}
}

// Finding "journal masking": each form a credential came in and leaked.
func TestMaskBody(t *testing.T) {
	t.Parallel()
	multipart := func(name, value string) string {
		return "--XyZ\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\nqa@example.com\r\n" +
			"--XyZ\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n--XyZ--\r\n"
	}
	cases := []struct {
		name, ctype, body string
		keep              string // a part that must be kept, "" for none
	}{
		{"JSON", "application/json", `{"email":"qa@example.com","password":"hunter2"}`, `"email":"qa@example.com"`},
		{"JSON, nested and in arrays", "application/json", `{"a":[{"sessionToken":"tok-123"}],"b":{"apiKey":"key-456"}}`, `"a":[`},
		{"JSON with an escaped name", "application/json", `{"pass\u0077ord":"hunter2","email":"qa@example.com"}`, `"email":"qa@example.com"`},
		{"JSON sent as text/plain", "text/plain", `{"password":"hunter2"}`, ""},
		{"JSON with no type", "", `{"password":"hunter2"}`, ""},
		{"malformed JSON", "application/json", `{"email":"qa@example.com","password":"hunter2`, `qa@example.com`},
		{"malformed JSON with an escaped name", "application/json", `{"pass\u0077ord":"hunter2",`, ""},
		{"malformed JSON, a number", "application/json", `{"token": 123456, "apiKey": "key-456"`, ""},
		{"malformed JSON, escape in the value", "application/json", `{"password":"hun\"ter2\"hunter2`, ""},
		{"form", "application/x-www-form-urlencoded", "email=qa%40example.com&password=hunter2", "email=qa%40example.com"},
		{"form, mixed-case type", "Application/X-WWW-Form-Urlencoded", "email=qa%40example.com&password=hunter2", "email=qa%40example.com"},
		{"form, escaped name", "application/x-www-form-urlencoded", "email=qa%40example.com&pass%77ord=hunter2", "email=qa%40example.com"},
		{"form, semicolons", "application/x-www-form-urlencoded", "email=qa%40example.com;password=hunter2", "email=qa%40example.com"},
		{"form as text/plain", "text/plain", "email=qa%40example.com&password=hunter2", "email=qa%40example.com"},
		{"form with no type", "", "password=hunter2", ""},
		{"multipart", "multipart/form-data; boundary=XyZ", multipart("password", "hunter2"), "qa@example.com"},
		{"multipart, mixed-case type", "Multipart/Form-Data; boundary=XyZ", multipart("sessionToken", "tok-123"), "qa@example.com"},
		{"multipart cut short", "multipart/form-data; boundary=XyZ", strings.TrimSuffix(multipart("password", "hunter2"), "\r\n--XyZ--\r\n"), ""},
		{"text naming a secret", "text/plain", "my password is hunter2", ""},
		{"YAML", "application/yaml", "password: hunter2\nemail: qa@example.com", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := string(maskBody([]byte(tc.body), tc.ctype))
			wantMasked(t, "the body", got)
			if !strings.Contains(got, masked) {
				t.Errorf("the body %s carries no mask", got)
			}
			if tc.keep != "" && !strings.Contains(strings.ReplaceAll(got, `\"`, `"`), tc.keep) {
				t.Errorf("the body %s lost %q, which is no secret", got, tc.keep)
			}
		})
	}
	// What is no secret stays as it was, passwordLastChanged included.
	user := `{"id":1,"email":"qa@example.com","passwordLastChanged":"2026-01-01T00:00:00Z","password":null}`
	if got := string(maskBody([]byte(user), "application/json")); got != user {
		t.Errorf("a body without secrets became %s", got)
	}
}

func TestMaskQuery(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"sessionToken=tok-123&x=1":         "sessionToken=***&x=1",
		"a=1;sessionToken=tok-123":         "a=1;sessionToken=***",
		"a=1&session%54oken=tok-123":       "a=1&session%54oken=***",
		"SESSIONTOKEN=tok-123":             "SESSIONTOKEN=***",
		"api_key=key-456&password=hunter2": "api_key=***&password=***",
		"x=%zz&token%zz=tok-123":           "x=%zz&token%zz=***",
		"passwordLastChanged=2026":         "passwordLastChanged=2026",
	}
	for in, want := range cases {
		if got := maskQuery(in); got != want {
			t.Errorf("maskQuery(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMaskHeaders(t *testing.T) {
	t.Parallel()
	got := maskHeaders([]headerField{
		{"Authorization", "api-key key-456"},
		{"Authorization", "Bearer tok-123"},
		{"Proxy-Authorization", "Basic aHVudGVyMg=="},
		{"X-Api-Key", "key-456"},
		{"Session-Token", "tok-123"},
		{"Cookie", "sid=tok-123"},
		{"X-Auth-Token", "tok-123"},
		{"Content-Type", "application/json"},
	})
	want := map[string]string{
		"Authorization":       "api-key ***",
		"Proxy-Authorization": "Basic ***",
		"X-Api-Key":           masked,
		"Session-Token":       masked,
		"Cookie":              masked,
		"X-Auth-Token":        masked,
		"Content-Type":        "application/json",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("header %s = %q, want %q", k, got[k], v)
		}
	}
	// A scheme word that is no scheme may be the key itself.
	if got := maskHeaders([]headerField{{"Authorization", "key-456 extra"}}); got["Authorization"] != masked {
		t.Errorf("Authorization %q, want %q", got["Authorization"], masked)
	}
}
