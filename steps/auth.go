package steps

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"
)

// authSteps chooses who the scenario is and how it proves it, and logs in.
type authSteps struct{}

// Register adds the phrases:
//
//	Given I am account "A" using the api-key header
//	Given I am account "A" using the session-token header
//	Given I am account "A" using the sessionToken query
//	Given I am not authenticated
//	When I log in as account "A"
//	When I log in with email "<email>" and password "<password>"
func (a authSteps) Register(sc *godog.ScenarioContext) { registerDefs(sc, a.steps()) }

func (a authSteps) steps() []stepDef {
	return []stepDef{
		{`^I am account "([AB])" using the (api-key header|session-token header|sessionToken query)$`, a.iAmAccountUsing},
		{`^I am not authenticated$`, a.iAmNotAuthenticated},
		{`^I log in as account "([AB])"$`, a.iLogInAsAccount},
		{`^I log in with email "(.*)" and password "(.*)"$`, a.iLogInWithEmailAndPassword},
	}
}

type authScheme int

const (
	schemeNone authScheme = iota
	schemeAPIKey
	schemeSessionHeader
	schemeSessionQuery
)

func (a authSteps) iAmAccountUsing(ctx context.Context, acct, scheme string) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	switch scheme {
	case "api-key header":
		st.scheme = schemeAPIKey
	case "session-token header":
		st.scheme = schemeSessionHeader
	case "sessionToken query":
		st.scheme = schemeSessionQuery
	}
	st.account = acct
	if st.scheme == schemeAPIKey {
		return nil
	}
	_, err = st.session(ctx, acct)
	return err
}

func (authSteps) iAmNotAuthenticated(ctx context.Context) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	st.account, st.scheme = "", schemeNone
	return nil
}

func (authSteps) iLogInAsAccount(ctx context.Context, acct string) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	a := st.suite.account(acct)
	ex := st.postSession(ctx, a.email, a.password)
	st.record(ex)
	if ex.err != nil {
		return st.fail("logging in as account %s: %v", acct, ex.err)
	}
	if ex.status == http.StatusOK {
		st.learnSession(acct, ex)
	}
	return nil
}

func (authSteps) iLogInWithEmailAndPassword(ctx context.Context, email, password string) error {
	email, password = unescapeArg(email), unescapeArg(password)
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	if email, err = st.substText(ctx, email); err != nil {
		return err
	}
	if password, err = st.substText(ctx, password); err != nil {
		return err
	}
	st.addSecret(password)
	ex := st.postSession(ctx, email, password)
	st.record(ex)
	if ex.err != nil {
		return st.fail("logging in as %s: %v", email, ex.err)
	}
	if tok := gjson.GetBytes(ex.respBody, "token"); ex.status == http.StatusOK && tok.Type == gjson.String {
		st.addSecret(tok.Str)
	}
	return nil
}

// account is one of the profile's two accounts.
type account struct {
	name, email, password, apiKey string
	// Only for a restore without a snapshot: the phone's extension is
	// "null" for none.
	firstName, lastName, timezone               string
	phoneCountryID, phoneNumber, phoneExtension string
}

func (s *Suite) account(name string) account {
	p := s.profile
	if name == "B" {
		return account{"B", p.OtherEmail, p.OtherPassword, p.OtherAPIKey, p.OtherFirstName, p.OtherLastName, p.OtherTimezone,
			p.mustValue("other_phone_country_id"), p.mustValue("other_phone_number"), p.mustValue("other_phone_extension")}
	}
	return account{"A", p.Email, p.Password, p.APIKey, p.FirstName, p.LastName, p.Timezone,
		p.PhoneCountryID, p.mustValue("phone_number"), p.mustValue("phone_extension")}
}

// accountIDs are raw JSON (a number, or null for a user without a client).
type accountIDs struct{ userID, clientID string }

// postSession sends POST /sessions with the profile's login encoding.
func (st *scenarioState) postSession(ctx context.Context, email, password string) *exchange {
	out := outgoing{method: http.MethodPost, header: http.Header{}}
	out.url, _ = st.suite.endpointURL("/sessions", "") // the base URL was validated with the profile
	if st.suite.profile.LoginEncoding == "form" {
		out.header.Set("Content-Type", "application/x-www-form-urlencoded")
		out.body = []byte(url.Values{"email": {email}, "password": {password}}.Encode())
	} else {
		out.header.Set("Content-Type", "application/json")
		out.body = []byte(`{"email":` + jsonString(email) + `,"password":` + jsonString(password) + `}`)
	}
	return st.do(ctx, out)
}

