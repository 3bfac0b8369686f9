package mockserver_test

import (
	"net/http"
	"testing"
)

// tokens are session tokens of accounts A and B on one server.
type tokens struct{ a, b string }

func loginBoth(t *testing.T, h http.Handler) tokens {
	t.Helper()
	return tokens{a: login(t, h, emailA, passA), b: login(t, h, emailB, passB)}
}

// credentialsCase is a way to send credentials, made of the session tokens
// of accounts A and B when it needs them.
type credentialsCase struct {
	name string
	auth func(tokens) auth
}

// withEachCredentials runs f for each case on a server of its own, with the
// case's credentials made of the tokens of A and B logged in there.
func withEachCredentials(t *testing.T, cases []credentialsCase, f func(t *testing.T, srv http.Handler, a auth)) {
	t.Helper()
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			f(t, srv, tc.auth(loginBoth(t, srv)))
		})
	}
}

// Every endpoint that needs authentication answers 401 without credentials.
func TestAuthRequiredOnEveryEndpoint(t *testing.T) {
	t.Parallel()
	wantErrorOnEach(t, nil, http.StatusUnauthorized, "Unauthorized", []routeCase{
		{"PUT /users/:id", "PUT", "/v1/users/1", userBodyA()},
		{"GET /users/:id", "GET", "/v1/users/1", nil},
		{"GET /users/:id/clients", "GET", "/v1/users/1/clients", nil},
		{"POST /apps", "POST", "/v1/apps", appBody()},
		{"GET /apps/:id", "GET", "/v1/apps/1", nil},
		{"POST /clients", "POST", "/v1/clients", clientBody()},
		{"PUT /clients/:id", "PUT", "/v1/clients/1", clientBody1()},
		{"GET /clients/:id", "GET", "/v1/clients/1", nil},
		{"GET /clients/:id/apps", "GET", "/v1/clients/1/apps", nil},
		{"PUT /users/:id under v1.0", "PUT", "/v1.0/users/1", userBodyA()},
	})
}

// Missing, unknown and malformed credentials of every scheme answer 401,
// and so does a request whose credentials disagree (README: each one present
// must be valid and all must name the same user).
func TestAuthRejected(t *testing.T) {
	t.Parallel()
	withEachCredentials(t, []credentialsCase{
		{"no credentials", func(tokens) auth { return nil }},
		{"unknown api key", func(tokens) auth { return apiKey("no-such-key") }},
		{"api key in another case", func(tokens) auth { return apiKey("QA-API-KEY") }},
		{"Bearer scheme", func(tokens) auth { return header("Authorization", "Bearer "+keyA) }},
		{"Basic scheme", func(tokens) auth { return header("Authorization", "Basic cWE6cWE=") }},
		{"bare key without scheme", func(tokens) auth { return header("Authorization", keyA) }},
		{"api-key with no key", func(tokens) auth { return header("Authorization", "api-key") }},
		{"api-key and a space with no key", func(tokens) auth { return header("Authorization", "api-key ") }},
		{"scheme glued to the key", func(tokens) auth { return header("Authorization", "api-key"+keyA) }},
		{"empty Authorization header", func(tokens) auth { return header("Authorization", "") }},
		{"empty session-token header", func(tokens) auth { return header("session-token", "") }},
		{"unknown session-token header", func(tokens) auth { return sessionHeader("0123456789abcdef0123456789abcdef") }},
		{"api key sent as a session token", func(tokens) auth { return sessionHeader(keyA) }},
		{"empty sessionToken query", func(tokens) auth { return sessionQuery("") }},
		{"unknown sessionToken query", func(tokens) auth { return sessionQuery("0123456789abcdef0123456789abcdef") }},
		{"valid api key with an unknown session token", func(tokens) auth {
			return all(asA, sessionHeader("0123456789abcdef0123456789abcdef"))
		}},
		{"valid api key with an empty sessionToken query", func(tokens) auth { return all(asA, sessionQuery("")) }},
		{"api key of A with session token of B", func(tk tokens) auth { return all(asA, sessionHeader(tk.b)) }},
		{"two Authorization headers for A and B", func(tokens) auth {
			return func(r *http.Request) {
				r.Header.Add("Authorization", "api-key "+keyA)
				r.Header.Add("Authorization", "api-key "+keyB)
			}
		}},
		{"session header of A with session query of B", func(tk tokens) auth {
			return all(sessionHeader(tk.a), sessionQuery(tk.b))
		}},
	}, func(t *testing.T, srv http.Handler, a auth) {
		wantError(t, send(t, srv, "GET", "/v1/users/1", a, nil), http.StatusUnauthorized, "Unauthorized")
		// A write with a valid body is refused the same way and changes nothing.
		wantError(t, send(t, srv, "PUT", "/v1/users/1", a, with(userBodyA(), "firstName", "Changed")),
			http.StatusUnauthorized, "Unauthorized")
		_, u := do(t, srv, "GET", "/v1/users/1", asA, nil)
		wantEq(t, "firstName after the refused PUT", u.Get("firstName").String(), "Quinn")
	})
}

