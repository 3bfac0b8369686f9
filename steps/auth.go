package steps

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/steps/match"
)

// authSteps chooses who the scenario is and how it proves it, and logs in.
type authSteps struct{}

// steps are the phrases:
//
//	Given I am account "A" using the api-key header
//	Given I am account "A" using the session-token header
//	Given I am account "A" using the sessionToken query
//	Given I am account "A" using the api-key header with its last character changed
//	Given I am not authenticated
//	When I log in as account "A"
//	When I log in as account "A" after the server's clock has moved on a second
//	When I log in with email "<email>" and password "<password>"
//
// "after the server's clock has moved on a second" logs in, then logs in
// again until the session's created is in a later second than the first
// one's (spec 2.4: the date-time the session was created), so that what the
// server dates from then on is dated in a later second than anything it
// answered before. It waits 3 s at most (Suite.clockWait) and never fails
// on the clock: when the sessions are dated by the day, or their date does
// not move (a server may answer a login with the session it already has),
// it goes on. The last login is the response.
func (a authSteps) steps() []stepDef {
	return []stepDef{
		{`^I am account "([AB])" using the (api-key header|session-token header|sessionToken query)$`, a.iAmAccountUsing},
		{`^I am account "([AB])" using the (api-key header|session-token header|sessionToken query) with (its last character changed|its first character changed|a character added|its last character removed)$`, a.iAmAccountUsingANearMiss},
		{`^I am account "([AB])" using the sessionToken query with every character percent-encoded$`, a.iAmAccountUsingThePercentEncodedQuery},
		{`^I am not authenticated$`, a.iAmNotAuthenticated},
		{`^I log in as account "([AB])"$`, a.iLogInAsAccount},
		{`^I log in as account "([AB])" after the server's clock has moved on a second$`, a.iLogInAsAccountAfterASecond},
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
	return a.use(ctx, acct, scheme, "", false)
}

// use is the three phrases of an account's credential: the account and
// the scheme, then the credential sent as it is, one character off
// (change), or percent-encoded. The credential is checked (a session
// opened) before it is changed.
func (authSteps) use(ctx context.Context, acct, scheme, change string, percentEncoded bool) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	st.nearMiss, st.percentEncoded = "", false
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
		_, err = st.accountOf(acct)
	} else {
		_, err = st.session(ctx, acct)
	}
	if err != nil {
		return err
	}
	st.nearMiss, st.percentEncoded = change, percentEncoded
	return nil
}

// iAmAccountUsingANearMiss sends the account's own api key or session
// token, changed by one character: a near miss, which a server that
// compares a prefix, a suffix or a hash of it takes for the real one
// (section 5: not authenticated correctly, 401).
func (a authSteps) iAmAccountUsingANearMiss(ctx context.Context, acct, scheme, change string) error {
	return a.use(ctx, acct, scheme, change, false)
}

// iAmAccountUsingThePercentEncodedQuery sends the account's session token
// in the sessionToken query with every character percent-encoded, which is
// the same query (RFC 3986 2.1: any octet may be written %HH; 6.2.2.2: a
// percent-encoded unreserved character is the character).
func (a authSteps) iAmAccountUsingThePercentEncodedQuery(ctx context.Context, acct string) error {
	return a.use(ctx, acct, "sessionToken query", "", true)
}

// percentEncodeAll writes every byte of s as %HH.
func percentEncodeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

// nearMiss is the credential secret changed as change says; the result is
// never the secret itself, nor a secret taken says is another's (account
// B's key is account A's with its last character changed on a seed such as
// staging-api-key-a and -b).
func nearMiss(secret, change string, taken func(string) bool) string {
	if secret == "" {
		return "x"
	}
	// Each change tries the replacement characters in turn until the
	// result is nobody's. A character replaced by itself in the other
	// letter case is no change a server must refuse (a secret compared in
	// any case is a reading the README allows: secret-forms).
	for _, c := range "abcdefgh" {
		var got string
		other := string(c)
		switch change {
		case "its last character changed":
			if strings.EqualFold(secret[len(secret)-1:], other) {
				continue
			}
			got = secret[:len(secret)-1] + other
		case "its first character changed":
			if strings.EqualFold(secret[:1], other) {
				continue
			}
			got = other + secret[1:]
		case "a character added":
			got = secret + other
		case "its letters in the other case":
			got = strings.Map(func(r rune) rune {
				if unicode.IsUpper(r) {
					return unicode.ToLower(r)
				}
				return unicode.ToUpper(r)
			}, secret)
			if got == secret {
				return nearMiss(secret, "its last character changed", taken) // no letter to change
			}
		default: // its last character removed
			got = secret[:len(secret)-1]
		}
		if got != secret && (taken == nil || !taken(got)) {
			return got
		}
	}
	return secret + "-not-a-secret"
}

