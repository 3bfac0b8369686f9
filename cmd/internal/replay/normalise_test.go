package replay

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
)

// testPair and testCatalogue are a target's as the tests see it: the
// default mock's accounts and catalogues.
var (
	testPair = []explore.Account{
		{Name: "A", Email: "qa@example.com", UserID: "1", ClientID: "1"},
		{Name: "B", Email: "other@example.com", UserID: "2", ClientID: "2"},
	}
	testKeys      = map[string]string{"A": "qa-api-key", "B": "other-api-key"}
	testCatalogue = explore.Catalogue{
		IDs: map[string][]int64{"currencies": {1, 2, 3}, "plans": {1, 2, 3}, "platforms": {1, 2}, "phoneCountries": {1, 2}},
		Default: map[string]map[string]int64{"currencies": {"A": 1, "B": 1}, "plans": {"A": 1, "B": 1},
			"platforms": {"A": 1, "B": 1}, "phoneCountries": {"A": 1, "B": 2}},
		Hash: "fecaf482f29181490ae5ecfb2790186ce7f82078", SeveralClients: true, SeveralApps: true,
		EmailDomain: "example.com", PlatformsPath: "/platforms",
	}
)

// entry is a journal entry: method, path, headers, status, bodies.
type entry struct {
	method, path string
	header       map[string]string
	status       int
	body, answer string
}

func (e entry) json(id int) string {
	h, _ := json.Marshal(e.header)
	body, answer := e.body, e.answer
	if body == "" {
		body = "null"
	}
	if answer == "" {
		answer = "null"
	}
	return fmt.Sprintf(`{"id":%d,"method":%q,"path":%q,"query":"","headers":%s,"status":%d,"requestBody":%s,"responseBody":%s}`, id, e.method, e.path, h, e.status, body, answer)
}

// planned reads a journal of entries and prepares it for the test pair.
func planned(t *testing.T, given map[string]string, entries ...entry) *plan {
	t.Helper()
	var parts []string
	for i, e := range entries {
		parts = append(parts, e.json(i+1))
	}
	rec, err := Parse([]byte("[" + strings.Join(parts, ",") + "]"))
	if err != nil {
		t.Fatal(err)
	}
	pl, err := newPlan(rec, "", "/platforms")
	if err != nil {
		t.Fatal(err)
	}
	if err := pl.prepare(testPair, testKeys, testCatalogue, Config{Seed: 1, Accounts: given}, func(string) bool { return false }); err != nil {
		t.Fatal(err)
	}
	return pl
}

var (
	masked  = map[string]string{"Authorization": "api-key ***"}
	token   = map[string]string{"Session-Token": "***"}
	loginOK = func(email string, user int) entry {
		return entry{"POST", "/v1/sessions", nil, 200, `{"email":"` + email + `","password":"***"}`,
			fmt.Sprintf(`{"userId":%d,"clientId":%d,"token":"***"}`, user, user)}
	}
)

// The accounts of a recording: by the profile's email first, whatever the
// order; then in the order of first use; a third has no place; a masked
// credential before anything names its account cannot be mapped.
func TestAccountsMapping(t *testing.T) {
	pl := planned(t, nil,
		entry{"POST", "/v1/apps", masked, 200, `{"name":"x"}`, `{"id":1}`},
		loginOK("someone@example.com", 7),
		loginOK("qa@example.com", 8),
		entry{"PUT", "/v1/users/8", token, 200, `{"firstName":"Q"}`, `{"id":8,"email":"qa@example.com"}`},
		loginOK("third@example.com", 9),
		entry{"POST", "/v1/clients", token, 200, `{"name":"c"}`, `{"id":5}`},
		entry{"PUT", "/v1/users/7", masked, 200, `{"firstName":"S"}`, `{"id":7,"email":"someone@example.com"}`},
	)
	got := map[int]string{}
	for _, c := range pl.calls {
		got[c.req.N] = c.actor + "|" + c.skip
	}
	want := map[int]string{
		1: "|its account cannot be known: a masked credential before any login or request that names its user",
		2: "B|", 3: "A|", 4: "A|",
		5: "|a third account of the recording (the recorded account third@example.com, user 9): the replay maps two accounts onto A and B",
		6: "|a third account of the recording (the recorded account third@example.com, user 9): the replay maps two accounts onto A and B",
		7: "B|",
	}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("request %d: %q, want %q", n, got[n], w)
		}
	}
	// --account puts the profile's own email onto B.
	pl = planned(t, map[string]string{"qa@example.com": "B"}, loginOK("someone@example.com", 7), loginOK("qa@example.com", 8))
	if a, b := pl.calls[0].actor, pl.calls[1].actor; a != "A" || b != "B" {
		t.Errorf("with --account qa@example.com=B: %s, %s; want A, B", a, b)
	}
}

