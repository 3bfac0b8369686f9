package ledger

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// probe reports whether the server shows the fault.
type probe func(t *testing.T, s *Server) bool

// concurrently runs f and g so that they overlap; g starts after delay.
func concurrently(delay time.Duration, f, g func()) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); f() }()
	go func() { defer wg.Done(); time.Sleep(delay); g() }()
	wg.Wait()
}

func rawClient(name, currencyID string) string {
	return `{"name":"` + name + `","addressLine1":"a","addressCity":"b","addressPostcode":"c","addressCountry":"d","currency":{"id":` + currencyID + `},"terms":"I agree"}`
}

var probes = map[string]probe{
	// (a) validation and limits
	"len-bytes": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "PUT", fmt.Sprintf("/clients/%d", a.cid), clientBody(strings.Repeat("é", 200)), a.key...).code == 400
	},
	"optional-unbounded": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "PUT", fmt.Sprintf("/clients/%d", a.cid), with(clientBody("Opt"), "vat", strings.Repeat("9", 256)), a.key...).code == 200
	},
	"terms-casefold": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "POST", "/clients", with(clientBody("Terms"), "terms", "i agree"), a.key...).code == 200
	},
	"hash-truncated": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "POST", "/apps", appBody(hashAndroid+"f"), a.key...).code == 200
	},
	// (b) authentication and permission
	"apikey-any-scheme": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "GET", "/clients", nil, "Authorization", "Bearer "+a.acc.APIKey).code == 200
	},
	"token-casefold": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "GET", "/clients", nil, "session-token", strings.ToUpper(a.token)).code == 200
	},
	"session-client-unchecked": func(t *testing.T, s *Server) bool {
		a, b := pair(t, s)
		return call(s, "POST", "/sessions", map[string]any{"email": a.acc.Email, "password": a.acc.Password, "clientId": b.cid}).code == 200
	},
	"lookup-before-auth": func(t *testing.T, s *Server) bool {
		return call(s, "PUT", "/users/999999", userBody("x@example.test")).code == 404
	},
	"empty-apikey-matches": func(t *testing.T, s *Server) bool {
		expect(t, "post user", call(s, "POST", "/users", with(userBody("keyless@example.test"), "password", "secret12")), 200)
		return call(s, "GET", "/clients", nil, "Authorization", "api-key ").code == 200
	},
	// (c) behaviour over time
	"refused-put-partial": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		p := fmt.Sprintf("/users/%d", a.uid)
		expect(t, "refused", call(s, "PUT", p, with(userBody("bad"), "firstName", "Changed"), a.key...), 400)
		return call(s, "GET", p, nil, a.key...).obj()["firstName"] == "Changed"
	},
	"client-app-orphan": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		expect(t, "refused", call(s, "POST", "/clients", with(clientBody("Orphan"), "app", appBody(hashUnknown)), a.key...), 404)
		return len(call(s, "GET", "/clients", nil, a.key...).obj()["clients"].([]any)) != 1
	},
	"old-password-valid": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		expect(t, "change", call(s, "PUT", fmt.Sprintf("/users/%d", a.uid), with(userBody(a.acc.Email), "password", "brand-new-pw"), a.key...), 200)
		return call(s, "POST", "/sessions", map[string]any{"email": a.acc.Email, "password": a.acc.Password}).code == 200
	},
	"stale-client-read": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		p := fmt.Sprintf("/clients/%d", a.cid)
		call(s, "GET", p, nil, a.key...)
		expect(t, "put", call(s, "PUT", p, clientBody("Fresh Name"), a.key...), 200)
		return call(s, "GET", p, nil, a.key...).obj()["name"] != "Fresh Name"
	},
	"old-email-login": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		expect(t, "change", call(s, "PUT", fmt.Sprintf("/users/%d", a.uid), userBody("moved@example.test"), a.key...), 200)
		return call(s, "POST", "/sessions", map[string]any{"email": a.acc.Email, "password": a.acc.Password}).code == 200
	},
	// (d) concurrency
	"email-race": func(t *testing.T, s *Server) bool {
		a, b := pair(t, s)
		for i := 0; i < 10; i++ {
			email := fmt.Sprintf("race%d@example.test", i)
			var ra, rb resp
			concurrently(0, func() {
				ra = call(s, "PUT", fmt.Sprintf("/users/%d", a.uid), userBody(email), a.key...)
			}, func() {
				rb = call(s, "PUT", fmt.Sprintf("/users/%d", b.uid), userBody(email), b.key...)
			})
			if ra.code == 200 && rb.code == 200 {
				return true
			}
		}
		return false
	},
	"password-lost-update": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		p := fmt.Sprintf("/users/%d", a.uid)
		for i := 0; i < 10; i++ {
			pw := fmt.Sprintf("pw-round-%d", i)
			concurrently(time.Millisecond, func() {
				call(s, "PUT", p, with(userBody(a.acc.Email), "firstName", fmt.Sprint("N", i)), a.key...)
			}, func() {
				call(s, "PUT", p, with(userBody(a.acc.Email), "password", pw), a.key...)
			})
			if call(s, "POST", "/sessions", map[string]any{"email": a.acc.Email, "password": pw}).code != 200 {
				return true
			}
		}
		return false
	},
	"app-id-race": func(t *testing.T, s *Server) bool {
		a, b := pair(t, s)
		for i := 0; i < 10; i++ {
			var ra, rb resp
			concurrently(0, func() { ra = call(s, "POST", "/apps", appBody(hashAndroid), a.key...) },
				func() { rb = call(s, "POST", "/apps", appBody(hashIOS), b.key...) })
			if ra.code == 200 && rb.code == 200 && ra.obj()["id"] == rb.obj()["id"] {
				return true
			}
		}
		return false
	},
	"token-collision": func(t *testing.T, s *Server) bool {
		p := s.Accounts()[0]
		for i := 0; i < 10; i++ {
			var ra, rb resp
			concurrently(0, func() {
				ra = call(s, "POST", "/sessions", map[string]any{"email": p[0].Email, "password": p[0].Password})
			}, func() {
				rb = call(s, "POST", "/sessions", map[string]any{"email": p[1].Email, "password": p[1].Password})
			})
			if ra.code == 200 && rb.code == 200 && ra.obj()["token"] == rb.obj()["token"] {
				return true
			}
		}
		return false
	},
	// (e) isolation and secrecy
	"apps-clientid-filter": func(t *testing.T, s *Server) bool {
		a, b := pair(t, s)
		expect(t, "app", call(s, "POST", "/apps", appBody(hashAndroid), a.key...), 200)
		return call(s, "GET", fmt.Sprintf("/apps?clientId=%d", a.cid), nil, b.key...).code == 200
	},
	"password-echo": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		r := call(s, "PUT", fmt.Sprintf("/users/%d", a.uid), with(userBody(a.acc.Email), "password", "echo-me-123"), a.key...)
		return strings.Contains(string(r.raw), "echo-me-123")
	},
	"forbidden-body-leak": func(t *testing.T, s *Server) bool {
		a, b := pair(t, s)
		r := call(s, "POST", "/apps", appBody(hashAndroid), a.key...)
		f := call(s, "GET", fmt.Sprintf("/apps/%d", num(r.obj()["id"])), nil, b.key...)
		return f.code == 403 && strings.Contains(string(f.raw), r.obj()["writeKey"].(string))
	},
	"writekey-from-hash": func(t *testing.T, s *Server) bool {
		a, b := pair(t, s)
		ra := call(s, "POST", "/apps", appBody(hashAndroid), a.key...)
		rb := call(s, "POST", "/apps", appBody(hashAndroid), b.key...)
		return ra.obj()["writeKey"] == rb.obj()["writeKey"]
	},
	// (f) the HTTP and JSON wire
	"charset-415": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "PUT", fmt.Sprintf("/clients/%d", a.cid), clientBody("Cs"),
			h(a.key, []string{"-", "Content-Type", "Content-Type", "application/json; charset=utf-8"})...).code == 415
	},
	"query-raw": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		enc := "%" + fmt.Sprintf("%X", a.token[0]) + a.token[1:]
		return call(s, "GET", "/clients?sessionToken="+enc, nil).code == 401
	},
	"float-id": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "PUT", fmt.Sprintf("/clients/%d", a.cid), rawClient("Float", "2.0"), a.key...).code == 400
	},
	"chunked-empty": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		req := httptest.NewRequest("PUT", fmt.Sprintf("%s/clients/%d", s.BasePath(), a.cid), strings.NewReader(rawClient("Chunk", "1")))
		req.ContentLength = -1
		req.TransferEncoding = []string{"chunked"}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "api-key "+a.acc.APIKey)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec.Code == 400
	},
	// (g) representation
	"currency-numeric": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		cur := call(s, "GET", fmt.Sprintf("/clients/%d", a.cid), nil, a.key...).obj()["currency"].(map[string]any)
		_, isString := cur["code"].(string)
		return !isString
	},
	"writekey-uuid": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return !hex32.MatchString(fmt.Sprint(call(s, "POST", "/apps", appBody(hashAndroid), a.key...).obj()["writeKey"]))
	},
	"empty-collection-null": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		_, isList := call(s, "GET", "/apps", nil, a.key...).obj()["apps"].([]any)
		return !isList
	},
	"single-error-object": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		r := call(s, "PUT", fmt.Sprintf("/clients/%d", a.cid), with(clientBody(""), "name", del), a.key...)
		return r.code == 400 && r.codes() == nil
	},

	// legal readings: the difference
	"partial-put": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		r := call(s, "PUT", fmt.Sprintf("/clients/%d", a.cid), map[string]any{"name": "Only Name"}, a.key...)
		return r.code == 200 && r.obj()["addressCity"] == "London" && r.obj()["name"] == "Only Name"
	},
	"v1-only": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "GET", "/api/v1.0/clients", nil, a.key...).code == 404
	},
	"scheme-case-sensitive": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "GET", "/clients", nil, "Authorization", "API-Key "+a.acc.APIKey).code == 401
	},
	"reject-unknown-fields": func(t *testing.T, s *Server) bool {
		a, _ := pair(t, s)
		return call(s, "PUT", fmt.Sprintf("/clients/%d", a.cid), with(clientBody("U"), "colour", "blue"), a.key...).hasCode("UnknownField")
	},
	"public-catalogues": func(t *testing.T, s *Server) bool {
		return call(s, "GET", "/platforms", nil).code == 200
	},
}

