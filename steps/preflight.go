package steps

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// UnusableError says that the target or the profile cannot be used at all,
// so that no scenario is worth running: the target does not answer, an
// account cannot log in, an api key is refused, or the two accounts are not
// two users of two clients. pricing-contract exits 3 on it. Detail, when
// set, is the request that showed it, as curl, and the response.
type UnusableError struct {
	Reason string
	Detail string
}

func (e *UnusableError) Error() string { return e.Reason }

func unusable(ex *exchange, st *scenarioState, format string, args ...any) *UnusableError {
	e := &UnusableError{Reason: fmt.Sprintf(format, args...)}
	if ex != nil {
		e.Detail = st.dump(ex)
	}
	return e
}

// accountEnvVars names, per account, the profile's variables of its email,
// password and api key, for messages that say what to fix.
var accountEnvVars = map[string][3]string{
	"A": {"PRICING_EMAIL", "PRICING_PASSWORD", "PRICING_API_KEY"},
	"B": {"PRICING_OTHER_EMAIL", "PRICING_OTHER_PASSWORD", "PRICING_OTHER_API_KEY"},
}

// Preflight checks, before any scenario, what every run needs from the
// target and the profile, and changes no data on a correct server:
//
//   - the target answers, and both accounts log in with POST /sessions
//     (honouring the profile's login encoding);
//   - the sessions name two different users of two different clients;
//   - each account's api key authenticates that account's user: PUT
//     /users/:userId with the key and an empty JSON object. The spec fixes
//     the answers: 400 when the key is accepted (no first name is provided,
//     section 7.3), 401 when it is not, 403 when it belongs to another user.
//     A 200 (a server that accepts the empty update) also proves the key.
//
// A server that validates the body before authenticating answers 400 to
// any key, so a wrong key there passes this check and fails the scenarios
// that use it. The error is an *UnusableError.
func (s *Suite) Preflight(ctx context.Context) error {
	st := s.newState(nil)
	ids := map[string]accountIDs{}
	for _, acct := range []string{"A", "B"} {
		id, err := st.preflightLogin(ctx, acct)
		if err != nil {
			return err
		}
		ids[acct] = id
	}
	a, b := ids["A"], ids["B"]
	for _, acct := range []string{"A", "B"} {
		if ids[acct].clientID == "null" {
			return &UnusableError{Reason: fmt.Sprintf("account %s (%s) belongs to no client: its session has clientId null; the suite needs a user of a client for each account", acct, s.account(acct).email)}
		}
	}
	if a.userID == b.userID {
		return &UnusableError{Reason: fmt.Sprintf("accounts A and B are the same user (userId %s): %s and %s must be two users", a.userID, accountEnvVars["A"][0], accountEnvVars["B"][0])}
	}
	if a.clientID == b.clientID {
		return &UnusableError{Reason: fmt.Sprintf("accounts A and B are users of the same client (clientId %s): B must belong to another client, for the 403 scenarios", a.clientID)}
	}
	for _, acct := range []string{"A", "B"} {
		if err := st.preflightAPIKey(ctx, acct, ids[acct]); err != nil {
			return err
		}
	}
	return nil
}

func (st *scenarioState) preflightLogin(ctx context.Context, acct string) (accountIDs, error) {
	a, vars := st.suite.account(acct), accountEnvVars[acct]
	ex := st.postSession(ctx, a.email, a.password)
	if ex.err != nil {
		return accountIDs{}, unusable(ex, st, "the target does not answer: POST %s: %v", ex.url, st.maskText(ex.err.Error()))
	}
	switch {
	case ex.status == http.StatusNotFound || ex.status == http.StatusMethodNotAllowed:
		return accountIDs{}, unusable(ex, st, "POST %s answered %d: is the base URL %s right, version segment included?", ex.url, ex.status, st.suite.profile.BaseURL)
	case ex.status == http.StatusBadRequest || ex.status == http.StatusUnauthorized || ex.status == http.StatusForbidden:
		return accountIDs{}, unusable(ex, st, "account %s cannot log in: POST /sessions answered %d for %s=%s and %s (login encoding %s)",
			acct, ex.status, vars[0], a.email, vars[1], st.suite.profile.LoginEncoding)
	case ex.status != http.StatusOK:
		return accountIDs{}, unusable(ex, st, "account %s cannot log in: POST /sessions answered %d, want 200", acct, ex.status)
	}
	body := gjson.ParseBytes(ex.respBody)
	user, client := body.Get("userId"), body.Get("clientId")
	if tok := body.Get("token"); tok.Type != gjson.String || tok.Str == "" {
		return accountIDs{}, unusable(ex, st, "account %s logged in, but the session has no string token", acct)
	}
	if user.Type != gjson.Number || (client.Type != gjson.Number && client.Type != gjson.Null) {
		return accountIDs{}, unusable(ex, st, "account %s logged in, but the session has no numeric userId and clientId", acct)
	}
	st.learnSession(acct, ex) // the ids are the run's from now on
	return accountIDs{userID: user.Raw, clientID: client.Raw}, nil
}

