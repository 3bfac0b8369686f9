package reducer

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// Each wrong fault has one scenario whose observation differs from the
// correct server's. The correct server's observation must be stable.
var faultScenarios = map[string]func(h *harness) string{
	// 1. validation and limits
	"password-length-counts-bytes": func(h *harness) string {
		return codes(h.do("PUT", "/users/1", userBody(h.A.Email, "ééé"), key(h.A)...))
	},
	"float-id-truncated": func(h *harness) string {
		return codes(h.do("POST", "/clients", with(clientBody("C"), "currency", map[string]any{"id": 1.5}), key(h.A)...))
	},
	"terms-case-insensitive": func(h *harness) string {
		return codes(h.do("POST", "/clients", with(clientBody("C"), "terms", "i AGREE"), key(h.A)...))
	},
	"put-client-app-ignored": func(h *harness) string {
		return codes(h.do("PUT", "/clients/1", with(clientBody("C"), "app", appBody(hashPuzzleAndroid)), key(h.A)...))
	},
	"null-app-name-stringified": func(h *harness) string {
		return codes(h.do("POST", "/apps", `{"name":null,"platform":{"id":1},"nextplan":{"id":1}}`, key(h.A)...))
	},
	"put-user-absent-fields-kept": func(h *harness) string {
		return codes(h.do("PUT", "/users/1", with(userBody(h.A.Email, nil), "lastName", absent), key(h.A)...))
	},
	"marketapp-hash-length-unchecked": func(h *harness) string {
		return codes(h.do("POST", "/apps", appBody(hashPuzzleAndroid[:39]), key(h.A)...))
	},
	// 2. authentication
	"api-key-without-scheme-accepted": func(h *harness) string {
		return codes(h.do("PUT", "/users/1", userBody(h.A.Email, nil), "Authorization", h.A.APIKey))
	},
	"session-token-query-ignored": func(h *harness) string {
		tok := h.token(h.A.Email, h.A.Password)
		return codes(h.do("PUT", "/users/1?sessionToken="+tok, userBody(h.A.Email, nil)))
	},
	"login-index-keeps-old-password": func(h *harness) string {
		h.do("PUT", "/users/1", userBody(h.A.Email, "brand-new-pw"), key(h.A)...)
		return codes(h.login(h.A.Email, "brand-new-pw"), h.login(h.A.Email, h.A.Password))
	},
	"api-key-as-session-token-accepted": func(h *harness) string {
		return codes(h.do("PUT", "/users/1", userBody(h.A.Email, nil), "session-token", h.A.APIKey))
	},
	// 3. permissions and isolation
	"put-user-ownership-unchecked": func(h *harness) string {
		return codes(h.do("PUT", "/users/2", userBody("taken@example.com", "hijacked"), key(h.A)...))
	},
	"client-check-compares-user-id": func(h *harness) string {
		r := h.do("POST", "/clients", clientBody("Second"), key(h.A)...)
		id := num(get(r.body, "id"))
		return codes(h.do("PUT", fmt.Sprintf("/clients/%d", id), clientBody("Second renamed"), key(h.A)...))
	},
	"user-response-includes-password": func(h *harness) string {
		r := h.do("PUT", "/users/1", userBody(h.A.Email, nil), key(h.A)...)
		return fmt.Sprint(has(r.body, "password"), strings.Contains(r.raw, h.A.Password))
	},
	"session-client-membership-unchecked": func(h *harness) string {
		return codes(h.login(h.A.Email, h.A.Password, "clientId", 2))
	},
	// 4. a refused request changes nothing
	"post-clients-invalid-app-keeps-client": func(h *harness) string {
		r1 := h.do("POST", "/clients", with(clientBody("Both"), "app", appBody(strings.Repeat("ab", 20))), key(h.A)...)
		r2 := h.do("GET", "/clients/3", nil, key(h.A)...)
		return codes(r1, r2)
	},
	"put-user-password-set-before-client-validation": func(h *harness) string {
		r1 := h.do("PUT", "/users/1", with(userBody(h.A.Email, "changed-pw"), "client", map[string]any{}), key(h.A)...)
		return codes(r1, h.login(h.A.Email, "changed-pw"))
	},
	"email-index-moved-before-validation": func(h *harness) string {
		r1 := h.do("PUT", "/users/1", with(userBody("moved@example.com", nil), "lastName", ""), key(h.A)...)
		return codes(r1, h.login("moved@example.com", h.A.Password), h.login(h.A.Email, h.A.Password))
	},
	"client-name-written-before-validation": func(h *harness) string {
		r1 := h.do("PUT", "/clients/1", with(clientBody("Renamed"), "currency", map[string]any{"id": 99}), key(h.A)...)
		r2 := h.do("GET", "/clients/1", nil, key(h.A)...)
		return codes(r1) + fmt.Sprint(get(r2.body, "name"))
	},
	// 5. concurrency
	"cas-replaced-by-store": func(h *harness) string {
		var ra, rb resp
		parallel(
			func() {
				ra = h.do("PUT", "/users/1", with(userBody(h.A.Email, nil), "firstName", "Concurrent"), key(h.A)...)
			},
			func() { rb = h.do("POST", "/apps", appBody(hashPuzzleAndroid), key(h.B)...) },
		)
		u := h.do("GET", "/users/1", nil, key(h.A)...)
		a := h.do("GET", "/apps/1", nil, key(h.B)...)
		return codes(ra, rb, a) + fmt.Sprint(get(u.body, "firstName"))
	},
	"app-id-reserved-before-retry": func(h *harness) string {
		var ra, rb resp
		parallel(
			func() { ra = h.do("POST", "/apps", appBody(hashPuzzleAndroid), key(h.A)...) },
			func() { rb = h.do("POST", "/apps", appBody(hashWeatherIOS), key(h.B)...) },
		)
		ids := []int64{num(get(ra.body, "id")), num(get(rb.body, "id"))}
		slices.Sort(ids)
		return codes(ra, rb) + fmt.Sprint(ids)
	},
	"email-uniqueness-checked-in-shell": func(h *harness) string {
		var ra, rb resp
		parallel(
			func() { ra = h.do("PUT", "/users/1", userBody("same@example.com", nil), key(h.A)...) },
			func() { rb = h.do("PUT", "/users/2", userBody("same@example.com", nil), key(h.B)...) },
		)
		c := []string{codes(ra), codes(rb)}
		slices.Sort(c)
		return strings.Join(c, ",")
	},
	"session-write-conflict-ignored": func(h *harness) string {
		var ra, rb resp
		parallel(
			func() { ra = h.login(h.A.Email, h.A.Password) },
			func() { rb = h.login(h.B.Email, h.B.Password) },
		)
		ta, _ := get(ra.body, "token").(string)
		tb, _ := get(rb.body, "token").(string)
		return codes(ra, rb, h.do("GET", "/users/1", nil, "session-token", ta), h.do("GET", "/users/2", nil, "session-token", tb))
	},
	// 6. equivalent wire forms
	"content-type-parameters-rejected": func(h *harness) string {
		return codes(h.do("PUT", "/users/1", userBody(h.A.Email, nil), append(key(h.A), "Content-Type", "application/json; charset=utf-8")...))
	},
	"accept-wildcard-rejected": func(h *harness) string {
		return codes(h.do("GET", "/platforms", nil, "Accept", "*/*"))
	},
	"chunked-body-ignored": func(h *harness) string {
		return codes(h.do("PUT", "/users/1", userBody(h.A.Email, nil), append(key(h.A), "chunked", "")...))
	},
	"json-decimal-id-rejected": func(h *harness) string {
		return codes(h.do("POST", "/apps", `{"marketapp":{"hash":"`+hashPuzzleAndroid+`"},"nextplan":{"id":1.0}}`, key(h.A)...))
	},
	// 7. round trips
	"email-lowercased-on-store": func(h *harness) string {
		return fmt.Sprint(get(h.do("PUT", "/users/1", userBody("Ann.Lee@Example.COM", nil), key(h.A)...).body, "email"))
	},
	"password-trimmed-on-store": func(h *harness) string {
		h.do("PUT", "/users/1", userBody(h.A.Email, " spaced pw "), key(h.A)...)
		return codes(h.login(h.A.Email, " spaced pw "))
	},
	"email-index-not-updated-on-change": func(h *harness) string {
		h.do("PUT", "/users/1", userBody("new-address@example.com", nil), key(h.A)...)
		return codes(h.login("new-address@example.com", h.A.Password), h.login(h.A.Email, h.A.Password))
	},
	"name-length-counts-bytes": func(h *harness) string {
		r := h.do("POST", "/clients", clientBody(strings.Repeat("é", 200)), key(h.A)...)
		return codes(r) + fmt.Sprint(get(r.body, "name") == strings.Repeat("é", 200))
	},
	"password-last-changed-on-every-put": func(h *harness) string {
		r1 := h.do("PUT", "/users/1", userBody(h.A.Email, nil), key(h.A)...)
		r2 := h.do("PUT", "/users/1", userBody(h.A.Email, nil), key(h.A)...)
		return fmt.Sprint(get(r1.body, "passwordLastChanged") == get(r2.body, "passwordLastChanged"))
	},
	// 8. error shape and status codes
	"validation-error-object-not-array": func(h *harness) string {
		r := h.do("PUT", "/users/1", map[string]any{}, key(h.A)...)
		_, isArr := r.body.([]any)
		return codes(r) + fmt.Sprint(isArr)
	},
	"missing-auth-403": func(h *harness) string {
		return codes(h.do("PUT", "/users/1", userBody(h.A.Email, nil)))
	},
	"foreign-user-404": func(h *harness) string {
		return codes(h.do("PUT", "/users/2", userBody(h.B.Email, nil), key(h.A)...))
	},
	"version-segment-unchecked": func(h *harness) string {
		return codes(h.do("PUT", "/v2/users/1", userBody(h.A.Email, nil), key(h.A)...))
	},
}

