package match

import (
	"encoding/base64"
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
		{"a bcrypt $2a$ hash", `{"h":"$2a$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"}`, true},
		{"a bcrypt $2b$ hash", `{"h":"$2b$04$abcdefghijklmnopqrstuu5bKzPZJ0fE3m6M1qWx8vFq2m0y1cGvW"}`, true},
		{"an scrypt hash", `{"h":"$scrypt$ln=16,r=8,p=1$c2FsdA$aGFzaA"}`, true},
		{"a passlib pbkdf2 hash", `{"h":"$pbkdf2-sha256$29000$N2bMOQdA6H0PIQ$cBC9DPdx0kMQE4Bl5L3Nq8lmq3a4"}`, true},
		{"a werkzeug pbkdf2 hash", `{"h":"pbkdf2:sha256:600000$salt$0123abcd"}`, true},
		{"a SHA-512 crypt", `{"h":"$6$rounds=5000$saltsalt$` + strings.Repeat("aB1/", 21) + `xy"}`, true},
		{"a SHA-256 crypt", `{"h":"$5$saltsalt$` + strings.Repeat("aB1.", 10) + `xyz"}`, true},
		{"an MD5 crypt", `{"h":"$1$saltsalt$qjXMvbEw8oaL.CzflDugX/"}`, true},
		{"an LDAP SSHA", `{"h":"{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g="}`, true},
		{"its sha-512 in upper case", `{"check":"` + strings.ToUpper(hex.EncodeToString(sha512sum(pw))) + `"}`, true},
		{"its sha-1 in base64 without padding", `{"check":"` + base64.RawStdEncoding.EncodeToString(sha1sum(pw)) + `"}`, true},
		{"a write key is no hash", `{"writeKey":"3f7a9c2e5b1d4f6a8c0e2b4d6f8a0c1e"}`, false},
		{"a salted hash named for it", `{"id":1,"passwordHash":"9b74c9897bac770ffc029102a200c5de3f1a8b2c"}`, true},
		{"a salt named for it", `{"id":1,"password_salt":"c2FsdHNhbHQ="}`, true},
		{"a flag named for it", `{"id":1,"passwordSet":true}`, false},
		{"the date of its change", `{"id":1,"passwordLastChanged":"2026-01-02T15:04:05Z"}`, false},
		{"a price in dollars is no crypt", `{"note":"$5 a month"}`, false},
		{"not JSON", `password=` + pw, true},
		{"not JSON without it", `<html>error</html>`, false},
	}
	for _, tt := range tests {
		if where := PasswordIn([]byte(tt.body), pw); (where != "") != tt.leaks {
			t.Errorf("%s: passwordIn = %q, want a leak: %v", tt.name, where, tt.leaks)
		}
	}

	// A password that is part of a value the request sent (or of the
	// account's email) is not returned when that value is echoed; anywhere
	// else it is.
	const short = "contract"
	sent := SentStrings([]byte(`{"email":"contract-qa@example.com","password":"contract","client":{"name":"contract-client"}}`))
	for _, tt := range []struct {
		body  string
		leaks bool
	}{
		{`{"id":1,"email":"contract-qa@example.com"}`, false},
		{`{"id":1,"clients":[{"name":"contract-client"}]}`, false},
		{`{"id":1,"note":"contract"}`, true},
		{`{"id":1,"email":"contract-qa@example.com","hint":"your password is contract"}`, true},
	} {
		if where := PasswordIn([]byte(tt.body), short, sent...); (where != "") != tt.leaks {
			t.Errorf("%s with %q sent: passwordIn = %q, want a leak: %v", tt.body, sent, where, tt.leaks)
		}
	}
}
