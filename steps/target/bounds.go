package target

import (
	"net/http"
	"strings"

	"github.com/tidwall/gjson"
)

// CreateBound is the fewest creates of a kind (clients, apps) one account
// makes in a run before a target may refuse more: the spec bounds nothing
// an account keeps (8: rate limits are not shown), and a server that keeps
// what it is given in memory must stop somewhere. Past it, a create
// refused with a 4xx but 401 that names no field of the body is the
// target's bound, not a defect (README, "Where the spec is silent", 8).
// The suite and the explorer both read it. It is 10, not the 20 it was: a
// server may count what the account held before the run (the fifth blind
// audit's correct server keeps 20 clients per user, the one it was seeded
// with among them), and a staging account holds what earlier runs made.
const CreateBound = 10

// Creates are the kinds of entity a request makes when it is answered 200:
// "client" for POST /clients and for PUT /users/:userId with a client,
// "app" for POST /apps and for a client with its first app. path is below
// the base URL. A body that is not a JSON object creates nothing: its
// refusal is the spec's (InvalidBody), never a bound.
func Creates(method, path string, body []byte) []string {
	var out []string
	if !gjson.ValidBytes(body) {
		return nil
	}
	b := gjson.ParseBytes(body)
	if !b.IsObject() {
		return nil
	}
	switch {
	case method == http.MethodPost && path == "/clients":
		out = append(out, "client")
		if b.Get("app").IsObject() {
			out = append(out, "app")
		}
	case method == http.MethodPut && strings.HasPrefix(path, "/users/") && b.Get("client").IsObject():
		out = append(out, "client")
		if b.Get("client.app").IsObject() {
			out = append(out, "app")
		}
	case method == http.MethodPost && path == "/apps":
		out = append(out, "app")
	}
	return out
}

// NamesNoField reports whether an answer names no field of a body: not an
// error array, or one whose every fieldName is empty.
func NamesNoField(body []byte) bool {
	b := gjson.ParseBytes(body)
	if !b.IsArray() {
		return true
	}
	for _, e := range b.Array() {
		if e.Get("fieldName").String() != "" {
			return false
		}
	}
	return true
}
