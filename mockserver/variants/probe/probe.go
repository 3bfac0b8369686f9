// Package probe is what a probe of a server is written with: a request or
// a few that show the server differs from the mock (each area's Probes,
// run by the catalogue's tests against the server and the plain mock): a
// client of a served mock and the bodies of the default seed's accounts.
package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// TB is what a probe needs of its test (a *testing.T): the package does
// not import testing, so that a binary that serves the catalogue's servers
// (pricing-mock --fault) links no test framework.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// Client is a client of one mock for the probes, with the default seed's
// accounts.
type Client struct {
	T    TB
	Base string
}

// Resp is an answer as a probe reads it: the JSON body decoded with
// numbers kept as written.
type Resp struct {
	Status int
	Body   any
	Raw    string
	Header http.Header
}

// Key is account A's credentials.
var Key = map[string]string{"Authorization": "api-key qa-api-key"}

// Do sends a request, a body of JSON (or a string as it is), and reads the
// answer.
func (c Client) Do(method, path string, hdr map[string]string, body any) Resp {
	c.T.Helper()
	req, err := NewRequest(method, c.Base+path, hdr, body)
	if err != nil {
		c.T.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.T.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	_ = dec.Decode(&v)
	return Resp{Status: res.StatusCode, Body: v, Raw: string(raw), Header: res.Header}
}

// NewRequest is a request of a test to an API: body nil (none), a string
// sent as it is, or a value sent as JSON, labelled application/json; then
// the headers hdr.
func NewRequest(method, url string, hdr map[string]string, body any) (*http.Request, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return nil, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return req, nil
}

// Login opens a session: its status and the session.
func (c Client) Login(email, password string) (int, map[string]any) {
	r := c.Do("POST", "/sessions", nil, map[string]any{"email": email, "password": password})
	o, _ := r.Body.(map[string]any)
	return r.Status, o
}

// Token is a session token of the account; a failed login fails the test.
func (c Client) Token(email, password string) string {
	c.T.Helper()
	st, o := c.Login(email, password)
	tok, _ := o["token"].(string)
	if st != 200 || tok == "" {
		c.T.Fatalf("login %s: %d %v", email, st, o)
	}
	return tok
}

// PutUser sends PUT /users/1 (account A's) with A's body and over on it.
func (c Client) PutUser(hdr map[string]string, over map[string]any) Resp {
	return c.Do("PUT", "/users/1", hdr, UserBody(over))
}

// Clients counts account A's clients.
func (c Client) Clients() int {
	r := c.Do("GET", "/users/1/clients", Key, nil)
	l, _ := Obj(r.Body)["clients"].([]any)
	return len(l)
}

// UserBody is a PUT /users body of account A with over on it.
func UserBody(over map[string]any) map[string]any {
	b := map[string]any{
		"email": "qa@example.com", "firstName": "Quinn", "lastName": "Assurance",
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": true, "subscribeOnboarding": false,
		"timezone": "Europe/London", "password": nil,
	}
	for k, v := range over {
		b[k] = v
	}
	return b
}

// ClientBody is a client body with over on it.
func ClientBody(over map[string]any) map[string]any {
	b := map[string]any{
		"name": "New Co", "addressLine1": "1 Road", "addressCity": "London", "addressPostcode": "N1 1AA",
		"addressCountry": "United Kingdom", "currency": map[string]any{"id": 1}, "terms": "I agree",
	}
	for k, v := range over {
		b[k] = v
	}
	return b
}

// Hash is a marketplace app no app of the seed uses.
const Hash = "ac16024432c03228d1db1ee6fad907840ee875ba"

// AppBody is a POST /apps body of Hash with over on it.
func AppBody(over map[string]any) map[string]any {
	b := map[string]any{"marketapp": map[string]any{"hash": Hash}, "nextplan": map[string]any{"id": 1}}
	for k, v := range over {
		b[k] = v
	}
	return b
}

// Obj is a decoded value as an object (nil when it is not one).
func Obj(v any) map[string]any {
	o, _ := v.(map[string]any)
	return o
}

// FirstErr is the first element of an error array.
func FirstErr(v any) map[string]any {
	l, _ := v.([]any)
	if len(l) == 0 {
		return nil
	}
	return Obj(l[0])
}

// Status is the status of an answer, as a probe reports it.
func Status(r Resp) string { return fmt.Sprint(r.Status) }

// Email255 is a valid address of 255 characters.
var Email255 = strings.Repeat("a", 64) + "@" + strings.Repeat("x", 63) + "." + strings.Repeat("y", 63) + "." + strings.Repeat("z", 58) + ".com"

// Probe makes requests of a mock and tells what it saw; Want is what the
// server answers, which the mock must not.
type Probe struct {
	Want string
	Run  func(c Client) string
}

// EmailA and PasswordA are account A's login in the default seed.
const (
	EmailA    = "qa@example.com"
	PasswordA = "qa-password"
)

// Authorization is an Authorization header of value v.
func Authorization(v string) map[string]string { return map[string]string{"Authorization": v} }

// ErrorOf is an answer's status and its first error's fieldName and code.
func ErrorOf(r Resp) string {
	e := FirstErr(r.Body)
	return fmt.Sprint(r.Status, " ", e["fieldName"], " ", e["error"])
}

// Member reads a member of an object answer, as text.
func Member(r Resp, path ...string) string {
	var v any = r.Body
	for _, p := range path {
		v = Obj(v)[p]
	}
	return fmt.Sprint(v)
}
