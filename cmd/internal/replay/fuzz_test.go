package replay

import (
	"strings"
	"testing"
)

// A recording is a file a user hands over, from any browser or mock, so no
// bytes may make the replay panic before it sends anything: they are read
// as a recording or refused with an error, and a recording read is planned
// onto the test pair or refused with an error.
func FuzzRecording(f *testing.F) {
	var parts []string
	for i, e := range []entry{
		loginOK("qa@example.com", 1),
		{"PUT", "/v1/users/1", token, 200, `{"email":"a@b.example","password":"***","phoneCountry":{"id":1071}}`, `{"id":1,"email":"a@b.example"}`},
		{"POST", "/v1/clients", masked, 200, `{"name":"c","currency":{"id":1015},"app":{"marketapp":{"hash":"13befaec5190d23ad60b8ee6553cdee83d5c0a16"}}}`, `{"id":9}`},
		{"PUT", "/v1/clients/9?sessionToken=***", nil, 403, `{"name":"d"}`, `[{"fieldName":"","error":"Forbidden"}]`},
		{"GET", "/v1/platforms", nil, 200, ``, `{"platforms":[]}`},
	} {
		parts = append(parts, e.json(i+1))
	}
	f.Add([]byte("[" + strings.Join(parts, ",") + "]"))
	f.Add([]byte(`{"entries":[` + strings.Join(parts[:2], ",") + `],"next":"?before=3"}`))
	f.Add([]byte(`{"log":{"version":"1.2","entries":[{"startedDateTime":"2026-11-26T10:00:00Z","request":{"method":"POST","url":"http://127.0.0.1:8080/v1/sessions",` +
		`"headers":[{"name":"Content-Type","value":"application/json"}],"postData":{"mimeType":"application/json","text":"{\"email\":\"qa@example.com\",\"password\":\"pw\"}"}},` +
		`"response":{"status":200,"headers":[],"content":{"mimeType":"application/json","text":"{\"userId\":1,\"clientId\":1,\"token\":\"t\"}"}}},` +
		`{"request":{"method":"GET","url":"http://cdn.example/app.js","headers":[]},"response":{"status":200,"content":{"mimeType":"text/javascript","text":""}}}]}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"log":{}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := Parse(b)
		if err != nil {
			return
		}
		pl, err := newPlan(rec, "", "/platforms")
		if err != nil {
			return
		}
		_ = pl.prepare(testPair, testKeys, testCatalogue, Config{Seed: 1}, func(string) bool { return false })
	})
}
