package actor

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func st(r resp) string { return fmt.Sprint(r.status) }

func (h *harness) userPath(a Account) string {
	uid, _ := h.ids(a)
	return fmt.Sprintf("/users/%d", uid)
}

// probes: each returns an observation; the correct server and the faulty
// one must give different observations.
var probes = map[string]func(h *harness) string{
	"name-length-counted-in-bytes": func(h *harness) string {
		return st(h.req("POST", "/clients", clientBody(strings.Repeat("é", 200)), key(h.a)...))
	},
	"password-min-five-chars": func(h *harness) string {
		return st(h.req("PUT", h.userPath(h.a), userBody(h.a.Email, "abcde"), key(h.a)...))
	},
	"marketapp-hash-hex-unchecked": func(h *harness) string {
		return st(h.req("POST", "/apps", appBody(strings.Repeat("z", 40)), key(h.a)...))
	},
	"fractional-id-truncated": func(h *harness) string {
		return st(h.req("POST", "/clients", with(clientBody("X"), "currency", map[string]any{"id": 1.5}), key(h.a)...))
	},
	"null-name-accepted": func(h *harness) string {
		return st(h.req("POST", "/clients", clientBody(nil), key(h.a)...))
	},
	"terms-case-insensitive": func(h *harness) string {
		return st(h.req("POST", "/clients", with(clientBody("X"), "terms", "i AGREE"), key(h.a)...))
	},
	"app-name-required-with-hash": func(h *harness) string {
		return st(h.req("POST", "/apps", appBody(hashPQAndroid), key(h.a)...))
	},
	"session-token-header-exact-key": func(h *harness) string {
		tok := h.login(h.a.Email, h.a.Password).str("token")
		return st(h.req("GET", h.userPath(h.a), nil, "session-token", tok))
	},
	"session-token-query-ignored": func(h *harness) string {
		tok := h.login(h.a.Email, h.a.Password).str("token")
		return st(h.req("GET", h.userPath(h.a)+"?sessionToken="+tok, nil))
	},
	"api-key-prefix-match": func(h *harness) string {
		return st(h.req("GET", h.userPath(h.a), nil, "Authorization", "api-key "+h.a.APIKey[:6]))
	},
	"login-password-case-insensitive": func(h *harness) string {
		return st(h.login(h.a.Email, strings.ToUpper(h.a.Password)))
	},
	"not-found-before-auth": func(h *harness) string {
		return st(h.req("PUT", "/users/999999", userBody("x@example.com", nil)))
	},
	"put-user-owner-unchecked": func(h *harness) string {
		return st(h.req("PUT", h.userPath(h.b), userBody("stolen@example.com", "hijacked"), key(h.a)...))
	},
	"put-client-membership-unchecked": func(h *harness) string {
		_, bcid := h.ids(h.b)
		return st(h.req("PUT", fmt.Sprintf("/clients/%d", bcid), clientBody("Mine now"), key(h.a)...))
	},
	"password-in-user-response": func(h *harness) string {
		r := h.req("PUT", h.userPath(h.a), userBody(h.a.Email, nil), key(h.a)...)
		_, has := r.obj()["password"]
		return fmt.Sprint(r.status, has)
	},
	"api-key-in-session-response": func(h *harness) string {
		return fmt.Sprint(strings.Contains(string(h.login(h.a.Email, h.a.Password).body), h.a.APIKey))
	},
	"put-user-applied-before-validation": func(h *harness) string {
		r := h.req("PUT", h.userPath(h.a), userBody("moved@example.com", "abc"), key(h.a)...)
		return st(r) + " " + st(h.login("moved@example.com", h.a.Password))
	},
	"post-clients-keeps-client-when-app-fails": func(h *harness) string {
		r := h.req("POST", "/clients", with(clientBody("Both"), "app", appBody(unknownHash)), key(h.a)...)
		// the client would have taken the next id, 2003
		return st(r) + " " + st(h.req("PUT", "/clients/2003", clientBody("Both"), key(h.a)...))
	},
	"put-client-partial-on-unknown-currency": func(h *harness) string {
		_, cid := h.ids(h.a)
		p := fmt.Sprintf("/clients/%d", cid)
		r := h.req("PUT", p, with(clientBody("Changed"), "vat", "GB1", "currency", map[string]any{"id": 99}), key(h.a)...)
		// a later PUT without vat shows whether the refused one left its vat
		r2 := h.req("PUT", p, clientBody("Later"), key(h.a)...)
		return st(r) + " " + r2.str("vat")
	},
	"app-id-allocated-outside-actor": func(h *harness) string {
		for try := 0; try < 5; try++ {
			var x, y string
			parallel(
				func() { x = h.req("POST", "/apps", appBody(hashPQAndroid), key(h.a)...).str("id") },
				func() { y = h.req("POST", "/apps", appBody(hashNoteIOS), key(h.b)...).str("id") },
			)
			if x == y {
				return "duplicate id"
			}
		}
		return "distinct"
	},
	"put-user-lost-update": func(h *harness) string {
		p := h.userPath(h.a)
		for try := 0; try < 5; try++ {
			pw := fmt.Sprintf("changed-%d", try)
			phone := fmt.Sprintf("555010%d", try)
			parallel(
				func() { h.req("PUT", p, userBody(h.a.Email, pw), key(h.a)...) },
				func() { h.req("PUT", p, with(userBody(h.a.Email, nil), "phoneNumber", phone), key(h.a)...) },
			)
			got := h.req("GET", p, nil, key(h.a)...).str("phoneNumber")
			if h.login(h.a.Email, pw).status != 200 || got != phone {
				return "lost update"
			}
		}
		return "both applied"
	},
	"session-token-counter-race": func(h *harness) string {
		for try := 0; try < 5; try++ {
			var x, y string
			parallel(
				func() { x = h.login(h.a.Email, h.a.Password).str("token") },
				func() { y = h.login(h.b.Email, h.b.Password).str("token") },
			)
			if x == y {
				return "shared token"
			}
		}
		return "distinct"
	},
	"content-type-params-rejected": func(h *harness) string {
		return st(h.req("POST", "/sessions", map[string]any{"email": h.a.Email, "password": h.a.Password}, "Content-Type", "application/json; charset=utf-8"))
	},
	"accept-exact-match": func(h *harness) string {
		return st(h.req("GET", "/platforms", nil, "Accept", "*/*"))
	},
	"chunked-body-rejected": func(h *harness) string {
		body := `{"email":"` + h.a.Email + `","password":"` + h.a.Password + `"}`
		return st(h.req("POST", "/sessions", chunked{strings.NewReader(body)}))
	},
	"leading-whitespace-body-rejected": func(h *harness) string {
		body := "\n  {\"email\":\"" + h.a.Email + `","password":"` + h.a.Password + `"}`
		return st(h.req("POST", "/sessions", body))
	},
	"json-keys-case-insensitive": func(h *harness) string {
		b := with(userBody(h.a.Email, nil), "firstName", "<del>", "FIRSTNAME", "Ann")
		return st(h.req("PUT", h.userPath(h.a), b, key(h.a)...))
	},
	"response-sanitize-wipes-password": func(h *harness) string {
		h.req("PUT", h.userPath(h.a), userBody(h.a.Email, nil), key(h.a)...)
		return st(h.login(h.a.Email, h.a.Password))
	},
	"password-stored-trimmed": func(h *harness) string {
		h.req("PUT", h.userPath(h.a), userBody(h.a.Email, " spaced-pw "), key(h.a)...)
		return st(h.login(h.a.Email, " spaced-pw "))
	},
	"login-lowercases-email": func(h *harness) string {
		h.req("PUT", h.userPath(h.a), userBody("Mixed.Case@Example.com", nil), key(h.a)...)
		return st(h.login("Mixed.Case@Example.com", h.a.Password))
	},
	"names-html-escaped": func(h *harness) string {
		r := h.req("PUT", h.userPath(h.a), with(userBody(h.a.Email, nil), "firstName", "Tom & Jerry"), key(h.a)...)
		return r.str("firstName")
	},
	"null-password-clears": func(h *harness) string {
		h.req("PUT", h.userPath(h.a), userBody(h.a.Email, nil), key(h.a)...)
		return st(h.login(h.a.Email, h.a.Password))
	},
	"error-keys-capitalized": func(h *harness) string {
		return h.req("POST", "/clients", clientBody(nil), key(h.a)...).firstError()
	},
	"malformed-json-500": func(h *harness) string {
		return st(h.req("POST", "/sessions", `{"email": "x"`))
	},
	"forbidden-as-not-found": func(h *harness) string {
		return st(h.req("GET", h.userPath(h.b), nil, key(h.a)...))
	},
	"create-returns-201": func(h *harness) string {
		return st(h.req("POST", "/apps", appBody(hashPQAndroid), key(h.a)...))
	},
	"apps-pattern-trailing-slash": func(h *harness) string {
		return st(h.req("POST", "/apps", appBody(hashPQAndroid), key(h.a)...))
	},
	"deadline-in-nanoseconds": func(h *harness) string {
		for i := 0; i < 30; i++ {
			if r := h.req("GET", "/users/1001", nil, key(h.a)...); r.status != 200 {
				return st(r)
			}
		}
		return "all 200"
	},
}

