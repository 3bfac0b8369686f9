package variants_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// bl26 is a client of one mock for the probes of the blind audit.
type bl26 struct {
	t    *testing.T
	base string
}

type bl26Resp struct {
	status int
	body   any
	raw    string
	header http.Header
}

var bl26Key = map[string]string{"Authorization": "api-key qa-api-key"}

func (c bl26) do(method, path string, hdr map[string]string, body any) bl26Resp {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	_ = dec.Decode(&v)
	return bl26Resp{status: res.StatusCode, body: v, raw: string(raw), header: res.Header}
}

func (c bl26) login(email, password string) (int, map[string]any) {
	r := c.do("POST", "/sessions", nil, map[string]any{"email": email, "password": password})
	o, _ := r.body.(map[string]any)
	return r.status, o
}

func (c bl26) token(email, password string) string {
	c.t.Helper()
	st, o := c.login(email, password)
	tok, _ := o["token"].(string)
	if st != 200 || tok == "" {
		c.t.Fatalf("login %s: %d %v", email, st, o)
	}
	return tok
}

func (c bl26) putUser(hdr map[string]string, over map[string]any) bl26Resp {
	return c.do("PUT", "/users/1", hdr, bl26User(over))
}

func (c bl26) clients() int {
	r := c.do("GET", "/users/1/clients", bl26Key, nil)
	l, _ := obj(r.body)["clients"].([]any)
	return len(l)
}

