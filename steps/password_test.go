package steps

import (
	"encoding/hex"
	"strings"
	"testing"
)

// TestPasswordIn: spec 2.1's "The password is never returned", looked for in
// every string of an answer, in clear and in the forms a leak takes.
func TestPasswordIn(t *testing.T) {
	const pw = "Secret123xyz"
	tests := []struct {
		name, body string
		leaks      bool
	}{
		{"a user without it", `{"id":1,"email":"a@example.com","passwordLastChanged":"2026-01-02T15:04:05Z"}`, false},
		{"a session without it", `{"id":3,"token":"0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"}`, false},
		{"an error without it", `[{"fieldName":"password","error":"InvalidPassword","message":"password must be at least 6 characters long."}]`, false},
		{"in clear", `{"id":1,"password":"` + pw + `"}`, true},
		{"under another key", `{"id":1,"pwd":"` + pw + `"}`, true},
		{"in a message", `[{"fieldName":"password","error":"InvalidPassword","message":"'` + pw + `' is too weak"}]`, true},
		{"deep in an array", `{"users":[{"id":1},{"secrets":["x","` + pw + `"]}]}`, true},
		{"as a key", `{"` + pw + `":true}`, true},
		{"a bcrypt hash", `{"id":1,"passwordHash":"$2y$10$abcdefghijklmnopqrstuu5bKzPZJ0fE3m6M1qWx8vFq2m0y1cGvW"}`, true},
		{"an argon2 hash", `{"hash":"$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"}`, true},
		{"a django pbkdf2 hash", `{"hash":"pbkdf2_sha256$600000$salt$hash="}`, true},
		{"its sha-256", `{"check":"` + hex.EncodeToString(sha256sum(pw)) + `"}`, true},
		{"its md5 in upper case", `{"check":"` + strings.ToUpper(hex.EncodeToString(md5sum(pw))) + `"}`, true},
		{"not JSON", `password=` + pw, true},
		{"not JSON without it", `<html>error</html>`, false},
	}
	for _, tt := range tests {
		if where := passwordIn([]byte(tt.body), pw); (where != "") != tt.leaks {
			t.Errorf("%s: passwordIn = %q, want a leak: %v", tt.name, where, tt.leaks)
		}
	}

	// A password that is part of a value the request sent (or of the
	// account's email) is not returned when that value is echoed; anywhere
	// else it is.
	const short = "contract"
	sent := sentStrings([]byte(`{"email":"contract-qa@example.com","password":"contract","client":{"name":"contract-client"}}`))
	for _, tt := range []struct {
		body  string
		leaks bool
	}{
		{`{"id":1,"email":"contract-qa@example.com"}`, false},
		{`{"id":1,"clients":[{"name":"contract-client"}]}`, false},
		{`{"id":1,"note":"contract"}`, true},
		{`{"id":1,"email":"contract-qa@example.com","hint":"your password is contract"}`, true},
	} {
		if where := passwordIn([]byte(tt.body), short, sent...); (where != "") != tt.leaks {
			t.Errorf("%s with %q sent: passwordIn = %q, want a leak: %v", tt.body, sent, where, tt.leaks)
		}
	}
}
