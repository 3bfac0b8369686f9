package mockserver_test

import (
	"net/http"
	"testing"
)

// Spec 9 and the README: /v1 and /v1.0 serve the one API, over one store.
func TestVersionsShareOneAPI(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	r1 := send(t, srv, "GET", "/v1/platforms", nil, nil)
	r10 := send(t, srv, "GET", "/v1.0/platforms", nil, nil)
	mustStatus(t, r1, http.StatusOK, "GET /v1/platforms")
	wantEq(t, "/v1.0/platforms body", string(r10.body), string(r1.body))

	r := send(t, srv, "POST", "/v1.0/apps", asA, appBody())
	mustStatus(t, r, http.StatusOK, "POST /v1.0/apps")
	id := r.json.Get("id").String()
	_, got := do(t, srv, "GET", "/v1/apps/"+id, asA, nil)
	wantEq(t, "app created under v1.0, read under v1", got.Raw, r.json.Raw)

	r = send(t, srv, "PUT", "/v1/users/1", asA, with(userBodyA(), "lastName", "Versioned"))
	mustStatus(t, r, http.StatusOK, "PUT /v1/users/1")
	_, got = do(t, srv, "GET", "/v1.0/users/1", sessionHeader(login(t, srv, emailA, passA)), nil)
	wantEq(t, "lastName read under v1.0", got.Get("lastName").String(), "Versioned")
}

// Any other version segment, and any path that is no endpoint, answers a JSON 404.
func TestUnknownRoutes(t *testing.T) {
	t.Parallel()
	wantErrorOnEach(t, asA, http.StatusNotFound, "NotFound", []routeCase{
		{"version 2", "GET", "/v2/platforms", nil},
		{"minor version 1.1", "GET", "/v1.1/platforms", nil},
		{"version 0", "GET", "/v0/platforms", nil},
		{"upper-case version", "GET", "/V1/platforms", nil},
		{"no version", "GET", "/platforms", nil},
		{"no version, a user", "PUT", "/users/1", nil},
		{"root with a POST", "POST", "/index.html", nil},
		{"version alone", "GET", "/v1", nil},
		{"version with a slash", "GET", "/v1/", nil},
		{"unknown resource", "GET", "/v1/widgets", nil},
		{"unknown sub-resource", "GET", "/v1/users/1/apps", nil},
		{"too deep", "GET", "/v1/clients/1/apps/1", nil},
		{"trailing slash", "GET", "/v1/platforms/", nil},
		{"trailing slash on an id", "GET", "/v1/users/1/", nil},
		{"double slash", "GET", "/v1//platforms", nil},
		{"resource in another case", "GET", "/v1/Platforms", nil},
		{"v2 of a write", "POST", "/v2/sessions", nil},
	})
}

// A known path with a method it does not serve answers a JSON 405.
func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, method, path string }{
		{"DELETE a user", "DELETE", "/v1/users/1"},
		{"PATCH a user", "PATCH", "/v1/users/1"},
		{"POST a user id", "POST", "/v1/users/1"},
		{"GET the users", "GET", "/v1/users"},
		{"GET the sessions", "GET", "/v1/sessions"},
		{"PUT the apps", "PUT", "/v1/apps"},
		{"PUT an app", "PUT", "/v1/apps/1"},
		{"DELETE a client", "DELETE", "/v1/clients/1"},
		{"POST the platforms", "POST", "/v1/platforms"},
		{"DELETE the currencies", "DELETE", "/v1.0/currencies"},
		{"POST the apps of a client", "POST", "/v1/clients/1/apps"},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			before := snapshot(t, srv)
			wantError(t, send(t, srv, tc.method, tc.path, asA, appBody()), http.StatusMethodNotAllowed, "MethodNotAllowed")
			wantSnapshot(t, srv, before)
		})
	}
}