func TestWrongFaultsAreObservable(t *testing.T) {
	for _, f := range Faults() {
		if f.Legal {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			probe, ok := probes[f.Name]
			if !ok {
				t.Fatal("no probe for fault")
			}
			good := probe(newHarness(t, ""))
			bad := probe(newHarness(t, f.Name))
			if good == bad {
				t.Fatalf("fault not observable: both %q", good)
			}
			t.Logf("correct %q, faulty %q", good, bad)
		})
	}
	for name := range probes {
		if !knownFault(name) {
			t.Errorf("probe for unknown fault %s", name)
		}
	}
}

func TestLegalReadings(t *testing.T) {
	legal := map[string]func(t *testing.T, h *harness, on bool){
		"collection-adds-count": func(t *testing.T, h *harness, on bool) {
			m := h.req("GET", "/platforms", nil).obj()
			if got := m["count"] == float64(2) && m["page"] == float64(1) && m["platforms"] != nil; got != on {
				t.Errorf("on=%v: %v", on, m)
			}
		},
		"write-key-uppercase": func(t *testing.T, h *harness, on bool) {
			wk := h.req("POST", "/apps", appBody(hashPQAndroid), key(h.a)...).str("writeKey")
			re := `^[0-9a-f]{32}$`
			if on {
				re = `^[0-9A-F]{32}$`
			}
			if !regexp.MustCompile(re).MatchString(wk) {
				t.Errorf("on=%v writeKey %q", on, wk)
			}
		},
		"dates-numeric-offset": func(t *testing.T, h *harness, on bool) {
			c := h.login(h.a.Email, h.a.Password).str("created")
			re := `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`
			if on {
				re = `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$`
			}
			if !regexp.MustCompile(re).MatchString(c) {
				t.Errorf("on=%v created %q", on, c)
			}
		},
		"unknown-fields-rejected": func(t *testing.T, h *harness, on bool) {
			r := h.req("PUT", h.userPath(h.a), with(userBody(h.a.Email, nil), "nickname", "annie"), key(h.a)...)
			if on && (r.status != 400 || r.firstError() != "nickname/UnknownField") || !on && r.status != 200 {
				t.Errorf("on=%v: %d %s", on, r.status, r.body)
			}
			if r := h.req("PUT", h.userPath(h.a), userBody(h.a.Email, nil), key(h.a)...); r.status != 200 {
				t.Errorf("on=%v known fields: %d", on, r.status)
			}
		},
		"validation-before-permission": func(t *testing.T, h *harness, on bool) {
			bp := h.userPath(h.b)
			r := h.req("PUT", bp, userBody("not-an-email", nil), key(h.a)...)
			want := 403
			if on {
				want = 400
			}
			if r.status != want {
				t.Errorf("on=%v invalid body on other user: %d", on, r.status)
			}
			if r := h.req("PUT", bp, userBody("fine@example.com", nil), key(h.a)...); r.status != 403 {
				t.Errorf("on=%v valid body on other user: %d", on, r.status)
			}
			_, bcid := h.ids(h.b)
			r = h.req("PUT", fmt.Sprintf("/clients/%d", bcid), clientBody(nil), key(h.a)...)
			if r.status != want {
				t.Errorf("on=%v invalid client body on other client: %d", on, r.status)
			}
		},
	}
	for _, f := range Faults() {
		if !f.Legal {
			continue
		}
		check, ok := legal[f.Name]
		if !ok {
			t.Errorf("no check for legal reading %s", f.Name)
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			check(t, newHarness(t, ""), false)
			check(t, newHarness(t, f.Name), true)
		})
	}
}