func TestEveryWrongFaultIsObservable(t *testing.T) {
	for _, f := range Faults() {
		if f.Legal {
			if _, ok := faultScenarios[f.Name]; ok {
				t.Fatalf("legal reading %s has a wrong-fault scenario", f.Name)
			}
			continue
		}
		scen, ok := faultScenarios[f.Name]
		if !ok {
			t.Fatalf("no scenario for wrong fault %s", f.Name)
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			good1 := scen(newH(t, ""))
			good2 := scen(newH(t, ""))
			if good1 != good2 {
				t.Fatalf("correct server unstable: %q vs %q", good1, good2)
			}
			bad := scen(newH(t, f.Name))
			if bad == good1 {
				t.Fatalf("fault not observable: both %q", bad)
			}
			t.Logf("correct %q, fault %q", good1, bad)
		})
	}
	if len(faultScenarios) != len(Faults())-5 {
		t.Fatalf("%d scenarios for %d wrong faults", len(faultScenarios), len(Faults())-5)
	}
}

func TestLegalReadings(t *testing.T) {
	t.Run("unknown-id-403", func(t *testing.T) {
		for fault, want := range map[string]string{"": "404,404,404,404,403", "unknown-id-403": "403,403,403,403,403"} {
			h := newH(t, fault)
			got := codes(
				h.do("PUT", "/users/99", userBody("x@example.com", nil), key(h.A)...),
				h.do("PUT", "/clients/99", clientBody("X"), key(h.A)...),
				h.do("GET", "/apps/99", nil, key(h.A)...),
				h.login(h.A.Email, h.A.Password, "clientId", 99),
				h.do("PUT", "/users/2", userBody(h.B.Email, nil), key(h.A)...),
			)
			if got != want {
				t.Fatalf("%q: %s, want %s", fault, got, want)
			}
		}
	})
	t.Run("password-change-revokes-sessions", func(t *testing.T) {
		for fault, want := range map[string]string{"": "200,200,200,200", "password-change-revokes-sessions": "200,401,200,200"} {
			h := newH(t, fault)
			t1 := h.token(h.A.Email, h.A.Password)
			t2 := h.token(h.A.Email, h.A.Password)
			tb := h.token(h.B.Email, h.B.Password)
			h.do("PUT", "/users/1", userBody(h.A.Email, "another-pw"), "session-token", t1)
			got := codes(
				h.do("GET", "/users/1", nil, "session-token", t1),
				h.do("GET", "/users/1", nil, "session-token", t2),
				h.do("GET", "/users/1", nil, key(h.A)...),
				h.do("GET", "/users/2", nil, "session-token", tb),
			)
			if got != want {
				t.Fatalf("%q: %s, want %s", fault, got, want)
			}
			// a null password changes nothing
			t3 := h.token(h.A.Email, "another-pw")
			h.do("PUT", "/users/1", userBody(h.A.Email, nil), key(h.A)...)
			if r := h.do("GET", "/users/1", nil, "session-token", t3); r.code != 200 {
				t.Fatal(r.code)
			}
		}
	})
	t.Run("put-client-absent-optional-kept", func(t *testing.T) {
		for fault, want := range map[string]string{"": "<nil> <nil> <nil>", "put-client-absent-optional-kept": "VAT1 Floor 2 <nil>"} {
			h := newH(t, fault)
			h.do("PUT", "/clients/1", with(clientBody("C"), "vat", "VAT1", "addressLine2", "Floor 2"), key(h.A)...)
			r := h.do("PUT", "/clients/1", clientBody("C"), key(h.A)...)
			r2 := h.do("PUT", "/clients/1", with(clientBody("C"), "vat", nil), key(h.A)...)
			got := fmt.Sprintf("%v %v %v", get(r.body, "vat"), get(r.body, "addressLine2"), get(r2.body, "vat"))
			if got != want {
				t.Fatalf("%q: %s, want %s", fault, got, want)
			}
		}
	})
	t.Run("collection-wrapper-adds-count", func(t *testing.T) {
		for fault, want := range map[string]string{
			"":                              `{"platforms":[{"id":1,"name":"Android"},{"id":2,"name":"iOS"}]}`,
			"collection-wrapper-adds-count": `{"count":2,"page":1,"platforms":[{"id":1,"name":"Android"},{"id":2,"name":"iOS"}]}`,
		} {
			h := newH(t, fault)
			if r := h.do("GET", "/platforms", nil); strings.TrimSpace(r.raw) != want {
				t.Fatalf("%q: %s", fault, r.raw)
			}
			h.do("POST", "/apps", appBody(hashPuzzleAndroid), key(h.A)...)
			r := h.do("GET", "/apps", nil, key(h.A)...)
			if len(get(r.body, "apps").([]any)) != 1 || has(r.body, "count") != (fault != "") {
				t.Fatal(r.raw)
			}
		}
	})
	t.Run("non-json-content-type-415", func(t *testing.T) {
		for fault, want := range map[string]string{"": "200,200,200,200,200,401", "non-json-content-type-415": "415,415,200,200,200,401"} {
			h := newH(t, fault)
			b := userBody(h.A.Email, nil)
			got := codes(
				h.do("PUT", "/users/1", b, append(key(h.A), "Content-Type", "text/plain")...),
				h.do("PUT", "/users/1", b, append(key(h.A), "-Content-Type", "")...),
				h.do("PUT", "/users/1", b, append(key(h.A), "Content-Type", "Application/JSON; charset=UTF-8")...),
				h.do("PUT", "/users/1", b, append(key(h.A), "Content-Type", "application/merge-patch+json")...),
				h.do("GET", "/users/1", nil, append(key(h.A), "Content-Type", "text/plain")...),
				h.do("PUT", "/users/1", b, "Content-Type", "text/plain"),
			)
			if got != want {
				t.Fatalf("%q: %s, want %s", fault, got, want)
			}
		}
	})
}

func TestChoicesListsEveryFault(t *testing.T) {
	doc, err := os.ReadFile("choices.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Faults() {
		kind := "wrong"
		if f.Legal {
			kind = "legal"
		}
		row := fmt.Sprintf("| `%s` | %s | %d |", f.Name, kind, faultClass[f.Name])
		if !strings.Contains(string(doc), row) {
			t.Errorf("choices.md lacks the row %q", row)
		}
	}
	for _, h := range []string{hashPuzzleAndroid, hashWeatherIOS, "/v1.0"} {
		if !strings.Contains(string(doc), h) {
			t.Errorf("choices.md lacks %s", h)
		}
	}
}