func bl26User(over map[string]any) map[string]any {
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

func bl26Client(over map[string]any) map[string]any {
	b := map[string]any{
		"name": "New Co", "addressLine1": "1 Road", "addressCity": "London", "addressPostcode": "N1 1AA",
		"addressCountry": "United Kingdom", "currency": map[string]any{"id": 1}, "terms": "I agree",
	}
	for k, v := range over {
		b[k] = v
	}
	return b
}

const bl26Hash = "ac16024432c03228d1db1ee6fad907840ee875ba"

func bl26App(over map[string]any) map[string]any {
	b := map[string]any{"marketapp": map[string]any{"hash": bl26Hash}, "nextplan": map[string]any{"id": 1}}
	for k, v := range over {
		b[k] = v
	}
	return b
}

func obj(v any) map[string]any {
	o, _ := v.(map[string]any)
	return o
}

func firstErr(v any) map[string]any {
	l, _ := v.([]any)
	if len(l) == 0 {
		return nil
	}
	return obj(l[0])
}

func st(r bl26Resp) string { return fmt.Sprint(r.status) }

// bl26Email255 is a valid address of 255 characters.
var bl26Email255 = strings.Repeat("a", 64) + "@" + strings.Repeat("x", 63) + "." + strings.Repeat("y", 63) + "." + strings.Repeat("z", 58) + ".com"

// bl26Probe makes requests of a mock and tells what it saw; want is what a
// variant answers, which the mock must not.
type bl26Probe struct {
	want  string
	probe func(c bl26) string
}

var bl26Probes = map[string]bl26Probe{
	"blind26-authorization-bare-key": {"200", func(c bl26) string {
		return st(c.putUser(map[string]string{"Authorization": "qa-api-key"}, nil))
	}},
	"blind26-bearer-session-token": {"200", func(c bl26) string {
		return st(c.putUser(map[string]string{"Authorization": "Bearer " + c.token("qa@example.com", "qa-password")}, nil))
	}},
	"blind26-api-key-in-session-token-header": {"200", func(c bl26) string {
		return st(c.putUser(map[string]string{"session-token": "qa-api-key"}, nil))
	}},
	"blind26-query-session-token-ignored": {"401", func(c bl26) string {
		tok := c.token("qa@example.com", "qa-password")
		return st(c.do("PUT", "/users/1?sessionToken="+tok, nil, bl26User(nil)))
	}},
	"blind26-session-header-ignored-on-put-clients": {"401", func(c bl26) string {
		tok := c.token("qa@example.com", "qa-password")
		return st(c.do("PUT", "/clients/1", map[string]string{"session-token": tok}, bl26Client(nil)))
	}},
	"blind26-api-key-in-query-accepted": {"200", func(c bl26) string {
		return st(c.do("PUT", "/users/1?apiKey=qa-api-key", nil, bl26User(nil)))
	}},
	"blind26-no-credentials-403": {"403", func(c bl26) string {
		return st(c.putUser(nil, nil))
	}},
	"blind26-bad-api-key-403-on-post-apps": {"403", func(c bl26) string {
		return st(c.do("POST", "/apps", map[string]string{"Authorization": "api-key wrong-key"}, bl26App(nil)))
	}},
	"blind26-validation-before-auth-on-post-clients": {"400", func(c bl26) string {
		return st(c.do("POST", "/clients", nil, map[string]any{}))
	}},
	"blind26-session-token-of-last-login": {"403", func(c bl26) string {
		a := c.token("qa@example.com", "qa-password")
		c.token("other@example.com", "other-password")
		return st(c.putUser(map[string]string{"session-token": a}, nil))
	}},
	"blind26-session-user-id-of-first-login": {"1", func(c bl26) string {
		c.token("qa@example.com", "qa-password")
		_, o := c.login("other@example.com", "other-password")
		return fmt.Sprint(o["userId"])
	}},
	"blind26-session-without-client-id": {"false", func(c bl26) string {
		_, o := c.login("qa@example.com", "qa-password")
		_, ok := o["clientId"]
		return fmt.Sprint(ok)
	}},
	"blind26-session-created-date-only": {"10", func(c bl26) string {
		_, o := c.login("qa@example.com", "qa-password")
		return fmt.Sprint(len(fmt.Sprint(o["created"])))
	}},
	"blind26-plus-email-login-fails": {"200 401", func(c bl26) string {
		r := c.putUser(bl26Key, map[string]any{"email": "qa+tag@example.com"})
		s, _ := c.login("qa+tag@example.com", "qa-password")
		return fmt.Sprint(r.status, " ", s)
	}},
	"blind26-new-email-login-fails": {"200 401", func(c bl26) string {
		r := c.putUser(bl26Key, map[string]any{"email": "qa2@example.com"})
		s, _ := c.login("qa2@example.com", "qa-password")
		return fmt.Sprint(r.status, " ", s)
	}},
	"blind26-password-ignored-on-update": {"200 401", func(c bl26) string {
		r := c.putUser(bl26Key, map[string]any{"password": "brand-new-pw"})
		s, _ := c.login("qa@example.com", "brand-new-pw")
		return fmt.Sprint(r.status, " ", s)
	}},
	"blind26-null-password-refused": {"400", func(c bl26) string {
		return st(c.putUser(bl26Key, nil))
	}},
	"blind26-password-of-six-refused": {"400", func(c bl26) string {
		return st(c.putUser(bl26Key, map[string]any{"password": "abcdef"}))
	}},
	"blind26-password-last-changed-frozen": {"2025-01-06T09:00:00Z", func(c bl26) string {
		r := c.putUser(bl26Key, map[string]any{"password": "brand-new-pw"})
		return fmt.Sprint(obj(r.body)["passwordLastChanged"])
	}},
	"blind26-password-echoed": {"true", func(c bl26) string {
		r := c.putUser(bl26Key, map[string]any{"password": "brand-new-pw"})
		_, ok := obj(r.body)["password"]
		return fmt.Sprint(ok)
	}},
	"blind26-refused-put-users-stores-password": {"400 200", func(c bl26) string {
		r := c.putUser(bl26Key, map[string]any{"email": "nope", "password": "brand-new-pw"})
		s, _ := c.login("qa@example.com", "brand-new-pw")
		return fmt.Sprint(r.status, " ", s)
	}},
	"blind26-plus-email-refused": {"400", func(c bl26) string {
		return st(c.putUser(bl26Key, map[string]any{"email": "qa+tag@example.com"}))
	}},
	"blind26-email-display-name-accepted": {"200", func(c bl26) string {
		return st(c.putUser(bl26Key, map[string]any{"email": "Quinn <qa3@example.com>"}))
	}},
	"blind26-own-email-case-change-refused": {"400", func(c bl26) string {
		return st(c.putUser(bl26Key, map[string]any{"email": "QA@example.com"}))
	}},
	"blind26-email-of-255-refused": {"400", func(c bl26) string {
		if len(bl26Email255) != 255 {
			c.t.Fatalf("the email is %d long", len(bl26Email255))
		}
		return st(c.putUser(bl26Key, map[string]any{"email": bl26Email255}))
	}},
	"blind26-first-name-of-255-refused": {"400", func(c bl26) string {
		return st(c.putUser(bl26Key, map[string]any{"firstName": strings.Repeat("Q", 255)}))
	}},
	"blind26-last-name-truncated": {"200", func(c bl26) string {
		return st(c.putUser(bl26Key, map[string]any{"lastName": strings.Repeat("A", 256)}))
	}},
	"blind26-first-name-error-coded-last-name": {"InvalidLastName", func(c bl26) string {
		return fmt.Sprint(firstErr(c.putUser(bl26Key, map[string]any{"firstName": ""}).body)["error"])
	}},
	"blind26-unknown-phone-country-ignored": {"200", func(c bl26) string {
		return st(c.putUser(bl26Key, map[string]any{"phoneCountry": map[string]any{"id": 999}}))
	}},
	"blind26-empty-phone-number-ignored": {"200", func(c bl26) string {
		return st(c.putUser(bl26Key, map[string]any{"phoneNumber": ""}))
	}},
	"blind26-dial-code-without-plus": {"44", func(c bl26) string {
		return fmt.Sprint(obj(obj(c.putUser(bl26Key, nil).body)["phoneCountry"])["dialCode"])
	}},
	"blind26-phone-country-name-without-dial-code": {"United Kingdom", func(c bl26) string {
		return fmt.Sprint(obj(obj(c.putUser(bl26Key, nil).body)["phoneCountry"])["name"])
	}},
	"blind26-user-id-as-string": {"string", func(c bl26) string {
		return fmt.Sprintf("%T", obj(c.putUser(bl26Key, nil).body)["id"])
	}},
	"blind26-user-answer-wrapped": {"true", func(c bl26) string {
		_, ok := obj(c.putUser(bl26Key, nil).body)["user"]
		return fmt.Sprint(ok)
	}},
	"blind26-post-clients-201": {"201", func(c bl26) string {
		return st(c.do("POST", "/clients", bl26Key, bl26Client(nil)))
	}},
	"blind26-put-clients-204": {"204", func(c bl26) string {
		return st(c.do("PUT", "/clients/1", bl26Key, bl26Client(nil)))
	}},
	"blind26-client-name-limit-forgotten-on-put": {"200", func(c bl26) string {
		return st(c.do("PUT", "/clients/1", bl26Key, bl26Client(map[string]any{"name": strings.Repeat("N", 256)})))
	}},
	"blind26-vat-of-255-refused": {"400", func(c bl26) string {
		return st(c.do("POST", "/clients", bl26Key, bl26Client(map[string]any{"vat": strings.Repeat("9", 255)})))
	}},
	"blind26-address-city-limit-in-bytes": {"400", func(c bl26) string {
		return st(c.do("PUT", "/clients/1", bl26Key, bl26Client(map[string]any{"addressCity": strings.Repeat("é", 200)})))
	}},
	"blind26-terms-case-insensitive": {"200", func(c bl26) string {
		return st(c.do("POST", "/clients", bl26Key, bl26Client(map[string]any{"terms": "i agree"})))
	}},
	"blind26-terms-unchecked-in-user-client": {"200", func(c bl26) string {
		return st(c.putUser(bl26Key, map[string]any{"client": bl26Client(map[string]any{"terms": "no"})}))
	}},
	"blind26-app-accepted-on-put-clients": {"200", func(c bl26) string {
		return st(c.do("PUT", "/clients/1", bl26Key, bl26Client(map[string]any{"app": bl26App(nil)})))
	}},
	"blind26-post-clients-bad-app-keeps-client": {"400 2", func(c bl26) string {
		r := c.do("POST", "/clients", bl26Key, bl26Client(map[string]any{"app": map[string]any{"nextplan": map[string]any{"id": 1}}}))
		return fmt.Sprint(r.status, " ", c.clients())
	}},
	"blind26-user-client-errors-ignored": {"200", func(c bl26) string {
		return st(c.putUser(bl26Key, map[string]any{"client": map[string]any{}}))
	}},
	"blind26-user-client-not-created": {"200 1", func(c bl26) string {
		r := c.putUser(bl26Key, map[string]any{"client": bl26Client(nil)})
		return fmt.Sprint(r.status, " ", c.clients())
	}},
	"blind26-currency-not-updated": {"1", func(c bl26) string {
		r := c.do("PUT", "/clients/1", bl26Key, bl26Client(map[string]any{"currency": map[string]any{"id": 2}}))
		return fmt.Sprint(obj(obj(r.body)["currency"])["id"])
	}},
	"blind26-null-client-name-keeps-old": {"200", func(c bl26) string {
		return st(c.do("PUT", "/clients/1", bl26Key, bl26Client(map[string]any{"name": nil})))
	}},
	"blind26-refused-put-clients-stores-name": {"400 Renamed Ltd", func(c bl26) string {
		r := c.do("PUT", "/clients/1", bl26Key, bl26Client(map[string]any{"name": "Renamed Ltd", "terms": "no"}))
		g := c.do("GET", "/clients/1", bl26Key, nil)
		return fmt.Sprint(r.status, " ", obj(g.body)["name"])
	}},
	"blind26-currency-code-numeric": {"826", func(c bl26) string {
		r := c.do("PUT", "/clients/1", bl26Key, bl26Client(nil))
		return fmt.Sprint(obj(obj(r.body)["currency"])["code"])
	}},
	"blind26-unknown-client-403": {"403", func(c bl26) string {
		return st(c.do("PUT", "/clients/999", bl26Key, bl26Client(nil)))
	}},
	"blind26-foreign-user-404": {"404", func(c bl26) string {
		return st(c.do("PUT", "/users/2", bl26Key, bl26User(map[string]any{"email": "other@example.com"})))
	}},
	"blind26-upper-case-hash-refused": {"400", func(c bl26) string {
		return st(c.do("POST", "/apps", bl26Key, bl26App(map[string]any{"marketapp": map[string]any{"hash": strings.ToUpper(bl26Hash)}})))
	}},
	"blind26-long-hash-truncated": {"200", func(c bl26) string {
		return st(c.do("POST", "/apps", bl26Key, bl26App(map[string]any{"marketapp": map[string]any{"hash": bl26Hash + "0"}})))
	}},
	"blind26-app-name-required-with-hash": {"400", func(c bl26) string {
		return st(c.do("POST", "/apps", bl26Key, bl26App(nil)))
	}},
	"blind26-app-name-wins-over-hash": {"My Own <nil>", func(c bl26) string {
		r := c.do("POST", "/apps", bl26Key, bl26App(map[string]any{"name": "My Own", "platform": map[string]any{"id": 2}}))
		return fmt.Sprint(obj(r.body)["name"], " ", obj(obj(r.body)["marketapp"])["hash"])
	}},
	"blind26-no-name-no-hash-wrong-code": {"InvalidMarketappHash", func(c bl26) string {
		r := c.do("POST", "/apps", bl26Key, map[string]any{"platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}})
		return fmt.Sprint(firstErr(r.body)["error"])
	}},
	"blind26-nextplan-ignored": {"false", func(c bl26) string {
		r := c.do("POST", "/apps", bl26Key, bl26App(map[string]any{"nextplan": map[string]any{"id": 2}}))
		return fmt.Sprint(obj(obj(r.body)["plan"])["isPro"])
	}},
	"blind26-platform-name-lower-case": {"android", func(c bl26) string {
		r := c.do("POST", "/apps", bl26Key, bl26App(nil))
		return fmt.Sprint(obj(obj(r.body)["platform"])["name"])
	}},
	"blind26-write-key-uuid": {"36", func(c bl26) string {
		r := c.do("POST", "/apps", bl26Key, bl26App(nil))
		return fmt.Sprint(len(fmt.Sprint(obj(r.body)["writeKey"])))
	}},
	"blind26-platforms-bare-array": {"[]interface {}", func(c bl26) string {
		return fmt.Sprintf("%T", c.do("GET", "/platforms", nil, nil).body)
	}},
	"blind26-platforms-under-data": {"false", func(c bl26) string {
		_, ok := obj(c.do("GET", "/platforms", nil, nil).body)["platforms"]
		return fmt.Sprint(ok)
	}},
	"blind26-single-error-as-object": {"map[string]interface {}", func(c bl26) string {
		return fmt.Sprintf("%T", c.putUser(bl26Key, map[string]any{"email": "nope"}).body)
	}},
	"blind26-errors-without-message-on-post-apps": {"false", func(c bl26) string {
		_, ok := firstErr(c.do("POST", "/apps", bl26Key, map[string]any{}).body)["message"]
		return fmt.Sprint(ok)
	}},
	"blind26-error-code-key-on-put-clients": {"false", func(c bl26) string {
		_, ok := firstErr(c.do("PUT", "/clients/1", bl26Key, map[string]any{}).body)["error"]
		return fmt.Sprint(ok)
	}},
	"blind26-validation-422-on-post-clients": {"422", func(c bl26) string {
		return st(c.do("POST", "/clients", bl26Key, map[string]any{}))
	}},

	// Legal variants.
	"blind26-legal-alphabetical-properties": {"200 true", func(c bl26) string {
		r := c.putUser(bl26Key, nil)
		return fmt.Sprint(r.status, " ", strings.HasPrefix(r.raw, `{"created"`))
	}},
	"blind26-legal-pretty-json": {"200 true", func(c bl26) string {
		r := c.putUser(bl26Key, nil)
		return fmt.Sprint(r.status, " ", strings.Contains(r.raw, "\n  "))
	}},
	"blind26-legal-other-error-messages": {"400 true", func(c bl26) string {
		r := c.putUser(bl26Key, map[string]any{"email": "nope"})
		return fmt.Sprint(r.status, " ", strings.HasPrefix(fmt.Sprint(firstErr(r.body)["message"]), "Request refused"))
	}},
	"blind26-legal-errors-reversed": {"400 lastName", func(c bl26) string {
		r := c.putUser(bl26Key, map[string]any{"firstName": "", "lastName": ""})
		return fmt.Sprint(r.status, " ", firstErr(r.body)["fieldName"])
	}},
	"blind26-legal-non-400-errors-as-object": {"401 Unauthorized", func(c bl26) string {
		r := c.putUser(nil, nil)
		return fmt.Sprint(r.status, " ", obj(r.body)["error"])
	}},
	"blind26-legal-platforms-paged": {"2", func(c bl26) string {
		return fmt.Sprint(obj(c.do("GET", "/platforms", nil, nil).body)["total"])
	}},
	"blind26-legal-platforms-reversed": {"iOS", func(c bl26) string {
		l, _ := obj(c.do("GET", "/platforms", nil, nil).body)["platforms"].([]any)
		return fmt.Sprint(obj(l[0])["name"])
	}},
	"blind26-legal-dates-with-milliseconds": {"2025-01-06T09:00:00.000Z", func(c bl26) string {
		return fmt.Sprint(obj(c.putUser(bl26Key, nil).body)["created"])
	}},
	"blind26-legal-dates-with-offset": {"2025-01-06T09:00:00+00:00", func(c bl26) string {
		return fmt.Sprint(obj(c.putUser(bl26Key, nil).body)["created"])
	}},
	"blind26-legal-upper-case-write-key": {"200 true", func(c bl26) string {
		r := c.do("POST", "/apps", bl26Key, bl26App(nil))
		k := fmt.Sprint(obj(r.body)["writeKey"])
		return fmt.Sprint(r.status, " ", len(k) == 32 && k == strings.ToUpper(k))
	}},
	"blind26-legal-prefixed-session-tokens": {"sess- 200 200", func(c bl26) string {
		tok := c.token("qa@example.com", "qa-password")
		h := c.putUser(map[string]string{"session-token": tok}, nil)
		q := c.do("PUT", "/users/1?sessionToken="+tok, nil, bl26User(nil))
		return fmt.Sprint(tok[:5], " ", h.status, " ", q.status)
	}},
	"blind26-legal-large-session-ids": {"true", func(c bl26) string {
		_, o := c.login("qa@example.com", "qa-password")
		n, _ := o["id"].(json.Number).Int64()
		return fmt.Sprint(n > 1000000)
	}},
	"blind26-legal-extra-user-field": {"200 en-GB", func(c bl26) string {
		r := c.putUser(bl26Key, nil)
		return fmt.Sprint(r.status, " ", obj(r.body)["locale"])
	}},
	"blind26-legal-plain-json-content-type": {"application/json", func(c bl26) string {
		return c.putUser(bl26Key, nil).header.Get("Content-Type")
	}},
}

func TestBlind20261126Catalogue(t *testing.T) {
	v := variants.Blind20261126
	if len(v.Wrong) < 30 || len(v.Legal) < 10 {
		t.Errorf("%d wrong and %d legal variants; want at least 30 and 10", len(v.Wrong), len(v.Legal))
	}
	seen := map[string]bool{}
	for _, x := range append(append([]variants.Variant(nil), v.Wrong...), v.Legal...) {
		switch {
		case x.Name == "":
			t.Errorf("a variant without a name")
		case seen[x.Name]:
			t.Errorf("%s: the name is not unique", x.Name)
		case strings.TrimSpace(x.Why) == "":
			t.Errorf("%s: no Why", x.Name)
		case x.Wrap == nil:
			t.Errorf("%s: no Wrap", x.Name)
		case len(x.Profile) != 0:
			t.Errorf("%s: a profile", x.Name)
		}
		seen[x.Name] = true
		if _, ok := bl26Probes[x.Name]; !ok {
			t.Errorf("%s: no probe", x.Name)
		}
	}
	for name := range bl26Probes {
		if !seen[name] {
			t.Errorf("probe %s: no such variant", name)
		}
	}
}

// TestBlind20261126 serves each variant and the plain mock the same
// requests: the variant answers what it should, the mock does not, and the
// variant says it acted.
func TestBlind20261126(t *testing.T) {
	run := func(t *testing.T, v variants.Variant, legal bool) {
		p, ok := bl26Probes[v.Name]
		if !ok {
			t.Skip("no probe")
		}
		var hits atomic.Int64
		m := mocktest.MustStart(t, mocktest.Options{Wrap: func(h http.Handler) http.Handler {
			return v.Wrap(h, func() { hits.Add(1) })
		}})
		plain := mocktest.MustStart(t, mocktest.Options{})
		got := p.probe(bl26{t, m.URL})
		ref := p.probe(bl26{t, plain.URL})
		if got != p.want {
			t.Errorf("the variant: %q, want %q (the mock: %q)", got, p.want, ref)
		}
		if ref == p.want {
			t.Errorf("the mock answers %q too: the probe does not tell the variant apart", ref)
		}
		if hits.Load() == 0 {
			t.Errorf("hit was never called")
		}
	}
	for _, v := range variants.Blind20261126.Wrong {
		t.Run("wrong/"+v.Name, func(t *testing.T) { run(t, v, false) })
	}
	for _, v := range variants.Blind20261126.Legal {
		t.Run("legal/"+v.Name, func(t *testing.T) { run(t, v, true) })
	}
}