// takenSecret reports whether s is an api key or password of an account of
// the profile: a near miss must be nobody's credential.
func (st *scenarioState) takenSecret(s string) bool {
	for _, ap := range st.suite.profile.AccountPairs() {
		for _, secret := range []string{ap.APIKey, ap.Password, ap.OtherAPIKey, ap.OtherPassword} {
			if s == secret {
				return true
			}
		}
	}
	return false
}

func (authSteps) iAmNotAuthenticated(ctx context.Context) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	st.account, st.scheme, st.nearMiss, st.percentEncoded = "", schemeNone, "", false
	return nil
}

func (authSteps) iLogInAsAccount(ctx context.Context, acct string) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	_, err = st.logIn(ctx, acct)
	return err
}

// logIn sends POST /sessions with the account's credentials as a step of
// the scenario (its last response), keeping the session of a 200.
func (st *scenarioState) logIn(ctx context.Context, acct string) (*exchange, error) {
	a, err := st.accountOf(acct)
	if err != nil {
		return nil, err
	}
	ex := st.postSession(ctx, a.email, a.password, pendingRequest{})
	st.record(ex)
	if ex.err != nil {
		return ex, st.fail("logging in as account %s: %v", acct, ex.err)
	}
	if ex.status == http.StatusOK {
		st.learnSession(acct, ex)
	}
	return ex, nil
}

func (authSteps) iLogInAsAccountAfterASecond(ctx context.Context, acct string) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	login := func() (match.ISORange, error) {
		ex, err := st.logIn(ctx, acct)
		if err != nil {
			return match.ISORange{}, err
		}
		if ex.status != http.StatusOK {
			return match.ISORange{}, st.fail("logging in as account %s: POST /sessions answered %d, want 200", acct, ex.status)
		}
		created := gjson.GetBytes(ex.respBody, "created")
		r, err := match.ParseISORange(created.Str)
		if err != nil {
			return match.ISORange{}, st.fail("the session's created: %v", err)
		}
		return r, nil
	}
	first, err := login()
	if err != nil || first.Whole > time.Second {
		return err // dated by the minute or the day: no later second to wait for
	}
	next := first.Lo.Truncate(time.Second).Add(time.Second)
	deadline := time.Now().Add(st.suite.clockWait)
	// The local clock tells when the server's second is likely over; the
	// server's own answer decides.
	pause := time.Until(time.Now().Truncate(time.Second).Add(time.Second + 10*time.Millisecond))
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		r, err := login()
		if err != nil || !r.Lo.Before(next) {
			return err
		}
		pause = 50 * time.Millisecond
	}
	return nil
}

func (authSteps) iLogInWithEmailAndPassword(ctx context.Context, email, password string) error {
	email, password = match.UnescapeArg(email), match.UnescapeArg(password)
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
	// What the Given steps set goes with the login (a header, a query
	// argument, a body in chunks); its body is the credentials.
	pending := st.pending
	st.pending = pendingRequest{}
	if pending.body.kind != bodyNone || pending.contentType != nil {
		return fmt.Errorf("a login's body is its email and password: send another body with \"I send \"POST\" to \"/sessions\"\"")
	}
	ex := st.postSession(ctx, email, password, pending)
	st.record(ex)
	if ex.err != nil {
		return st.fail("logging in as %s: %v", email, ex.err)
	}
	if tok := gjson.GetBytes(ex.respBody, "token"); ex.status == http.StatusOK && tok.Type == gjson.String {
		st.addSecret(tok.Str)
	}
	return nil
}

// account is account A or B of one pair of the profile.
type account struct {
	name, email, password, apiKey string
	pair                          int // the pair's number, from 1
	// Only for a restore without a snapshot, the same for every pair: the
	// phone's extension is "null" for none.
	firstName, lastName, timezone               string
	phoneCountryID, phoneNumber, phoneExtension string
}

// label names the account in messages: "account A", or "account A of
// pair 3" in a pool.
func (a account) label() string {
	if a.pair > 1 {
		return fmt.Sprintf("account %s of pair %d", a.name, a.pair)
	}
	return "account " + a.name
}

// profilePairs are the pool's pairs of accounts, pair 1 first. The names,
// timezones and phones, used only to restore an account without a
// snapshot, are the profile's for every pair. Where the profile gives none
// (a target with no read extension shows them nowhere), the restore writes
// stand-ins every correct target takes: plain names, a timezone of the
// form Area/City, and for account B account A's phone.
func profilePairs(p Profile) []*pair {
	or := func(key, standIn string) string {
		if p.Missing(key) {
			return standIn
		}
		return p.MustValue(key)
	}
	phoneA := [3]string{or("phone_country_id", ""), or("phone_number", ""), or("phone_extension", "null")}
	phoneB := [3]string{or("other_phone_country_id", phoneA[0]), or("other_phone_number", phoneA[1]), or("other_phone_extension", phoneA[2])}
	if p.Missing("other_phone_country_id") {
		phoneB = phoneA // a number and an extension go with their country
	}
	var pairs []*pair
	for i, ap := range p.AccountPairs() {
		n := i + 1
		pairs = append(pairs, &pair{n: n, accounts: [2]account{
			{"A", ap.Email, ap.Password, ap.APIKey, n, or("first_name", "Contract"), or("last_name", "Account"), or("timezone", "Europe/London"),
				phoneA[0], phoneA[1], phoneA[2]},
			{"B", ap.OtherEmail, ap.OtherPassword, ap.OtherAPIKey, n, or("other_first_name", "Contract"), or("other_last_name", "Account"),
				or("other_timezone", "Europe/London"), phoneB[0], phoneB[1], phoneB[2]},
		}})
	}
	return pairs
}