// session returns the scenario's session token for the account, logging in
// the first time. One login per account and scenario at most.
func (st *scenarioState) session(ctx context.Context, acct string) (string, error) {
	if tok, ok := st.tokens[acct]; ok {
		return tok, nil
	}
	a := st.suite.account(acct)
	ex := st.postSession(ctx, a.email, a.password)
	if ex.err != nil {
		return "", fmt.Errorf("logging in as account %s: %w\n\n%s", acct, ex.err, st.dump(ex))
	}
	if ex.status != http.StatusOK {
		return "", fmt.Errorf("logging in as account %s: POST /sessions answered %d, want 200 (check the profile's credentials)\n\n%s", acct, ex.status, st.dump(ex))
	}
	tok := st.learnSession(acct, ex)
	if tok == "" {
		return "", fmt.Errorf("logging in as account %s: the session has no string token\n\n%s", acct, st.dump(ex))
	}
	return tok, nil
}

// learnSession keeps the token for this scenario and the ids for the run.
func (st *scenarioState) learnSession(acct string, ex *exchange) string {
	body := gjson.ParseBytes(ex.respBody)
	tok := body.Get("token")
	if tok.Type == gjson.String && tok.Str != "" {
		st.tokens[acct] = tok.Str
		st.addSecret(tok.Str)
	}
	user, client := body.Get("userId"), body.Get("clientId")
	if user.Type == gjson.Number && (client.Type == gjson.Number || client.Type == gjson.Null) {
		st.suite.idsMu.Lock()
		st.suite.ids[acct] = accountIDs{userID: user.Raw, clientID: client.Raw}
		st.suite.idsMu.Unlock()
	}
	return st.tokens[acct]
}

// accountIDs returns the ids of the account, learned once per run: ids do
// not change, so later scenarios need no login for them.
func (st *scenarioState) accountIDs(ctx context.Context, acct string) (accountIDs, error) {
	if ids, ok := st.suite.cachedIDs(acct); ok {
		return ids, nil
	}
	if _, err := st.session(ctx, acct); err != nil {
		return accountIDs{}, err
	}
	if ids, ok := st.suite.cachedIDs(acct); ok {
		return ids, nil
	}
	return accountIDs{}, fmt.Errorf("the session of account %s has no numeric userId and clientId", acct)
}

func (s *Suite) cachedIDs(acct string) (accountIDs, bool) {
	s.idsMu.Lock()
	defer s.idsMu.Unlock()
	ids, ok := s.ids[acct]
	return ids, ok
}

// authenticate adds the scenario's credentials to an outgoing request.
func (st *scenarioState) authenticate(ctx context.Context, out *outgoing) error {
	if st.account == "" || st.scheme == schemeNone {
		return nil
	}
	switch st.scheme {
	case schemeAPIKey:
		out.header.Set("Authorization", "api-key "+st.suite.account(st.account).apiKey)
	case schemeSessionHeader, schemeSessionQuery:
		tok, err := st.session(ctx, st.account)
		if err != nil {
			return err
		}
		if st.scheme == schemeSessionHeader {
			out.header.Set("session-token", tok)
		} else {
			out.query = append(out.query, [2]string{"sessionToken", tok})
		}
	}
	return nil
}

// Hooks and locks.

// restore is how the After hook puts an account back: the user, and the
// account's client when it could be read.
type restore struct {
	userID     string
	body       []byte // the PUT /users body
	clientID   string // "" when the client is not restored
	clientBody []byte // the PUT /clients body
}

var (
	mentionOf = map[string]*regexp.Regexp{
		"A": regexp.MustCompile(`account "A"|\{\{\s*A\.`),
		"B": regexp.MustCompile(`account "B"|\{\{\s*B\.`),
	}
	fixtureRef = regexp.MustCompile(`(template|shape) "([^"]+)"`)
)

// beforeScenario creates the scenario state, takes the account locks in the
// fixed order A, B, and snapshots the accounts the scenario mutates. It
// returns the context with the state even on error, so that the After hook
// can release what was taken.
func (s *Suite) beforeScenario(ctx context.Context, sc *godog.Scenario) (context.Context, error) {
	st := s.newState(sc)
	ctx = stateToContext(ctx, st)
	text := s.scenarioText(sc)
	for _, acct := range []string{"A", "B"} {
		lock := s.locks[acct]
		switch {
		case hasTag(sc, "@mutates-"+acct):
			lock.Lock()
			st.unlock = append(st.unlock, lock.Unlock)
			st.mutates = append(st.mutates, acct)
		case mentionOf[acct].MatchString(text):
			lock.RLock()
			st.unlock = append(st.unlock, lock.RUnlock)
		}
	}
	for _, acct := range st.mutates {
		r, err := st.snapshot(ctx, acct)
		if err != nil {
			return ctx, fmt.Errorf("snapshot of account %s before a @mutates-%s scenario: %w", acct, acct, err)
		}
		st.restores[acct] = r
	}
	return ctx, nil
}