func (st *scenarioState) preflightAPIKey(ctx context.Context, acct string, ids accountIDs) error {
	a, vars := st.suite.account(acct), accountEnvVars[acct]
	out := outgoing{method: http.MethodPut, header: http.Header{}, body: []byte("{}")}
	out.url, _ = st.suite.endpointURL("/users/"+ids.userID, "")
	out.header.Set("Authorization", "api-key "+a.apiKey)
	out.header.Set("Content-Type", "application/json")
	ex := st.do(ctx, out)
	if ex.err != nil {
		return unusable(ex, st, "the target does not answer: PUT %s: %v", st.maskURL(ex.url), st.maskText(ex.err.Error()))
	}
	switch ex.status {
	case http.StatusBadRequest, http.StatusOK:
		return nil
	case http.StatusUnauthorized:
		return unusable(ex, st, "the api key of account %s (%s) is not accepted: PUT /users/%s with it answered 401", acct, vars[2], ids.userID)
	case http.StatusForbidden, http.StatusNotFound:
		return unusable(ex, st, "the api key of account %s (%s) is not the key of %s (user %s): PUT /users/%s with it answered %d",
			acct, vars[2], a.email, ids.userID, ids.userID, ex.status)
	}
	return unusable(ex, st, "checking the api key of account %s: PUT /users/%s answered %d, want 400 (auth accepted, empty body refused) or 401", acct, ids.userID, ex.status)
}

// downAfter is how many transport errors in a row (no HTTP answer at all:
// refused, reset, timed out) mean that the target is down.
const downAfter = 5

// ErrTargetDown is the cause of a run stopped because the target stopped
// answering.
var ErrTargetDown = errors.New("the target stopped answering")

// targetWatch is the transport of a run: it counts transport errors in a
// row across all scenarios, and after downAfter of them it calls onDown
// once and fails every later request at once, so that the scenarios under
// way end in seconds instead of one timeout per request.
type targetWatch struct {
	next   http.RoundTripper
	onDown func(error)

	mu     sync.Mutex
	inARow int
	down   error
}

func (w *targetWatch) RoundTrip(req *http.Request) (*http.Response, error) {
	w.mu.Lock()
	down := w.down
	w.mu.Unlock()
	if down != nil {
		return nil, down
	}
	resp, err := w.next.RoundTrip(req)
	w.mu.Lock()
	var fire error
	if err == nil {
		w.inARow = 0
	} else {
		w.inARow++
		if w.inARow >= downAfter && w.down == nil {
			w.down = fmt.Errorf("%w: %d requests in a row got no answer, the last %s %s: %s",
				ErrTargetDown, w.inARow, req.Method, withoutQuery(req.URL), shortError(err))
			fire = w.down
		}
	}
	w.mu.Unlock()
	if fire != nil && w.onDown != nil {
		w.onDown(fire) // before this request's error is seen, so no scenario starts after it
	}
	return resp, err
}

// withoutQuery leaves out the query, which may hold a sessionToken.
func withoutQuery(u *url.URL) string {
	c := *u
	c.RawQuery, c.User = "", nil
	return c.String()
}

// shortError drops the "Put "http://…": " prefix that net/http repeats.
func shortError(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, "\": "); i >= 0 {
		return msg[i+3:]
	}
	return msg
}