// A login's credentials: the account's own (its placeholders) where the
// recorded server opened a session, a wrong password of the recorded
// length where it did not, the password a recorded change set afterwards.
func TestLogins(t *testing.T) {
	pl := planned(t, nil,
		loginOK("QA@example.com", 1),
		entry{"POST", "/v1/sessions", nil, 401, `{"email":"qa@example.com","password":"***"}`, `[]`},
		entry{"PUT", "/v1/users/1", token, 200, `{"password":"***","email":"qa@example.com"}`, `{"id":1,"email":"qa@example.com"}`},
		loginOK("qa@example.com", 1),
		entry{"POST", "/v1/sessions", nil, 400, `{"email":"qa@example.com","password":"***"}`, `[]`},
		entry{"POST", "/v1/sessions", nil, 401, `{"email":"nobody@elsewhere.test","password":"***"}`, `[]`},
	)
	steps := map[int]explore.Step{}
	for _, c := range pl.calls {
		steps[c.req.N] = c.step
	}
	if l := steps[1].Login; l != [2]string{"{{A.email}}", "{{A.password}}"} {
		t.Errorf("a login answered 200 sends %v", l)
	}
	if l := steps[2].Login; l[0] != "{{A.email}}" || len(l[1]) != 14 || strings.Contains(l[1], "{{") {
		t.Errorf("a login answered 401 sends %v: want a wrong password", l)
	}
	changed, _ := steps[3].Base["password"].(string)
	if len(changed) != 12 {
		t.Errorf("a masked password change sends %q: want one of 12 characters the replay made", changed)
	}
	if l := steps[4].Login; l != [2]string{"{{A.email}}", changed} {
		t.Errorf("a login after the change sends %v, want the password the change set", l)
	}
	if deps := pl.calls[3].deps; len(deps) != 1 || deps[0].req.N != 3 {
		t.Errorf("the login after the change relies on %v, want request 3", deps)
	}
	if l := steps[5].Login; l[1] != "" {
		t.Errorf("a login the recorded server refused as missing its password sends %q", l[1])
	}
	if l := steps[6].Login; !strings.HasPrefix(l[0], "replay-") || !strings.HasSuffix(l[0], "-nobody@example.com") {
		t.Errorf("an unknown email is sent as %q: want a fresh address at the profile's domain", l[0])
	}
}

// A body's values: a password the replay makes of the recorded length (a
// letter outside ASCII kept as such), a new address at the profile's
// domain, a catalogue id the target lacks and a hash it does not know
// mapped onto the profile's where the recorded server accepted them,
// another secret field masked.
// Two currencies the target lacks are sent as two of its own, each the
// same wherever the recording repeats it: a client whose currency changed
// is sent changing it. A plan is always the profile's.
func TestCatalogueIDsStayDistinct(t *testing.T) {
	pl := planned(t, nil,
		loginOK("qa@example.com", 1),
		entry{"POST", "/v1/clients", token, 200, `{"name":"c","currency":{"id":1015}}`, `{"id":9}`},
		entry{"PUT", "/v1/clients/9", token, 200, `{"name":"c","currency":{"id":1022}}`, `{"id":9}`},
		entry{"PUT", "/v1/clients/9", token, 200, `{"name":"c","currency":{"id":1015}}`, `{"id":9}`},
		entry{"POST", "/v1/apps", token, 200, `{"name":"a","platform":{"id":1},"nextplan":{"id":1050}}`, `{"id":3}`},
		entry{"POST", "/v1/apps", token, 200, `{"name":"b","platform":{"id":1},"nextplan":{"id":1057}}`, `{"id":4}`},
	)
	id := func(i int, obj string) string {
		return fmt.Sprint(pl.calls[i].step.Base[obj].(map[string]any)["id"])
	}
	if got := []string{id(1, "currency"), id(2, "currency"), id(3, "currency")}; strings.Join(got, " ") != "1 2 1" {
		t.Errorf("currencies 1015, 1022, 1015 are sent as %v, want 1 2 1 (the profile's first)", got)
	}
	if got := []string{id(4, "nextplan"), id(5, "nextplan")}; strings.Join(got, " ") != "1 1" {
		t.Errorf("plans 1050, 1057 are sent as %v, want the profile's 1 both times", got)
	}
}