// afterScenario fails a scenario one of whose requests earned a 5xx (the
// floor, floor.go), restores the mutated accounts, whatever the outcome,
// and then releases the locks. A failed restore fails the scenario.
func (s *Suite) afterScenario(ctx context.Context, _ *godog.Scenario, _ error) (context.Context, error) {
	st, err := stateFromContext(ctx)
	if err != nil || st.done {
		return ctx, nil
	}
	st.done = true
	errs := []error{st.serverErrors()} // before the restore: its requests are not the scenario's
	for _, acct := range st.mutates {
		r, ok := st.restores[acct]
		if !ok {
			continue
		}
		if err := st.restoreAccount(ctx, acct, r); err != nil {
			errs = append(errs, err)
		}
	}
	for i := len(st.unlock) - 1; i >= 0; i-- {
		st.unlock[i]()
	}
	st.unlock = nil
	return ctx, errors.Join(errs...)
}

func hasTag(sc *godog.Scenario, tag string) bool {
	for _, t := range sc.Tags {
		if t.Name == tag {
			return true
		}
	}
	return false
}

// scenarioText is every word of the scenario that may name an account: step
// texts, doc strings, table cells and the body templates and shapes they
// refer to.
func (s *Suite) scenarioText(sc *godog.Scenario) string {
	var b strings.Builder
	for _, step := range sc.Steps {
		b.WriteString(step.Text)
		b.WriteByte('\n')
		for _, m := range fixtureRef.FindAllStringSubmatch(step.Text, -1) {
			dir := "bodies"
			if m[1] == "shape" {
				dir = "shapes"
			}
			if data, err := s.fixture(dir, m[2]); err == nil {
				b.Write(data)
				b.WriteByte('\n')
			}
		}
		if step.Argument == nil {
			continue
		}
		if ds := step.Argument.DocString; ds != nil {
			b.WriteString(ds.Content)
			b.WriteByte('\n')
		}
		if dt := step.Argument.DataTable; dt != nil {
			for _, row := range dt.Rows {
				for _, c := range row.Cells {
					b.WriteString(c.Value)
					b.WriteByte('\n')
				}
			}
		}
	}
	return b.String()
}

// snapshot reads the account and its client with the account's api key.
// When the target does not answer GET /users/:id, the user is restored from
// the profile; when it does not answer GET /clients/:id, the client is not
// restored. Either way a notice says so, once per run and account.
func (st *scenarioState) snapshot(ctx context.Context, acct string) (restore, error) {
	a := st.suite.account(acct)
	ids, err := st.accountIDs(ctx, acct)
	if err != nil {
		return restore{}, err
	}
	r := restore{userID: ids.userID}
	ex := st.get(ctx, a, "/users/"+ids.userID)
	if ex.err != nil {
		return restore{}, fmt.Errorf("%w\n\n%s", ex.err, st.dump(ex))
	}
	user := gjson.ParseBytes(ex.respBody)
	if ex.status == http.StatusOK && user.IsObject() && user.Get("email").Exists() {
		r.body = restoreBody(user, a.password)
	} else {
		st.suite.notice("restore-"+acct,
			"GET /users/%s answered %d without a user object: after a @mutates-%s scenario account %s is restored from the profile "+
				"(email, password, firstName %q, lastName %q, timezone %q; subscribeWelcome, subscribeBlog, subscribeHowto and subscribeOnboarding false; "+
				"phone country %s, number %q, extension %s)",
			ids.userID, ex.status, acct, acct, a.firstName, a.lastName, a.timezone, a.phoneCountryID, a.phoneNumber, a.phoneExtensionJSON())
		r.body = profileRestoreBody(a)
	}
	if ids.clientID == "" || ids.clientID == "null" {
		return r, nil // no client to put back
	}
	ex = st.get(ctx, a, "/clients/"+ids.clientID)
	if ex.err != nil {
		return restore{}, fmt.Errorf("%w\n\n%s", ex.err, st.dump(ex))
	}
	client := gjson.ParseBytes(ex.respBody)
	if ex.status != http.StatusOK || !client.IsObject() || !client.Get("name").Exists() {
		st.suite.notice("restore-client-"+acct,
			"GET /clients/%s answered %d without a client object: after a @mutates-%s scenario the client of account %s is not restored",
			ids.clientID, ex.status, acct, acct)
		return r, nil
	}
	r.clientID, r.clientBody = ids.clientID, clientRestoreBody(client)
	return r, nil
}

// get reads a resource with the account's api key, outside the scenario's
// requests: it is neither the last response nor counted for coverage.
func (st *scenarioState) get(ctx context.Context, a account, path string) *exchange {
	out := outgoing{method: http.MethodGet, header: http.Header{}}
	out.url, _ = st.suite.endpointURL(path, "")
	out.header.Set("Authorization", "api-key "+a.apiKey)
	return st.do(ctx, out)
}

// jsonObject writes a JSON object from keys and raw JSON values, in order.
type jsonObject struct{ b strings.Builder }

