// Package mockserver is the reference implementation of the Pricing Service
// API (../shared/spec/pricing-api.md from the repository root) over HTTP: a
// Gin engine in front of the domain, mockserver/pricing, which holds the
// spec's rules and knows nothing of HTTP.
//
// This package is the HTTP adapter and the mock's own surface for people
// and tools. Gin stays in the files that route, answer and wrap requests;
// wire.go, mask.go, admin_faults.go, the state file (state_file.go,
// state_lock*.go), watch.go and the log (loghandler.go, logwriter.go) do
// not import it.
//
//   - server.go: Options, New and the Server, one store per namespace.
//   - routes.go: the one route map and the order of the middleware.
//   - handlers.go, auth.go: the API's handlers (decode, validate through
//     the domain, store, answer) and the three credential schemes.
//   - errors.go: the one writer of error answers; codes and their statuses
//     are the domain's table (pricing.Code).
//   - wire.go: the JSON of spec section 2, converted from the domain's types.
//   - admin.go, admin_faults.go, journal.go, mask.go, latency.go,
//     namespace.go: the admin API (/__admin: reset, state, journal, fault
//     rules, namespaces) and who may use it, the masking of the journal,
//     the X-Mock-* headers and namespaces.
//   - cors.go, docs.go, home.go: CORS, /openapi.json and the home page.
//   - state_file.go, watch.go: --state and --fixtures --watch.
//   - logwriter.go, and Limits and Timeouts in server.go: what a mock keeps
//     and how long it waits (README, "Limits and security").
//
// Beside it: mockserver/variants makes other servers of the mock, wrong ones
// for mutation testing and legal ones, from outside (rewrites and
// pricing.Deviations); mockserver/rewrite is the middleware that changes
// requests and answers; mockserver/mocktest serves a mock for a test.
package mockserver