// accountOf is the scenario's account A or B: the one of the pair it took
// from the pool. A scenario takes the accounts its steps name; one it did
// not take is refused rather than used without the pool's protection.
func (st *scenarioState) accountOf(acct string) (account, error) {
	i := accountIndex(acct)
	if st.pair == nil || st.need[i] == noAccess {
		return account{}, fmt.Errorf("account %s is used, but no step of the scenario names it (account %q or {{%s.…}}), so it took no account %s from the pool", acct, acct, acct, acct)
	}
	return st.pair.accounts[i], nil
}

// accountIDs are raw JSON (a number, or null for a user without a client).
type accountIDs struct{ userID, clientID string }

// postSession sends POST /sessions with the profile's login encoding.
func (st *scenarioState) postSession(ctx context.Context, email, password string, extra pendingRequest) *exchange {
	out := outgoing{method: http.MethodPost, header: http.Header{}}
	out.url, _ = st.suite.endpointURL("/sessions", "") // the base URL was validated with the profile
	if st.suite.profile.LoginEncoding == "form" {
		out.header.Set("Content-Type", "application/x-www-form-urlencoded")
		out.body = []byte(url.Values{"email": {email}, "password": {password}}.Encode())
	} else {
		out.header.Set("Content-Type", "application/json")
		out.body = []byte(`{"email":` + match.JSONString(email) + `,"password":` + match.JSONString(password) + `}`)
	}
	if err := extra.apply(&out); err != nil {
		return &exchange{err: err}
	}
	return st.do(ctx, out)
}

// session returns the scenario's session token for the account, logging in
// the first time. One login per account and scenario at most.
func (st *scenarioState) session(ctx context.Context, acct string) (string, error) {
	if tok, ok := st.tokens[acct]; ok {
		return tok, nil
	}
	a, err := st.accountOf(acct)
	if err != nil {
		return "", err
	}
	ex := st.postSession(ctx, a.email, a.password, pendingRequest{})
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
	if st.pair != nil && user.Type == gjson.Number && (client.Type == gjson.Number || client.Type == gjson.Null) {
		st.pair.learn(accountIndex(acct), accountIDs{userID: user.Raw, clientID: client.Raw})
	}
	return st.tokens[acct]
}

// accountIDs returns the ids of the account, learned once per run and
// pair (by the preflight, or by the first login): ids do not change, so
// later scenarios need no login for them.
func (st *scenarioState) accountIDs(ctx context.Context, acct string) (accountIDs, error) {
	if _, err := st.accountOf(acct); err != nil {
		return accountIDs{}, err
	}
	if ids, ok := st.pair.learnedIDs(accountIndex(acct)); ok {
		return ids, nil
	}
	if _, err := st.session(ctx, acct); err != nil {
		return accountIDs{}, err
	}
	if ids, ok := st.pair.learnedIDs(accountIndex(acct)); ok {
		return ids, nil
	}
	return accountIDs{}, fmt.Errorf("the session of account %s has no numeric userId and clientId", acct)
}

// authenticate adds the scenario's credentials to an outgoing request.
func (st *scenarioState) authenticate(ctx context.Context, out *outgoing) error {
	if st.account == "" || st.scheme == schemeNone {
		return nil
	}
	switch st.scheme {
	case schemeAPIKey:
		a, err := st.accountOf(st.account)
		if err != nil {
			return err
		}
		key := a.apiKey
		if st.nearMiss != "" {
			// One character off the real key: masked like it.
			key = nearMiss(key, st.nearMiss, st.takenSecret)
			st.addSecret(key)
		}
		out.header.Set("Authorization", "api-key "+key)
	case schemeSessionHeader, schemeSessionQuery:
		tok, err := st.session(ctx, st.account)
		if err != nil {
			return err
		}
		if st.nearMiss != "" {
			tok = nearMiss(tok, st.nearMiss, st.takenSecret)
			st.addSecret(tok)
		}
		switch {
		case st.scheme == schemeSessionHeader:
			out.header.Set("session-token", tok)
		case st.percentEncoded:
			enc := percentEncodeAll(tok)
			st.addSecret(enc)
			out.rawQuery = append(out.rawQuery, "sessionToken="+enc)
		default:
			out.query = append(out.query, [2]string{"sessionToken", tok})
		}
	}
	return nil
}