func (o *jsonObject) add(key, raw string) {
	if o.b.Len() == 0 {
		o.b.WriteByte('{')
	} else {
		o.b.WriteByte(',')
	}
	o.b.WriteString(jsonString(key) + ":" + raw)
}

func (o *jsonObject) bytes() []byte {
	if o.b.Len() == 0 {
		return []byte("{}")
	}
	return []byte(o.b.String() + "}")
}

// restoreBody is the PUT /users body that writes the snapshot back: every
// field of the spec's body table, the phone fields when the target showed
// them, and the profile's password.
func restoreBody(user gjson.Result, password string) []byte {
	var o jsonObject
	for _, k := range []string{"email", "firstName", "lastName", "subscribeWelcome", "subscribeBlog",
		"subscribeHowto", "subscribeOnboarding", "timezone"} {
		if v := user.Get(k); v.Exists() {
			o.add(k, v.Raw)
		}
	}
	o.add("password", jsonString(password))
	if id := user.Get("phoneCountry.id"); id.Exists() {
		o.add("phoneCountry", `{"id":`+id.Raw+`}`)
	}
	for _, k := range []string{"phoneNumber", "phoneExtension"} {
		if v := user.Get(k); v.Exists() {
			o.add(k, v.Raw)
		}
	}
	return o.bytes()
}

// profileRestoreBody is the PUT /users body when there is no snapshot:
// every field of the spec's body table and the phone fields of 7.3, because
// a target may require them all, from the profile. The subscribe flags are
// not in the profile; false is the choice that sends no mail.
func profileRestoreBody(a account) []byte {
	var o jsonObject
	o.add("email", jsonString(a.email))
	o.add("firstName", jsonString(a.firstName))
	o.add("lastName", jsonString(a.lastName))
	for _, k := range []string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"} {
		o.add(k, "false")
	}
	o.add("timezone", jsonString(a.timezone))
	o.add("password", jsonString(a.password))
	o.add("phoneCountry", `{"id":`+numberOrText(a.phoneCountryID).jsonText()+`}`)
	o.add("phoneNumber", jsonString(a.phoneNumber))
	o.add("phoneExtension", a.phoneExtensionJSON())
	return o.bytes()
}

// phoneExtensionJSON is the extension as JSON: null for the profile's "null".
func (a account) phoneExtensionJSON() string {
	if a.phoneExtension == "null" {
		return "null"
	}
	return jsonString(a.phoneExtension)
}

// clientRestoreBody is the PUT /clients body that writes a client snapshot
// back: every field of the body table of POST /clients (4.4 takes the same
// fields), with the optional addressLine2 and vat left out when the client
// has none, and the terms accepted.
func clientRestoreBody(client gjson.Result) []byte {
	var o jsonObject
	for _, k := range []string{"name", "addressLine1", "addressLine2", "addressCity", "addressPostcode", "addressCountry", "vat"} {
		v := client.Get(k)
		optional := k == "addressLine2" || k == "vat"
		if !v.Exists() || (optional && v.Type == gjson.Null) {
			continue
		}
		o.add(k, v.Raw)
	}
	if id := client.Get("currency.id"); id.Exists() {
		o.add("currency", `{"id":`+id.Raw+`}`)
	}
	o.add("terms", jsonString("I agree"))
	return o.bytes()
}

// restoreTimeout bounds the restore of one account, retries included.
const restoreTimeout = time.Minute

// restoreAccount writes the user back and then the client, each attempted
// whatever became of the other.
func (st *scenarioState) restoreAccount(ctx context.Context, acct string, r restore) error {
	// A cancelled run (a test timeout, an interrupt) must still put a shared
	// account back, so the restore gets a context of its own.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), restoreTimeout)
	defer cancel()
	errs := []error{st.put(ctx, acct, "account "+acct, "/users/"+r.userID, r.body)}
	if r.clientID != "" {
		errs = append(errs, st.put(ctx, acct, "the client of account "+acct, "/clients/"+r.clientID, r.clientBody))
	}
	return errors.Join(errs...)
}

func (st *scenarioState) put(ctx context.Context, acct, what, path string, body []byte) error {
	out := outgoing{method: http.MethodPut, header: http.Header{}, body: body}
	out.url, _ = st.suite.endpointURL(path, "")
	out.header.Set("Authorization", "api-key "+st.suite.account(acct).apiKey)
	out.header.Set("Content-Type", "application/json")
	ex := st.do(ctx, out)
	if ex.err != nil {
		return fmt.Errorf("restoring %s: %w\n\n%s", what, ex.err, st.dump(ex))
	}
	if ex.status != http.StatusOK {
		return fmt.Errorf("restoring %s: PUT %s answered %d, want 200\n\n%s", what, path, ex.status, st.dump(ex))
	}
	return nil
}
