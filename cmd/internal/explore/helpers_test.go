package explore

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/steps"
)

// testWorld is a world as newWorld learns it from a default mock, made
// without a network: the mock's seed, accounts A (user 1, client 1) and B
// (user 2, client 2), every catalogue known.
func testWorld(t *testing.T, edit ...func(*steps.Profile)) *world {
	t.Helper()
	p := steps.ProfileFromEnv(func(string) string { return "" })
	p.BaseURL = "http://127.0.0.1:9/v1"
	for _, e := range edit {
		e(&p)
	}
	wd := &world{p: p, forms: []string{"v1", "v1.0"}, domain: "example.com", several: true, byHash: true,
		acct: map[string]*accountState{
			"A": {name: "A", email: p.Email, apiKey: p.APIKey, password: p.Password, userID: "1", clientID: "1", token: "token-of-a"},
			"B": {name: "B", email: p.OtherEmail, apiKey: p.OtherAPIKey, password: p.OtherPassword, userID: "2", clientID: "2", token: "token-of-b"},
		}}
	wd.skew = 2*60e9 + 2e9
	if err := wd.loadCatalogue(); err != nil {
		t.Fatal(err)
	}
	wd.cat.platforms = map[int64]string{1: "Android", 2: "iOS"}
	wd.cat.phoneCountries[1] = [2]string{"United Kingdom (+44)", "+44"}
	wd.cat.phoneCountries[2] = [2]string{"United States (+1)", "+1"}
	for _, name := range []string{"A", "B"} {
		wd.profileAccount(wd.acct[name])
	}
	return wd
}

// testSequence is a new sequence of a test world, the target's tokens those
// of the accounts.
func testSequence(t *testing.T, wd *world) *seqState {
	t.Helper()
	s, err := wd.newSequence()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testGenerator draws from a test world.
func testGenerator(wd *world, seed uint64) *generator {
	cells := wd.cells()
	return &generator{wd: wd, r: rand.New(rand.NewPCG(seed, 1)), coverage: newCoverage(cells), cells: cells, counter: &atomic.Int64{}}
}

// userStep is a PUT /users of account A on its own id with a valid body and
// the given mutations.
func userStep(s *seqState, muts ...Mutation) Step {
	return Step{Op: OpPutUser, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Path: "own", Base: userBody(s.user("A")), Muts: muts}
}

// clientStep is PUT /clients of account A's own client, its stored body
// with muts.
func clientStep(s *seqState, muts ...Mutation) Step {
	cl, _ := s.ref.Client(1)
	return Step{Op: OpPutClient, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Path: "own", Base: clientBody(cl), Muts: muts}
}

// appStep is POST /apps by account A with its api key: base with muts.
func appStep(base map[string]any, muts ...Mutation) Step {
	return Step{Op: OpPostApp, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: base, Muts: muts}
}

// appByNameBody is the body of an app made from a name and a platform, of
// no marketplace app.
func appByNameBody() map[string]any {
	return map[string]any{"name": "contract-app", "platform": map[string]any{"id": json.Number("1")}, "nextplan": map[string]any{"id": json.Number("1")}}
}

// noHashNorNameBody is the body of an app with an empty marketapp, a null
// name and a null platform: neither a hash nor a name.
func noHashNorNameBody() map[string]any {
	return map[string]any{"marketapp": map[string]any{}, "name": nil, "platform": map[string]any{"id": nil}, "nextplan": map[string]any{"id": json.Number("1")}}
}

// judgeFirst sends st as the first step of s and judges the answer got:
// the divergence, its key and its reason ("" where there is none).
func judgeFirst(wd *world, s *seqState, st Step, got wireAnswer) (d *divergence, key, reason string) {
	v := wd.verdictOf(s, st, st.Encode())
	s.steps = append(s.steps, st)
	d = judgement{wd: wd, k: newKnowledge(), s: s, i: 0, label: "1"}.judge(st, v, got)
	if d != nil {
		key, reason = d.key, d.reason
	}
	return d, key, reason
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonAnswer(status int, body string) wireAnswer {
	return wireAnswer{status: status, body: []byte(body), header: http.Header{"Content-Type": {"application/json; charset=utf-8"}}}
}

func parse(raw string) gjson.Result { return gjson.Parse(raw) }

// decodeBody decodes a body as a JSON object, numbers exact, the last of
// duplicate members: what the tests of the wire forms compare.
func decodeBody(raw string) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
	dec.UseNumber()
	var b map[string]any
	if err := dec.Decode(&b); err != nil || b == nil || dec.More() {
		return nil, false
	}
	return b, true
}
