package steps

import (
	"context"
	"errors"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"
)

// testProfile is the mock's seed, the suite's defaults.
func testProfile(baseURL string) Profile {
	return Profile{
		BaseURL: baseURL,
		Email:   "qa@example.com", Password: "qa-password", APIKey: "qa-api-key",
		OtherEmail: "other@example.com", OtherPassword: "other-password", OtherAPIKey: "other-api-key",
		CurrencyID: "1", PlanID: "2", PlatformID: "1", PhoneCountryID: "3",
		MarketappHash: "fecaf482f29181490ae5ecfb2790186ce7f82078",
	}
}

// offlineState is a scenario state whose account ids are already known, so
// that substitution needs no server.
func offlineState(t *testing.T) *scenarioState {
	t.Helper()
	s := NewSuite(testProfile("http://127.0.0.1:1/v1"), Options{})
	pr := s.pool.pairs[0]
	pr.learn(0, accountIDs{userID: "1", clientID: "10"})
	pr.learn(1, accountIDs{userID: "2", clientID: "null"})
	st := s.newState(nil)
	st.pair, st.need = pr, need{sharedAccess, sharedAccess}
	st.vars["num"] = value{text: "42", json: true}
	st.vars["str"] = value{text: `"he said \"hi\""`, json: true}
	st.vars["obj"] = value{text: `{"a": [1, 2]}`, json: true}
	st.vars["text"] = value{text: `x"y`}
	return st
}

func TestSubstJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"id": "{{A.userId}}"}`, `{"id": 1}`},
		{`{"id": {{A.userId}}}`, `{"id": 1}`},
		{`{"id": "{{ B.clientId }}"}`, `{"id": null}`},
		{`{"currency": {"id": "{{currencyId}}"}, "plan": {{planId}}}`, `{"currency": {"id": 1}, "plan": 2}`},
		{`{"hash": "{{marketappHash}}"}`, `{"hash": "fecaf482f29181490ae5ecfb2790186ce7f82078"}`},
		{`{"email": "{{A.email}}"}`, `{"email": "qa@example.com"}`},
		{`{"n": "{{num}}", "s": "{{str}}", "o": "{{obj}}"}`, `{"n": 42, "s": "he said \"hi\"", "o": {"a": [1, 2]}}`},
		{`{"label": "user {{num}} of {{A.email}}"}`, `{"label": "user 42 of qa@example.com"}`},
		{`{"q": "say {{str}}"}`, `{"q": "say he said \"hi\""}`},
		{`{"t": "{{text}}", "u": "<{{text}}>"}`, `{"t": "x\"y", "u": "<x\"y>"}`},
		{`{"esc": "a\"{{num}}\"b"}`, `{"esc": "a\"42\"b"}`},
		{`{"not": "{ {num} }", "braces": "}}{{"}`, `{"not": "{ {num} }", "braces": "}}{{"}`},
		{`["{{num}}", "{{num}}x"]`, `[42, "42x"]`},
	}
	for _, tt := range tests {
		st := offlineState(t)
		got, err := st.substJSON(context.Background(), tt.in)
		if err != nil {
			t.Errorf("substJSON(%s): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("substJSON(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
		if !gjson.Valid(got) {
			t.Errorf("substJSON(%s) = %s is not JSON", tt.in, got)
		}
	}
}

func TestSubstText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/users/{{A.userId}}", "/users/1"},
		{"/clients/{{B.clientId}}", "/clients/null"},
		{"{{str}} and {{num}}", `he said "hi" and 42`},
		{"{{A.apiKey}}|{{B.password}}", "qa-api-key|other-password"},
		{"no placeholders", "no placeholders"},
	}
	for _, tt := range tests {
		got, err := offlineState(t).substText(context.Background(), tt.in)
		if err != nil || got != tt.want {
			t.Errorf("substText(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestUnknownVariableIsNamed(t *testing.T) {
	st := offlineState(t)
	for _, in := range []string{"{{nope}}", "{{A.nope}}", "{{gen:colour}}", "{{gen:string:x}}"} {
		if _, err := st.substText(context.Background(), "x "+in); err == nil || !strings.Contains(err.Error(), strings.Trim(in, "{}")) {
			t.Errorf("substText(%q): error %v, want one naming the variable", in, err)
		}
		if _, err := st.substJSON(context.Background(), `{"a": "`+in+`"}`); err == nil {
			t.Errorf("substJSON(%q): no error", in)
		}
	}
}

func TestRememberKeepsTheKind(t *testing.T) {
	st := offlineState(t)
	ctx := stateToContext(context.Background(), st)
	v := varSteps{}
	if err := v.iRemember(ctx, "{{A.userId}}", "uid"); err != nil {
		t.Fatal(err)
	}
	if err := v.iRemember(ctx, "user {{A.userId}}", "label"); err != nil {
		t.Fatal(err)
	}
	got, err := st.substJSON(ctx, `{"id": "{{uid}}", "label": "{{label}}"}`)
	if want := `{"id": 1, "label": "user 1"}`; err != nil || got != want {
		t.Errorf("got %s, %v; want %s", got, err, want)
	}
	if err := v.iRemember(ctx, "x", "bad name"); err == nil {
		t.Error("a name with a space was accepted")
	}
}

var (
	genStringRE = regexp.MustCompile(`^contract-[a-z0-9]*$`)
	labelRE     = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)
	localRE     = regexp.MustCompile(`^contract-[a-z0-9]+$`)
)

// checkEmail applies the rules of RFC 5321 that the generator promises, for
// an address at example.com (the default email domain) or below it.
func checkEmail(t *testing.T, e string) { checkEmailAt(t, e, "example.com") }

func checkEmailAt(t *testing.T, e, at string) {
	t.Helper()
	local, domain, ok := strings.Cut(e, "@")
	if !ok || strings.Contains(domain, "@") {
		t.Fatalf("%q: not one @", e)
	}
	if len(local) > 64 || !localRE.MatchString(local) {
		t.Errorf("%q: local part of %d characters %q", e, len(local), local)
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 || !strings.HasSuffix(domain, "."+at) && domain != at {
		t.Errorf("%q: domain %q", e, domain)
	}
	for _, l := range labels {
		if len(l) < 1 || len(l) > 63 || !labelRE.MatchString(l) {
			t.Errorf("%q: label %q of %d characters", e, l, len(l))
		}
	}
	if _, err := mail.ParseAddress(e); err != nil {
		t.Errorf("%q: net/mail: %v", e, err)
	}
}

func TestGeneratorLengths(t *testing.T) {
	st := offlineState(t)
	seen := map[string]bool{}
	unique := func(kind, s string) {
		if seen[s] {
			t.Errorf("%s generated %q twice", kind, s)
		}
		seen[s] = true
	}
	for n := 30; n <= 256; n++ {
		e, err := st.generate("email:" + strconv.Itoa(n))
		if err != nil {
			t.Fatalf("email:%d: %v", n, err)
		}
		if len(e) != n {
			t.Errorf("email:%d has %d characters: %q", n, len(e), e)
		}
		checkEmail(t, e)
		unique("email:N", e)

		s, err := st.generate("string:" + strconv.Itoa(n))
		if err != nil || len(s) != n || !genStringRE.MatchString(s) {
			t.Errorf("string:%d = %q, %v", n, s, err)
		}
		unique("string:N", s)
	}
	for _, n := range []int{0, 1, 5, 9, 10, 255, 256, 1000} {
		s, _ := st.generate("string:" + strconv.Itoa(n))
		if len(s) != n {
			t.Errorf("string:%d has %d characters", n, len(s))
		}
		h, _ := st.generate("hex:" + strconv.Itoa(n))
		if len(h) != n || strings.Trim(h, "0123456789abcdef") != "" {
			t.Errorf("hex:%d = %q", n, h)
		}
		p, _ := st.generate("password:" + strconv.Itoa(n))
		if len(p) != n {
			t.Errorf("password:%d has %d characters", n, len(p))
		}
	}
	if _, err := st.generate("email:21"); err == nil {
		t.Error("email:21 cannot carry the prefix and a domain but was generated")
	}
	if e, err := st.generate("email:22"); err != nil || len(e) != 22 {
		t.Errorf("email:22 = %q, %v", e, err)
	}
}

func TestGeneratorsAreUniqueAndRecognizable(t *testing.T) {
	st := offlineState(t)
	other := offlineState(t) // another scenario: its own random source
	checks := []struct {
		gen string
		re  *regexp.Regexp
	}{
		{"email", regexp.MustCompile(`^contract-[a-z0-9]{12}@example\.com$`)},
		{"name", regexp.MustCompile(`^contract-[a-z]+-[a-z]+-[0-9]{8}$`)},
		{"password", regexp.MustCompile(`^[A-Za-z0-9]{12}$`)},
		{"hex:40", regexp.MustCompile(`^[0-9a-f]{40}$`)},
	}
	for _, c := range checks {
		seen := map[string]bool{}
		for i := 0; i < 500; i++ {
			for _, s := range []*scenarioState{st, other} {
				v, err := s.generate(c.gen)
				if err != nil || !c.re.MatchString(v) {
					t.Fatalf("gen:%s = %q, %v", c.gen, v, err)
				}
				if seen[v] {
					t.Fatalf("gen:%s repeated %q", c.gen, v)
				}
				seen[v] = true
			}
		}
	}
	e, _ := st.generate("email")
	checkEmail(t, e)
	// Each occurrence of a generator in one text is a fresh value.
	got, err := st.substText(context.Background(), "{{gen:email}} {{gen:email}}")
	if a, b, _ := strings.Cut(got, " "); err != nil || a == b {
		t.Errorf("two occurrences gave %q, %v", got, err)
	}
}

// TestEmailDomainFromTheProfile: generated addresses end in the profile's
// domain, at every length the limit scenarios use, and the shortest
// possible length follows the domain.
func TestEmailDomainFromTheProfile(t *testing.T) {
	p := testProfile("http://127.0.0.1:1/v1")
	p.EmailDomain = "qa.pricing-test.net"
	st := NewSuite(p, Options{}).newState(nil)
	e, err := st.generate("email")
	if err != nil || !regexp.MustCompile(`^contract-[a-z0-9]{12}@qa\.pricing-test\.net$`).MatchString(e) {
		t.Errorf("gen:email = %q, %v", e, err)
	}
	for _, n := range []int{254, 255, 256} {
		e, err := st.generate("email:" + strconv.Itoa(n))
		if err != nil || len(e) != n {
			t.Fatalf("email:%d = %q (%d), %v", n, e, len(e), err)
		}
		checkEmailAt(t, e, "qa.pricing-test.net")
	}
	shortest := len("contract-x@qa.pricing-test.net")
	if _, err := st.generate("email:" + strconv.Itoa(shortest-1)); err == nil {
		t.Errorf("email:%d has no room for the domain but was generated", shortest-1)
	}
	if e, err := st.generate("email:" + strconv.Itoa(shortest)); err != nil || len(e) != shortest {
		t.Errorf("email:%d = %q, %v", shortest, e, err)
	}
}

// TestProfileVariables: the profile values the features use, with the
// defaults (the mock's) for a profile that leaves them empty.
func TestProfileVariables(t *testing.T) {
	checkSubstJSON(t, []substCase{
		{"defaults", func(*Profile) {},
			`{"d": "{{emailDomain}}", "n": "{{phoneNumber}}", "x": "{{phoneExtension}}", "p": "{{platformsPath}}"}`,
			`{"d": "example.com", "n": "7700900123", "x": null, "p": "/platforms"}`},
		{"an extension is a string", func(p *Profile) { p.PhoneExtension = "42" },
			`{"x": "{{phoneExtension}}"}`, `{"x": "42"}`},
		{"the address", func(p *Profile) { p.AddressCountry, p.VAT = "DE", "DE123456789" },
			`["{{addressLine1}}", "{{addressLine2}}", "{{addressCity}}", "{{addressPostcode}}", "{{addressCountry}}", "{{vat}}"]`,
			`["1 Contract Street", "Floor 2", "London", "EC1A 1BB", "DE", "DE123456789"]`},
		{"a platforms path", func(p *Profile) { p.PlatformsPath = "/catalogue/platforms" },
			`{"p": "{{platformsPath}}"}`, `{"p": "/catalogue/platforms"}`},
	})
}

// substCase is a profile's edit, a text with placeholders and the JSON
// substJSON makes of it on a state of that profile.
type substCase struct {
	name string
	edit func(*Profile)
	in   string
	want string
}

// checkSubstJSON runs each case as a subtest.
func checkSubstJSON(t *testing.T, tests []substCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := testProfile("http://127.0.0.1:1/v1")
			tt.edit(&p)
			st := NewSuite(p, Options{}).newState(nil)
			got, err := st.substJSON(context.Background(), tt.in)
			if err != nil || got != tt.want {
				t.Errorf("substJSON(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
			}
		})
	}
}

// TestProfileHolds: the conditions of the when column.
func TestProfileHolds(t *testing.T) {
	p := testProfile("http://127.0.0.1:1/v1")
	p.ClientsPerUser = "one"
	tests := []struct {
		cond    string
		want    bool
		wantErr string
	}{
		{"", true, ""},
		{"clients_per_user=one", true, ""},
		{" clients_per_user = one ", true, ""},
		{"clients_per_user=several", false, ""},
		{"apps_per_marketapp=several", true, ""}, // empty: the default
		{"login_encoding=form", false, ""},
		{"clients_per_user", false, "not key=value"},
		{"=one", false, "not key=value"},
		{"client_per_user=one", false, `unknown profile key "client_per_user"`},
	}
	for _, tt := range tests {
		got, err := p.Holds(tt.cond)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("holds(%q) = %v, %v; want an error containing %q", tt.cond, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("holds(%q) = %v, %v; want %v", tt.cond, got, err, tt.want)
		}
	}
}

// TestProfileValuePrecondition: the step passes when the profile holds the
// value, skips (godog.ErrSkip) when it does not, and fails on an unknown key.
func TestProfileValuePrecondition(t *testing.T) {
	p := testProfile("http://127.0.0.1:1/v1")
	p.AppsPerMarketapp = "one"
	st := NewSuite(p, Options{}).newState(nil)
	ctx := stateToContext(context.Background(), st)
	tests := []struct {
		key, verb, value string
		want             string // "", "skip" or an error's text
	}{
		{"apps_per_marketapp", "is", "one", ""},
		{"apps_per_marketapp", "is", "several", "skip"},
		{"clients_per_user", "is", "several", ""}, // empty: the default
		{"version_forms", "includes", "v1.0", ""},
		{"version_forms", "includes", "v1", ""},
		{"version_forms", "includes", "v1.", "skip"},
		{"version_forms", "is", "v1", "skip"},
		{"no_such_key", "is", "x", `unknown profile key "no_such_key"`},
	}
	for _, tt := range tests {
		err := varSteps{}.theProfileValue(ctx, tt.key, tt.verb, tt.value)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s %s %s: %v", tt.key, tt.verb, tt.value, err)
		case tt.want == "skip" && !errors.Is(err, godog.ErrSkip):
			t.Errorf("%s %s %s: %v, want a skip", tt.key, tt.verb, tt.value, err)
		case tt.want != "" && tt.want != "skip" && (err == nil || errors.Is(err, godog.ErrSkip) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s %s %s: %v, want an error containing %q", tt.key, tt.verb, tt.value, err, tt.want)
		}
	}
}
