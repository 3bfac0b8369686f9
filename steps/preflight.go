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

	"github.com/pricing-contract/pricing-contract/steps/target"
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

// accountVars names the profile's variables of the account's email,
// password and api key, for messages that say what to fix.
func accountVars(a account) [3]string {
	keys := [3]string{"email", "password", "api_key"}
	if a.name == "B" {
		keys = [3]string{"other_email", "other_password", "other_api_key"}
	}
	return [3]string{target.PairVar(keys[0], a.pair), target.PairVar(keys[1], a.pair), target.PairVar(keys[2], a.pair)}
}

// Preflight checks, before any scenario, what every run needs from the
// target and the profile, and changes no data on a correct server:
//
//   - the target answers, and every account of every pair logs in with
//     POST /sessions (honouring the profile's login encoding);
//   - the sessions name users of clients: A and B of a pair two different
//     users of two different clients, and no user or client in two places
//     of the pool, since two scenarios on two pairs would then change one
//     account at once;
//   - each account's api key authenticates that account's user: PUT
//     /users/:userId with the key and an empty JSON object. The spec fixes
//     the answers: 400 when the key is accepted (no first name is provided,
//     section 7.3), 401 when it is not, 403 when it belongs to another user.
//     A 200 (a server that accepts the empty update) also proves the key;
//   - each id, address, phone and email domain of the profile is accepted:
//     a request refused for a blank name (7.3) carries it, and a 400 that
//     names its field says the target refuses it (checkProfileValues).
//
// The accounts are checked at once, a login each and then a PUT each, so a
// pool costs about as much time as one pair. A server that validates the
// body before authenticating answers 400 to any key, so a wrong key there
// passes this check and fails the scenarios that use it. The error, the
// first problem in the order of the pairs, is an *UnusableError.
func (s *Suite) Preflight(ctx context.Context) error {
	if err := s.Identify(ctx); err != nil {
		return err
	}
	var members []preflightMember // one per account, in the order of the pairs
	for _, pr := range s.pool.pairs {
		for i, a := range pr.accounts {
			st := s.newState(nil) // one each: a login changes the state
			st.pair, st.need[i] = pr, sharedAccess
			members = append(members, preflightMember{st, a})
		}
	}
	ids := make([]accountIDs, len(members))
	if err := parallel(len(members), func(i int) (err error) {
		ids[i], err = members[i].st.preflightLogin(ctx, members[i].a)
		return err
	}); err != nil {
		return firstError(err)
	}
	for i, m := range members {
		if ids[i].clientID == "null" {
			return &UnusableError{Reason: fmt.Sprintf("%s (%s) belongs to no client: its session has clientId null; the suite needs a user of a client for each account", m.a.label(), m.a.email)}
		}
	}
	if err := checkDistinct(members, ids); err != nil {
		return err
	}
	if err := firstError(parallel(len(members), func(i int) error {
		return members[i].st.preflightAPIKey(ctx, members[i].a, ids[i])
	})); err != nil {
		return err
	}
	refused, err := s.checkProfileValues(ctx, ids[0].userID)
	if err != nil {
		return err
	}
	if len(refused) > 0 {
		var b strings.Builder
		for _, r := range refused {
			fmt.Fprintf(&b, "%s\n", r)
		}
		return &UnusableError{
			Reason: fmt.Sprintf("the target refuses %d %s of the profile: set values the target accepts", len(refused), plural(len(refused), "value", "values")),
			Detail: b.String(),
		}
	}
	return nil
}

// preflightMember is one account of the pool, with a state of its own.
type preflightMember struct {
	st *scenarioState
	a  account
}

// firstError is the first of the errors joined by parallel.
func firstError(err error) error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		return joined.Unwrap()[0]
	}
	return err
}

// checkDistinct refuses a user or a client that two accounts of the pool
// share: A and B of one pair must differ for the 403 scenarios, and two
// pairs must not overlap, or a scenario changing one account would race
// with another using the same user or client through another pair.
func checkDistinct(members []preflightMember, ids []accountIDs) error {
	users, clients := map[string]account{}, map[string]account{}
	for i, m := range members {
		a := m.a
		if b, ok := users[ids[i].userID]; ok {
			if b.pair == a.pair {
				return &UnusableError{Reason: fmt.Sprintf("accounts A and B%s are the same user (userId %s): %s and %s must be two users",
					pairSuffix(a.pair), ids[i].userID, accountVars(b)[0], accountVars(a)[0])}
			}
			return &UnusableError{Reason: fmt.Sprintf("%s (%s) and %s (%s) are the same user (userId %s): every account of the pool must be a user of its own, or two scenarios change one user at once",
				b.label(), accountVars(b)[0], a.label(), accountVars(a)[0], ids[i].userID)}
		}
		users[ids[i].userID] = a
	}
	for i, m := range members {
		a := m.a
		if b, ok := clients[ids[i].clientID]; ok {
			if b.pair == a.pair {
				return &UnusableError{Reason: fmt.Sprintf("accounts A and B%s are users of the same client (clientId %s): B must belong to another client, for the 403 scenarios",
					pairSuffix(a.pair), ids[i].clientID)}
			}
			return &UnusableError{Reason: fmt.Sprintf("%s (%s) and %s (%s) are users of the same client (clientId %s): every account of the pool needs a client of its own, or two scenarios change one client at once",
				b.label(), b.email, a.label(), a.email, ids[i].clientID)}
		}
		clients[ids[i].clientID] = a
	}
	return nil
}