// Every scheme, alone or combined for the same user, authenticates.
func TestAuthAccepted(t *testing.T) {
	t.Parallel()
	withEachCredentials(t, []credentialsCase{
		{"api-key header", func(tokens) auth { return asA }},
		{"API-KEY scheme in upper case", func(tokens) auth { return header("Authorization", "API-KEY "+keyA) }},
		{"Api-Key scheme in mixed case", func(tokens) auth { return header("Authorization", "Api-Key "+keyA) }},
		{"several spaces after the scheme", func(tokens) auth { return header("Authorization", "api-key   "+keyA) }},
		{"session-token header", func(tk tokens) auth { return sessionHeader(tk.a) }},
		{"sessionToken query", func(tk tokens) auth { return sessionQuery(tk.a) }},
		{"api key and session header of the same user", func(tk tokens) auth { return all(asA, sessionHeader(tk.a)) }},
		{"all three schemes for the same user", func(tk tokens) auth {
			return all(asA, sessionHeader(tk.a), sessionQuery(tk.a))
		}},
	}, func(t *testing.T, srv http.Handler, a auth) {
		r := send(t, srv, "GET", "/v1/users/1", a, nil)
		mustStatus(t, r, http.StatusOK, "GET /users/1")
		checkUser(t, r.json)
		wantEq(t, "id", r.json.Get("id").Int(), 1)

		r = send(t, srv, "PUT", "/v1/users/1", a, with(userBodyA(), "firstName", "Quincy"))
		mustStatus(t, r, http.StatusOK, "PUT /users/1")
		wantEq(t, "firstName", r.json.Get("firstName").String(), "Quincy")

		r = send(t, srv, "POST", "/v1/apps", a, appBody())
		mustStatus(t, r, http.StatusOK, "POST /apps")
		checkApp(t, r.json)
	})
}

// A caller may touch only itself, and only clients and apps it is a member of.
func TestAuthForbidden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, method, path string
		as                 func(tokens) auth
		body               any
	}{
		{"A updates user B", "PUT", "/v1/users/2", func(tokens) auth { return asA }, userBodyB()},
		{"A reads user B", "GET", "/v1/users/2", func(tokens) auth { return asA }, nil},
		{"A lists the clients of user B", "GET", "/v1/users/2/clients", func(tokens) auth { return asA }, nil},
		{"A updates client 2", "PUT", "/v1/clients/2", func(tokens) auth { return asA }, clientBody()},
		{"A reads client 2", "GET", "/v1/clients/2", func(tokens) auth { return asA }, nil},
		{"A lists the apps of client 2", "GET", "/v1/clients/2/apps", func(tokens) auth { return asA }, nil},
		{"A reads app 2", "GET", "/v1/apps/2", func(tokens) auth { return asA }, nil},
		{"B updates user A", "PUT", "/v1/users/1", func(tokens) auth { return asB }, userBodyA()},
		{"B reads app 1", "GET", "/v1/apps/1", func(tokens) auth { return asB }, nil},
		{"B updates client 1 by session header", "PUT", "/v1/clients/1", func(tk tokens) auth { return sessionHeader(tk.b) }, clientBody1()},
		{"B reads client 1 by session query", "GET", "/v1/clients/1", func(tk tokens) auth { return sessionQuery(tk.b) }, nil},
		{"A updates user B under v1.0", "PUT", "/v1.0/users/2", func(tokens) auth { return asA }, userBodyB()},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			before := snapshot(t, srv)
			wantError(t, send(t, srv, tc.method, tc.path, tc.as(loginBoth(t, srv)), tc.body), http.StatusForbidden, "Forbidden")
			wantSnapshot(t, srv, before)
		})
	}
}