// exempt lists, for each legal reading, the conformance checks its one
// difference touches.
var exempt = map[string][]string{
	"partial-put":           {"put-user-required", "client-required"},
	"v1-only":               {"versions"},
	"scheme-case-sensitive": {"credential-places"},
	"reject-unknown-fields": {"unknown-fields-ignored"},
	"public-catalogues":     {"catalogues-auth"},
}

func TestFaults(t *testing.T) {
	for _, f := range Faults() {
		pr, ok := probes[f.Name]
		if !ok {
			t.Errorf("no probe for %s", f.Name)
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			if pr(t, newSrv(t, "")) {
				t.Fatalf("probe fires on the correct server")
			}
			if !pr(t, newSrv(t, f.Name)) {
				t.Fatalf("probe does not show the fault")
			}
		})
	}
}

func TestLegalReadings(t *testing.T) {
	for _, f := range Faults() {
		if !f.Legal {
			continue
		}
		skip := map[string]bool{}
		for _, n := range exempt[f.Name] {
			skip[n] = true
		}
		if len(skip) == 0 {
			t.Errorf("%s: no exempt checks listed", f.Name)
		}
		for _, c := range checks {
			if skip[c.name] {
				continue
			}
			t.Run(f.Name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				c.fn(t, newSrv(t, f.Name))
			})
		}
	}
}
