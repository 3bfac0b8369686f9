package layered

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// probe runs a request sequence and summarises what it observed.
type probe func(t *testing.T, s *Server) string

func putSelf(s *Server, a who, body map[string]any, h H) string {
	return status(call(s, "PUT", path("/users/%d", a.userID), body, h))
}

// parallel runs fns at the same time and waits for all of them.
func parallel(fns ...func()) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, f := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			f()
		}()
	}
	close(start)
	wg.Wait()
}

var probes = map[string]probe{
	// 1. validation
	"json-keys-case-insensitive": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := clientBody()
		delete(b, "name")
		b["NAME"] = "Upper"
		return status(call(s, "POST", "/clients", b, key(a.acc)))
	},
	"max-length-counted-in-bytes": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := clientBody()
		b["name"] = strings.Repeat("é", 255)
		return status(call(s, "POST", "/clients", b, key(a.acc)))
	},
	"subscribe-absent-defaults-false": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := userBody(a.acc.Email)
		delete(b, "subscribeBlog")
		return putSelf(s, a, b, key(a.acc))
	},
	"marketapp-hash-regex-unanchored": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		return status(call(s, "POST", "/apps", appBody(hashPuzzle+"a"), key(a.acc)))
	},
	"terms-case-insensitive": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := clientBody()
		b["terms"] = "i AGREE"
		return status(call(s, "POST", "/clients", b, key(a.acc)))
	},
	// 2. authentication
	"auth-scheme-not-checked": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		return putSelf(s, a, userBody(a.acc.Email), H{"Authorization": "Bearer " + a.acc.APIKey})
	},
	"session-token-query-ignored": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		return status(call(s, "PUT", path("/users/%d?sessionToken=%s", a.userID, a.token), userBody(a.acc.Email), nil))
	},
	"api-key-compared-case-insensitively": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		return putSelf(s, a, userBody(a.acc.Email), H{"Authorization": "api-key " + swapCase(a.acc.APIKey)})
	},
	"session-token-accepted-as-api-key": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		return putSelf(s, a, userBody(a.acc.Email), H{"Authorization": "api-key " + a.token})
	},
	// 3. permissions
	"put-user-any-id": func(t *testing.T, s *Server) string {
		a, b := pair(t, s)
		return putSelf(s, b, userBody(b.acc.Email), key(a.acc))
	},
	"put-client-no-membership-check": func(t *testing.T, s *Server) string {
		a, b := pair(t, s)
		return status(call(s, "PUT", path("/clients/%d", b.clientID), clientBody(), key(a.acc)))
	},
	"user-response-includes-password": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		w := call(s, "PUT", path("/users/%d", a.userID), userBody(a.acc.Email), key(a.acc))
		_, has := decode(t, w)["password"]
		return fmt.Sprint(w.Code, has, strings.Contains(w.Body.String(), a.acc.Password))
	},
	"caller-in-shared-field": func(t *testing.T, s *Server) string {
		a, b := pair(t, s)
		var mu sync.Mutex
		codes := map[string]int{}
		for round := 0; round < 10; round++ {
			parallel(
				func() { putSelf(s, a, userBody(a.acc.Email), key(a.acc)) },
				func() {
					c := putSelf(s, a, userBody(a.acc.Email), key(b.acc)) // B on A
					mu.Lock()
					codes[c]++
					mu.Unlock()
				},
			)
		}
		if codes["200"] > 0 {
			return "B modified A"
		}
		return fmt.Sprint(codes)
	},
	// 4. refused request changes nothing
	"post-clients-keeps-client-when-app-fails": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := clientBody()
		b["app"] = appBody(hashUnknown)
		c := status(call(s, "POST", "/clients", b, key(a.acc)))
		return fmt.Sprint(c, count(t, s, key(a.acc), "/clients", "clients"))
	},
	"put-user-saved-before-client-fails": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := userBody(a.acc.Email)
		b["password"] = "brand-new-pw"
		c := clientBody()
		c["app"] = appBody(hashUnknown)
		b["client"] = c
		code := putSelf(s, a, b, key(a.acc))
		return fmt.Sprint(code, login(s, a.acc.Email, "brand-new-pw").Code)
	},
	"put-client-shallow-copy-mutates-on-reject": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := clientBody()
		b["name"] = "Should Not Stick"
		b["currency"] = map[string]any{"id": 42}
		p := path("/clients/%d", a.clientID)
		code := status(call(s, "PUT", p, b, key(a.acc)))
		return fmt.Sprint(code, decode(t, call(s, "GET", p, nil, key(a.acc)))["name"])
	},
	"post-apps-inserted-before-plan-check": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := appBody(hashPuzzle)
		b["nextplan"] = map[string]any{"id": 77}
		code := status(call(s, "POST", "/apps", b, key(a.acc)))
		return fmt.Sprint(code, count(t, s, key(a.acc), "/apps", "apps"))
	},
	// 5. concurrency
	"app-id-allocation-racy": func(t *testing.T, s *Server) string {
		a, b := pair(t, s)
		dup := 0
		for round := 0; round < 5; round++ {
			var ida, idb any
			parallel(
				func() { ida = decode(t, call(s, "POST", "/apps", appBody(hashPuzzle), key(a.acc)))["id"] },
				func() { idb = decode(t, call(s, "POST", "/apps", appBody(hashPuzzle), key(b.acc)))["id"] },
			)
			if ida == idb {
				dup++
			}
		}
		return fmt.Sprint(dup > 0)
	},
	"email-unique-check-then-act": func(t *testing.T, s *Server) string {
		a, b := pair(t, s)
		both := 0
		for round := 0; round < 5; round++ {
			email := fmt.Sprintf("shared%d@example.test", round)
			var ca, cb string
			parallel(
				func() { ca = putSelf(s, a, userBody(email), key(a.acc)) },
				func() { cb = putSelf(s, b, userBody(email), key(b.acc)) },
			)
			if ca == "200" && cb == "200" {
				both++
			}
		}
		return fmt.Sprint(both > 0)
	},
	"clients-map-lost-update": func(t *testing.T, s *Server) string {
		a, b := pair(t, s)
		for round := 0; round < 3; round++ {
			parallel(
				func() { call(s, "POST", "/clients", clientBody(), key(a.acc)) },
				func() { call(s, "POST", "/clients", clientBody(), key(b.acc)) },
			)
		}
		return fmt.Sprint(count(t, s, key(a.acc), "/clients", "clients") + count(t, s, key(b.acc), "/clients", "clients"))
	},
	// 6. wire forms
	"content-type-params-rejected": func(t *testing.T, s *Server) string {
		a := s.Accounts()[0][0]
		raw, _ := json.Marshal(map[string]any{"email": a.Email, "password": a.Password})
		return status(call(s, "POST", "/sessions", string(raw), H{"Content-Type": "application/json; charset=utf-8"}))
	},
	"accept-not-exact-json-406": func(t *testing.T, s *Server) string {
		a := s.Accounts()[0][0]
		return status(call(s, "POST", "/sessions", map[string]any{"email": a.Email, "password": a.Password}, H{"Accept": "application/json, */*;q=0.5"}))
	},
	"chunked-body-read-as-empty": func(t *testing.T, s *Server) string {
		a := s.Accounts()[0][0]
		return status(call(s, "POST", "/sessions", map[string]any{"email": a.Email, "password": a.Password}, H{"-chunked": ""}))
	},
	"escaped-app-key-skips-check": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		raw, _ := json.Marshal(clientBody())
		body := strings.TrimSuffix(string(raw), "}") + `,"\u0061pp":{"name":"X","platform":{"id":1},"nextplan":{"id":1}}}`
		return status(call(s, "PUT", path("/clients/%d", a.clientID), body, key(a.acc)))
	},
	"integral-number-forms-rejected": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		raw, _ := json.Marshal(clientBody())
		body := strings.Replace(string(raw), `"currency":{"id":1}`, `"currency":{"id":1.0}`, 1)
		return status(call(s, "POST", "/clients", body, key(a.acc)))
	},
	// 7. round trips
	"password-trimmed-on-set": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := userBody(a.acc.Email)
		b["password"] = "  padded secret  "
		putSelf(s, a, b, key(a.acc))
		return status(login(s, a.acc.Email, "  padded secret  "))
	},
	"email-lowercased-on-store": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		w := call(s, "PUT", path("/users/%d", a.userID), userBody("Mixed.Case@Example.test"), key(a.acc))
		return fmt.Sprint(decode(t, w)["email"])
	},
	"password-change-not-used-at-login": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := userBody(a.acc.Email)
		b["password"] = "another-secret"
		putSelf(s, a, b, key(a.acc))
		return fmt.Sprint(login(s, a.acc.Email, "another-secret").Code, login(s, a.acc.Email, a.acc.Password).Code)
	},
	"email-change-login-stale-index": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		putSelf(s, a, userBody("moved@example.test"), key(a.acc))
		return fmt.Sprint(login(s, "moved@example.test", a.acc.Password).Code, login(s, a.acc.Email, a.acc.Password).Code)
	},
	// 8. error shape
	"missing-auth-403": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		return putSelf(s, a, userBody(a.acc.Email), nil)
	},
	"other-account-404": func(t *testing.T, s *Server) string {
		a, b := pair(t, s)
		return status(call(s, "PUT", path("/clients/%d", b.clientID), clientBody(), key(a.acc)))
	},
	"error-body-object-not-array": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := userBody("bad")
		w := call(s, "PUT", path("/users/%d", a.userID), b, key(a.acc))
		return fmt.Sprint(w.Code, w.Body.String()[:1])
	},
	"fieldname-go-struct-name": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := userBody(a.acc.Email)
		delete(b, "firstName")
		return fmt.Sprint(decodeErrs(t, call(s, "PUT", path("/users/%d", a.userID), b, key(a.acc)))[0]["fieldName"])
	},
	"lastname-row-wrong-code": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := userBody(a.acc.Email)
		b["lastName"] = ""
		return fmt.Sprint(decodeErrs(t, call(s, "PUT", path("/users/%d", a.userID), b, key(a.acc)))[0]["error"])
	},
	"currency-code-numeric": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		w := call(s, "POST", "/clients", clientBody(), key(a.acc))
		return fmt.Sprintf("%#v", decode(t, w)["currency"].(map[string]any)["code"])
	},
	// legal readings
	"base-path-v1-only": func(t *testing.T, s *Server) string {
		return fmt.Sprintf("%s %d %d", s.BasePath(), call(s, "GET", "!/api/v1.0/platforms", nil, nil).Code, call(s, "GET", "!/api/v1/platforms", nil, nil).Code)
	},
	"session-bad-credentials-400": func(t *testing.T, s *Server) string {
		a := s.Accounts()[0][0]
		w := login(s, a.Email, "wrong-password")
		return fmt.Sprintf("%d %s", w.Code, w.Body.String())
	},
	"collections-add-count": func(t *testing.T, s *Server) string {
		return call(s, "GET", "/platforms", nil, nil).Body.String()
	},
	"reject-unknown-fields": func(t *testing.T, s *Server) string {
		a, _ := pair(t, s)
		b := userBody(a.acc.Email)
		b["nickname"] = "nick"
		w := call(s, "PUT", path("/users/%d", a.userID), b, key(a.acc))
		return fmt.Sprintf("%d %s", w.Code, w.Body.String())
	},
	"login-email-exact-case": func(t *testing.T, s *Server) string {
		a := s.Accounts()[0][0]
		return status(login(s, strings.ToUpper(a.Email), a.Password))
	},
}