// pairSuffix is " of pair N" for a pair of a pool after the first.
func pairSuffix(n int) string {
	if n > 1 {
		return fmt.Sprintf(" of pair %d", n)
	}
	return ""
}

func (st *scenarioState) preflightLogin(ctx context.Context, a account) (accountIDs, error) {
	vars := accountVars(a)
	ex := st.postSession(ctx, a.email, a.password, pendingRequest{})
	if ex.err != nil {
		return accountIDs{}, noAnswer(ex, st, http.MethodPost, ex.url)
	}
	switch {
	case ex.status >= 300 && ex.status <= 399:
		return accountIDs{}, unusable(ex, st, "%s cannot log in: %v", a.label(), target.Redirected(http.MethodPost, ex.url, ex.status, ex.respHeader))
	case ex.status == http.StatusNotFound || ex.status == http.StatusMethodNotAllowed:
		return accountIDs{}, unusable(ex, st, "POST %s answered %d: is the base URL %s right, version segment included?", ex.url, ex.status, st.suite.profile.BaseURL)
	case ex.status == http.StatusBadRequest || ex.status == http.StatusUnauthorized || ex.status == http.StatusForbidden:
		return accountIDs{}, unusable(ex, st, "%s cannot log in: POST /sessions answered %d for %s=%s and %s (login encoding %s)",
			a.label(), ex.status, vars[0], a.email, vars[1], st.suite.profile.LoginEncoding)
	case ex.status != http.StatusOK:
		return accountIDs{}, unusable(ex, st, "%s cannot log in: POST /sessions answered %d, want 200", a.label(), ex.status)
	}
	body := gjson.ParseBytes(ex.respBody)
	user, client := body.Get("userId"), body.Get("clientId")
	if tok := body.Get("token"); tok.Type != gjson.String || tok.Str == "" {
		return accountIDs{}, unusable(ex, st, "%s logged in, but the session has no string token", a.label())
	}
	if user.Type != gjson.Number || (client.Type != gjson.Number && client.Type != gjson.Null) {
		return accountIDs{}, unusable(ex, st, "%s logged in, but the session has no numeric userId and clientId", a.label())
	}
	st.learnSession(a.name, ex) // the ids are the run's from now on
	return accountIDs{userID: user.Raw, clientID: client.Raw}, nil
}

func (st *scenarioState) preflightAPIKey(ctx context.Context, a account, ids accountIDs) error {
	vars := accountVars(a)
	out := outgoing{method: http.MethodPut, header: http.Header{}, body: []byte("{}")}
	out.url, _ = st.suite.endpointURL("/users/"+ids.userID, "")
	out.header.Set("Authorization", "api-key "+a.apiKey)
	out.header.Set("Content-Type", "application/json")
	ex := st.do(ctx, out)
	if ex.err != nil {
		return noAnswer(ex, st, http.MethodPut, st.maskURL(ex.url))
	}
	if ex.status >= 300 && ex.status <= 399 {
		return unusable(ex, st, "checking the api key of %s: %v", a.label(), target.Redirected(http.MethodPut, st.maskURL(ex.url), ex.status, ex.respHeader))
	}
	switch ex.status {
	case http.StatusBadRequest, http.StatusOK:
		return nil
	case http.StatusUnauthorized:
		return unusable(ex, st, "the api key of %s (%s) is not accepted: PUT /users/%s with it answered 401", a.label(), vars[2], ids.userID)
	case http.StatusForbidden, http.StatusNotFound:
		return unusable(ex, st, "the api key of %s (%s) is not the key of %s (user %s): PUT /users/%s with it answered %d",
			a.label(), vars[2], a.email, ids.userID, ids.userID, ex.status)
	}
	return unusable(ex, st, "checking the api key of %s: PUT /users/%s answered %d, want 400 (auth accepted, empty body refused) or 401", a.label(), ids.userID, ex.status)
}

// noAnswer is the error of a request of the preflight that got no answer
// it can read: none at all, or one the client refused as it read it (too
// large, nested too deep, not UTF-8: target.AnswerError).
func noAnswer(ex *exchange, st *scenarioState, method, url string) *UnusableError {
	if target.IsAnswerError(ex.err) {
		return unusable(ex, st, "%s %s: %v", method, url, st.maskText(ex.err.Error()))
	}
	return unusable(ex, st, "the target does not answer: %s %s: %v", method, url, st.maskText(ex.err.Error()))
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