// Unknown and non-numeric ids in a path answer 404.
func TestAuthNotFound(t *testing.T) {
	t.Parallel()
	wantErrorOnEach(t, asA, http.StatusNotFound, "NotFound", []routeCase{
		{"GET unknown user", "GET", "/v1/users/999", nil},
		{"GET user with a non-numeric id", "GET", "/v1/users/abc", nil},
		{"GET user with an id beyond int64", "GET", "/v1/users/99999999999999999999999", nil},
		{"GET user 0", "GET", "/v1/users/0", nil},
		{"GET user -1", "GET", "/v1/users/-1", nil},
		{"PUT unknown user", "PUT", "/v1/users/999", userBodyA()},
		{"PUT user with a non-numeric id", "PUT", "/v1/users/me", userBodyA()},
		{"GET clients of an unknown user", "GET", "/v1/users/999/clients", nil},
		{"GET unknown client", "GET", "/v1/clients/999", nil},
		{"GET client with a non-numeric id", "GET", "/v1/clients/x", nil},
		{"PUT unknown client", "PUT", "/v1/clients/999", clientBody()},
		{"PUT client with a non-numeric id", "PUT", "/v1/clients/1.5", clientBody()},
		{"GET apps of an unknown client", "GET", "/v1/clients/999/apps", nil},
		{"GET unknown app", "GET", "/v1/apps/999", nil},
		{"GET app with a non-numeric id", "GET", "/v1/apps/abc", nil},
	})
}

// README: authentication, then the path's resource exists, then the caller may
// touch it, then the body is valid.
func TestAuthCheckOrder(t *testing.T) {
	t.Parallel()
	badUser := with(userBodyA(), "email", "not-an-email")
	badClient := with(clientBody(), "name", "")
	cases := []struct {
		name, method, path string
		as                 auth
		body               any
		status             int
		code               string
	}{
		{"401 before 404", "PUT", "/v1/users/999", nil, userBodyA(), 401, "Unauthorized"},
		{"401 before 403", "PUT", "/v1/users/2", apiKey("nope"), userBodyB(), 401, "Unauthorized"},
		{"401 before 400 on a user", "PUT", "/v1/users/1", nil, badUser, 401, "Unauthorized"},
		{"401 before 400 on malformed JSON", "POST", "/v1/clients", apiKey("nope"), raw("{"), 401, "Unauthorized"},
		{"401 before 400 on POST /apps", "POST", "/v1/apps", nil, map[string]any{}, 401, "Unauthorized"},
		{"404 before 403 and 400 on a user", "PUT", "/v1/users/999", asA, badUser, 404, "NotFound"},
		{"404 before 400 on a client", "PUT", "/v1/clients/999", asA, badClient, 404, "NotFound"},
		{"404 before 400 on malformed JSON", "PUT", "/v1/clients/abc", asA, raw("{"), 404, "NotFound"},
		{"403 before 400 on a user", "PUT", "/v1/users/2", asA, badUser, 403, "Forbidden"},
		{"403 before 400 on a client", "PUT", "/v1/clients/2", asA, badClient, 403, "Forbidden"},
		{"403 before 400 on malformed JSON", "PUT", "/v1/clients/2", asA, raw("[1,2"), 403, "Forbidden"},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			wantError(t, send(t, srv, tc.method, tc.path, tc.as, tc.body), tc.status, tc.code)
		})
	}
}