// legalExpect is what choices.md says each legal reading does, checked on the probe's output.
var legalExpect = map[string]string{
	"base-path-v1-only":           "/api/v1 404 200",
	"session-bad-credentials-400": `400 [{"fieldName":"password","error":"InvalidCredentials","message":"Unknown email or wrong password"}]`,
	"collections-add-count":       `{"count":2,"platforms":[{"id":1,"name":"Android"},{"id":2,"name":"iOS"}]}`,
	"reject-unknown-fields":       `400 [{"fieldName":"nickname","error":"UnknownField","message":"Unknown field nickname"}]`,
	"login-email-exact-case":      "401",
}

func TestEveryFaultIsObservable(t *testing.T) {
	for _, f := range Faults() {
		t.Run(f.Name, func(t *testing.T) {
			p, ok := probes[f.Name]
			if !ok {
				t.Fatal("no probe")
			}
			good := p(t, mustNew(t, ""))
			bad := p(t, mustNew(t, f.Name))
			if good == bad {
				t.Fatalf("fault not observable: both %q", good)
			}
			if f.Legal {
				if want := legalExpect[f.Name]; bad != want {
					t.Fatalf("legal reading: got %q want %q", bad, want)
				}
			}
			t.Logf("correct %q, %s %q", good, map[bool]string{true: "legal", false: "fault"}[f.Legal], bad)
		})
	}
	if len(probes) != len(Faults()) {
		t.Fatalf("%d probes for %d faults", len(probes), len(Faults()))
	}
}

// Legal readings must not change anything else: the correct server's main flows still pass.
func TestLegalReadingsKeepCoreFlows(t *testing.T) {
	for _, f := range Faults() {
		if !f.Legal {
			continue
		}
		s := mustNew(t, f.Name)
		a, b := pair(t, s)
		if c := putSelf(s, a, userBody(a.acc.Email), key(a.acc)); c != "200" {
			t.Errorf("%s: PUT self %s", f.Name, c)
		}
		if c := putSelf(s, b, userBody(b.acc.Email), key(a.acc)); c != "403" {
			t.Errorf("%s: PUT other %s", f.Name, c)
		}
		if c := status(call(s, "POST", "/apps", appBody(hashPuzzle), key(a.acc))); c != "200" {
			t.Errorf("%s: POST /apps %s", f.Name, c)
		}
	}
}
