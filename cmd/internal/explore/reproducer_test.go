package explore

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
)

// parseFeature reads a reproducer as godog does, and returns its steps'
// text.
func parseFeature(t *testing.T, text string) []string {
	t.Helper()
	opts := godog.Options{FS: fstest.MapFS{"r.feature": {Data: []byte(text)}}, Paths: []string{"r.feature"}, Format: "progress"}
	feats, err := (godog.TestSuite{Options: &opts}).RetrieveFeatures()
	if err != nil || len(feats) != 1 || len(feats[0].Pickles) != 1 {
		t.Fatalf("godog cannot read the reproducer (%v):\n%s", err, text)
	}
	var out []string
	for _, s := range feats[0].Pickles[0].Steps {
		out = append(out, s.Text)
	}
	return out
}

// A reproducer is a scenario godog reads, in the suite's phrases, that
// names the accounts' secrets by their placeholders, writes a string too
// long for a line by its length, and remembers each value a later line
// names.
func TestReproducer(t *testing.T) {
	wd := testWorld(t)
	made := Step{Op: OpPostClient, Actor: "A", Cred: Cred{Scheme: "session-token", Op: "as-specified"}, Base: map[string]any{"name": "c"},
		Sent: "/clients", GherkinPath: Lit("/clients"), Token: SessionVar("A")}
	put := Step{Op: OpPutClient, Actor: "A", Cred: Cred{Scheme: "api-key", Op: "secret-upper-case"}, Path: "created",
		Base: map[string]any{"name": "x", "terms": "I agree"}, Muts: []Mutation{{Field: "name", Op: "huge", Value: strings.Repeat("h", 100_000)}},
		Sent: "/clients/7", GherkinPath: Text{Before: "/clients/", Var: AnswerVar(0, "id")}, Token: SessionVar("A")}
	login := Step{Op: OpLogin, Actor: "A", Login: [2]string{"{{A.email}}", "{{A.password}}x"}, GherkinPath: Lit("/sessions")}
	seq := &sequence{steps: []Step{made, login, put}, reason: "PUT /clients: answered 200",
		div:   diverged(policy.CheckStatus, "status 200", "answered 200", expectStatuses([]int{400, 413}, false)),
		subst: map[string]string{wd.acct["A"].email: "{{A.email}}", wd.acct["A"].password: "{{A.password}}"}}
	text := seq.feature()
	got := parseFeature(t, text)
	want := []string{
		`I log in as account "A"`, `I remember the JSON at "token" as "tokenA0"`,
		`I log in as account "B"`, `I remember the JSON at "token" as "tokenB0"`,
		`I am not authenticated`, `the request header "session-token" is "{{tokenA0}}"`, `the request body is:`, `I send "POST" to "/clients"`,
		`I remember the JSON at "id" as "step1.id"`,
		`I am not authenticated`, `I log in with email "{{A.email}}" and password "{{A.password}}x"`,
		`I am not authenticated`, `the request header "Authorization" is "api-key {{upper:A.apiKey}}"`, `the request body is:`,
		`the request body field "name" is a string of 100000 characters`, `I send "PUT" to "/clients/{{step1.id}}"`,
		`the response status is 400 or 413`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s\n\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), text)
	}
	for _, l := range strings.Split(text, "\n") {
		if len(l) > longString+100 {
			t.Errorf("a line of %d characters", len(l))
		}
	}
	if strings.Contains(text, wd.acct["A"].password+`"`) {
		t.Error("the reproducer writes a password in clear")
	}
}

// A list that grew is read before the last step, its length remembered,
// and read again after it.
func TestReproducerOfAList(t *testing.T) {
	st := Step{Op: OpPostClient, Actor: "B", Cred: Cred{Scheme: "none"}, Base: map[string]any{"name": ""}, GherkinPath: Lit("/clients")}
	d := diverged(policy.CheckState, "clients grew", "clients lists a client no request made", expectValue(expectIs, "clients.#", Of(NamedVar("listedBefore"))))
	d.read = &stateRead{path: Text{Before: "/users/", Var: AccountVar("B", "userId"), After: "/clients"}, as: "B"}
	d.before = []remembered{{"clients.#", "listedBefore"}}
	got := parseFeature(t, (&sequence{steps: []Step{st}, div: d, reason: "r"}).feature())
	want := []string{
		`I am account "B" using the api-key header`, `I send "GET" to "/users/{{B.userId}}/clients" if the target has that read extension`,
		`the response status is 200`, `I remember the JSON at "clients.#" as "listedBefore"`,
		`I am not authenticated`, `the request body is:`, `I send "POST" to "/clients"`,
		`I am account "B" using the api-key header`, `I send "GET" to "/users/{{B.userId}}/clients" if the target has that read extension`,
		`the response status is 200`, `the JSON at "clients.#" is {{listedBefore}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Two credentials together are two lines, each naming its account's
// secret; the credential a login carries goes before the login.
func TestReproducerOfTwoCredentials(t *testing.T) {
	put := Step{Op: OpPutUser, Actor: "A", Cred: Cred{Scheme: "session-query", Op: credBesideOther}, Path: "own",
		Base: map[string]any{"firstName": "x"}, Sent: "/users/1", GherkinPath: Text{Before: "/users/", Var: AccountVar("A", "userId")}, Token: SessionVar("A"), OtherToken: SessionVar("B")}
	own := Step{Op: OpPlatforms, Actor: "B", Cred: Cred{Scheme: "api-key", Op: credBesideOwn}, GherkinPath: Of(NamedVar("platformsPath")), Token: SessionVar("B"), OtherToken: SessionVar("A")}
	login := Step{Op: OpLogin, Actor: "A", Cred: Cred{Scheme: "session-token", Op: credAtLogin.Name}, Login: [2]string{"{{A.email}}", "{{A.password}}"},
		GherkinPath: Lit("/sessions"), Token: SessionVar("A"), OtherToken: SessionVar("B")}
	seq := &sequence{steps: []Step{put, own, login}, reason: "r",
		div: diverged(policy.CheckStatus, "status 200", "answered 200", expectStatuses([]int{400, 401}, false))}
	got := parseFeature(t, seq.feature())
	want := []string{
		`I log in as account "A"`, `I remember the JSON at "token" as "tokenA0"`,
		`I log in as account "B"`, `I remember the JSON at "token" as "tokenB0"`,
		`I am not authenticated`, `the request query parameter "sessionToken" is "{{tokenA0}}"`, `the request header "Authorization" is "api-key {{B.apiKey}}"`,
		`the request body is:`, `I send "PUT" to "/users/{{A.userId}}"`,
		`I am not authenticated`, `the request header "Authorization" is "api-key {{B.apiKey}}"`, `the request header "session-token" is "{{tokenB0}}"`,
		`I send "GET" to "{{platformsPath}}"`,
		`I am not authenticated`, `the request header "session-token" is "{{tokenB0}}"`, `I log in with email "{{A.email}}" and password "{{A.password}}"`,
		`the response status is 400 or 401`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