func TestBodies(t *testing.T) {
	pl := planned(t, nil,
		loginOK("qa@example.com", 1),
		entry{"PUT", "/v1/users/1", token, 200, `{"email":"new.me+x@corp.example","password":"pässwörd","phoneCountry":{"id":1071},"apiKey":"k"}`, `{"id":1,"email":"new.me+x@corp.example"}`},
		entry{"PUT", "/v1/users/1", token, 400, `{"password":"***"}`, `[{"fieldName":"password","error":"InvalidPassword","message":"short"}]`},
		entry{"POST", "/v1/clients", token, 200, `{"name":"c","currency":{"id":1015},"app":{"marketapp":{"hash":"13befaec5190d23ad60b8ee6553cdee83d5c0a16"},"nextplan":{"id":2}}}`, `{"id":9}`},
		entry{"POST", "/v1/clients", token, 400, `{"name":"c","currency":{"id":1015}}`, `[]`},
		entry{"PUT", "/v1/clients/9", token, 200, `{"name":"d"}`, `{"id":9}`},
	)
	b := pl.calls[1].step.Base
	pw, _ := b["password"].(string)
	if r := []rune(pw); len(r) != 8 || r[1] != 'é' || r[5] != 'é' || pw == "pässwörd" {
		t.Errorf("a password of 8 characters, two of two bytes, is sent as %q", pw)
	}
	if e, _ := b["email"].(string); !strings.HasPrefix(e, "replay-") || !strings.HasSuffix(e, "-new.me+x@example.com") {
		t.Errorf("a new address is sent as %q", e)
	}
	if id := b["phoneCountry"].(map[string]any)["id"]; fmt.Sprint(id) != "1" {
		t.Errorf("an accepted phone country the target lacks is sent as %v, want the profile's 1", id)
	}
	if k := b["apiKey"]; k != maskedSecret {
		t.Errorf("a secret field is sent as %v", k)
	}
	if pw, _ := pl.calls[2].step.Base["password"].(string); len(pw) != 5 {
		t.Errorf("a masked password the recorded server refused is sent as %q: want 5 characters", pw)
	}
	c := pl.calls[3].step.Base
	if id := c["currency"].(map[string]any)["id"]; fmt.Sprint(id) != "1" {
		t.Errorf("an accepted currency the target lacks is sent as %v", id)
	}
	app := c["app"].(map[string]any)
	if h := app["marketapp"].(map[string]any)["hash"]; h != testCatalogue.Hash {
		t.Errorf("an accepted hash the target does not know is sent as %v", h)
	}
	if id := app["nextplan"].(map[string]any)["id"]; fmt.Sprint(id) != "2" {
		t.Errorf("a plan the target has is sent as %v", id)
	}
	if id := pl.calls[4].step.Base["currency"].(map[string]any)["id"]; fmt.Sprint(id) != "1015" {
		t.Errorf("a currency the recorded server refused is sent as %v: want it as recorded", id)
	}
	if st := pl.calls[5].step; st.Path != "created" || st.PathID != pl.calls[3].label || pl.calls[5].made != pl.calls[3].label {
		t.Errorf("the client request 4 made is named by path %q %q", st.Path, st.PathID)
	}
}

// Ids in paths: the account's own, the other's, one the recorded server
// refused as another's (403: the other account stands for it), one it
// did not find (the explorer's unknown id), one that is no id.
func TestPaths(t *testing.T) {
	pl := planned(t, nil,
		loginOK("qa@example.com", 1),
		loginOK("other@example.com", 2),
		entry{"PUT", "/v1/users/1", token, 403, `{}`, `[]`},
		entry{"PUT", "/v1/users/2", token, 200, `{}`, `{"id":2}`},
		entry{"PUT", "/v1/clients/44", token, 403, `{}`, `[]`},
		entry{"PUT", "/v1/users/45", token, 404, `{}`, `[]`},
		entry{"PUT", "/v1/users/abc", token, 404, `{}`, `[]`},
		entry{"PUT", "/v1/clients/1", masked, 401, `{}`, `[]`},
	)
	var got []string
	for _, c := range pl.calls[2:] {
		got = append(got, c.step.Actor+" "+c.step.Path+" "+c.step.PathID+" "+c.step.Cred.Op)
	}
	want := []string{"B other  as-specified", "B own  as-specified", "B other  as-specified", "B unknown 999999999 as-specified", "B letters abc as-specified", "B other  wrong-secret"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("paths:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The recording's secrets are found wherever they are, and redacted in
// clear and as a query escapes them.
func TestSecrets(t *testing.T) {
	har := `{"log":{"entries":[
	  {"startedDateTime":"2026-01-01T00:00:01Z","request":{"method":"POST","url":"http://h/v1/sessions?sessionToken=tok%2Bquery1","headers":[{"name":"Cookie","value":"sid=cookie-secret-1; theme=dark"},{"name":"X-Api-Key","value":"header-secret-1"}],
	   "postData":{"mimeType":"application/json","text":"{\"email\":\"a@b.c\",\"password\":\"body-secret-1\"}"}},
	   "response":{"status":200,"content":{"text":"{\"token\":\"answer-secret-1\",\"app\":{\"writeKey\":\"write-secret-1\"}}"}}},
	  {"startedDateTime":"2026-01-01T00:00:02Z","request":{"method":"PUT","url":"http://h/v1/users/1","headers":[{"name":"Authorization","value":"api-key auth-secret-1"}]},"response":{"status":200}}]}}`
	rec, err := Parse([]byte(har))
	if err != nil {
		t.Fatal(err)
	}
	ss := collectSecrets(rec)
	for _, want := range []string{"tok+query1", "cookie-secret-1", "header-secret-1", "body-secret-1", "answer-secret-1", "write-secret-1", "auth-secret-1"} {
		if !ss.has(want) {
			t.Errorf("the secret %q is not found (%d found)", want, len(ss))
		}
		text := ss.redact("before " + want + " and " + strings.ReplaceAll(want, "+", "%2B") + " after")
		if strings.Contains(text, want) || strings.Contains(text, strings.ReplaceAll(want, "+", "%2B")) {
			t.Errorf("redact leaves %q: %s", want, text)
		}
	}
	if ss.has("dark") || ss.has("a@b.c") {
		t.Error("a value that is no secret is taken for one")
	}
}
