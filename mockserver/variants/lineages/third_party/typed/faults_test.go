package typed

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// probe runs a request sequence and summarises what it observed.
type probe func(a *api) string

func code(r resp) string { return fmt.Sprint(r.Code) }

func concurrently(fns ...func()) {
	var wg sync.WaitGroup
	for _, f := range fns {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
}

var probes = map[string]probe{
	// 1
	FMaxCountsBytes: func(a *api) string {
		return code(a.as(a.A, "PUT", "/users/"+a.userID(a.A), userBody(a.A, map[string]any{"firstName": strings.Repeat("é", 200)})))
	},
	FPasswordMinBytes: func(a *api) string {
		return code(a.as(a.A, "PUT", "/users/"+a.userID(a.A), userBody(a.A, map[string]any{"password": "ééé"})))
	},
	FRequiredRejectsFalse: func(a *api) string {
		return code(a.as(a.A, "PUT", "/users/"+a.userID(a.A), userBody(a.A, map[string]any{"subscribeBlog": false})))
	},
	FTermsCaseInsensitive: func(a *api) string {
		return code(a.as(a.A, "POST", "/clients", clientBody(map[string]any{"terms": "i AGREE"})))
	},
	FNullCurrencyPanics: func(a *api) string {
		return code(a.as(a.A, "POST", "/clients", clientBody(map[string]any{"currency": nil})))
	},
	// 2
	FAuthAfterValidation: func(a *api) string { return code(a.do("POST", "/clients", "{}", nil)) },
	FAPIKeyPrefix: func(a *api) string {
		return code(a.do("GET", "/users/"+a.userID(a.A), nil, map[string]string{"Authorization": "api-key " + a.A.APIKey[:8]}))
	},
	FSessionQueryIgnored: func(a *api) string {
		l := a.login(a.A.Email, a.A.Password)
		return code(a.do("GET", "/users/"+l.str("userId")+"?sessionToken="+l.str("token"), nil, nil))
	},
	FLoginMissingPassword: func(a *api) string {
		return code(a.do("POST", "/sessions", map[string]any{"email": a.A.Email}, nil))
	},
	// 3
	FPutUserNoOwnerCheck: func(a *api) string {
		return code(a.as(a.A, "PUT", "/users/"+a.userID(a.B), userBody(a.B, map[string]any{"password": "hijacked!"})))
	},
	FPutClientNoMember: func(a *api) string {
		return code(a.as(a.A, "PUT", "/clients/"+a.clientID(a.B), clientBody(map[string]any{"name": "pwned"})))
	},
	FUserLeaksPasswordHash: func(a *api) string {
		b := string(a.me(a.A).Body)
		return fmt.Sprint(strings.Contains(b, "password\""), strings.Contains(b, "Hash"))
	},
	FWriteKeyFromHash: func(a *api) string {
		ka := a.as(a.A, "POST", "/apps", appBody(nil)).str("writeKey")
		kb := a.as(a.B, "POST", "/apps", appBody(nil)).str("writeKey")
		return fmt.Sprint(ka == kb)
	},
	FSharedPhoneCountry: func(a *api) string {
		a.as(a.A, "PUT", "/users/"+a.userID(a.A), userBody(a.A, map[string]any{
			"phoneCountry": map[string]any{"id": 44, "name": "Hacked (+0)", "dialCode": "+0"}}))
		return a.me(a.B).str("phoneCountry.name")
	},
	// 4
	FClientBeforeApp: func(a *api) string {
		r := a.as(a.A, "POST", "/clients", clientBody(map[string]any{"name": "Half", "app": appBody(map[string]any{"nextplan": map[string]any{"id": 99}})}))
		return fmt.Sprint(r.Code, len(clientsOf(a, a.A)))
	},
	FUserBeforeClient: func(a *api) string {
		uid := a.userID(a.A)
		r := a.as(a.A, "PUT", "/users/"+uid, userBody(a.A, map[string]any{"firstName": "Changed", "client": clientBody(map[string]any{"name": ""})}))
		return fmt.Sprint(r.Code, a.as(a.A, "GET", "/users/"+uid, nil).str("firstName"))
	},
	FClientUpdateBeforeApp: func(a *api) string {
		cid := a.clientID(a.A)
		r := a.as(a.A, "PUT", "/clients/"+cid, clientBody(map[string]any{"name": "Sneaky", "app": appBody(nil)}))
		return fmt.Sprint(r.Code, a.as(a.A, "GET", "/clients/"+cid, nil).str("name"))
	},
	// 5
	FAppIDRace: func(a *api) string {
		ids := make([]string, 6)
		var fns []func()
		for i := range ids {
			fns = append(fns, func() { ids[i] = a.as(a.A, "POST", "/apps", appBody(nil)).str("id") })
		}
		concurrently(fns...)
		set := map[string]bool{}
		for _, id := range ids {
			set[id] = true
		}
		return fmt.Sprint(len(set))
	},
	FEmailUniqueRace: func(a *api) string {
		ua, ub := a.userID(a.A), a.userID(a.B)
		var ra, rb resp
		concurrently(
			func() {
				ra = a.as(a.A, "PUT", "/users/"+ua, userBody(a.A, map[string]any{"email": "shared@example.com"}))
			},
			func() {
				rb = a.as(a.B, "PUT", "/users/"+ub, userBody(a.B, map[string]any{"email": "shared@example.com"}))
			},
		)
		c := []int{ra.Code, rb.Code}
		sort.Ints(c)
		return fmt.Sprint(c)
	},
	FPasswordLostUpd: func(a *api) string {
		uid := a.userID(a.A)
		concurrently(
			func() { a.as(a.A, "PUT", "/users/"+uid, userBody(a.A, map[string]any{"password": "changed-pw"})) },
			func() {
				time.Sleep(5 * time.Millisecond)
				a.as(a.A, "PUT", "/users/"+uid, userBody(a.A, map[string]any{"firstName": "Other"}))
			},
		)
		return code(a.login(a.A.Email, "changed-pw"))
	},
	FSessionTokenRace: func(a *api) string {
		var ta, tb string
		concurrently(
			func() { ta = a.login(a.A.Email, a.A.Password).str("token") },
			func() { tb = a.login(a.B.Email, a.B.Password).str("token") },
		)
		return fmt.Sprint(ta == tb)
	},
	// 6
	FContentTypeParams: func(a *api) string {
		return code(a.do("PUT", "/users/"+a.userID(a.A), mustJSON(userBody(a.A, nil)),
			map[string]string{"Authorization": "api-key " + a.A.APIKey, "Content-Type": "application/json; charset=utf-8"}))
	},
	FAcceptListRejected: func(a *api) string {
		return code(a.do("GET", "/platforms", nil, map[string]string{"Accept": "text/html, application/json"}))
	},
	FChunkedBodyEmpty: func(a *api) string {
		a.live()
		req, _ := http.NewRequest("PUT", a.ts.URL+a.s.BasePath()+"/users/"+a.userID(a.A),
			io.MultiReader(strings.NewReader(mustJSON(userBody(a.A, nil)))))
		req.Header.Set("Authorization", "api-key "+a.A.APIKey)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err.Error()
		}
		res.Body.Close()
		return fmt.Sprint(res.StatusCode)
	},
	FJSONKeysCI: func(a *api) string {
		b := userBody(a.A, map[string]any{"firstName": "<delete>", "FIRSTNAME": "Shouty"})
		return code(a.as(a.A, "PUT", "/users/"+a.userID(a.A), b))
	},
	FPasswordNullSubstr: func(a *api) string {
		b := strings.Replace(mustJSON(userBody(a.A, nil)), `"password":null`, `"password": null`, 1)
		return code(a.as(a.A, "PUT", "/users/"+a.userID(a.A), b))
	},
	FAppKeySubstr: func(a *api) string {
		return code(a.as(a.A, "PUT", "/clients/"+a.clientID(a.A), clientBody(map[string]any{"name": "app"})))
	},
	// 7
	FEmailLowercased: func(a *api) string {
		return a.as(a.A, "PUT", "/users/"+a.userID(a.A), userBody(a.A, map[string]any{"email": "Mixed.Case@Example.com"})).str("email")
	},
	FPasswordTrimmed: func(a *api) string {
		a.as(a.A, "PUT", "/users/"+a.userID(a.A), userBody(a.A, map[string]any{"password": " padded pw "}))
		return code(a.login(a.A.Email, " padded pw "))
	},
	FLoginIndexStale: func(a *api) string {
		a.as(a.A, "PUT", "/users/"+a.userID(a.A), userBody(a.A, map[string]any{"email": "moved@example.com"}))
		return code(a.login("moved@example.com", a.A.Password))
	},
	FEmptyOptionalOmits: func(a *api) string {
		return a.as(a.A, "POST", "/clients", clientBody(map[string]any{"vat": ""})).str("vat")
	},
	// 8
	FErrorObject: func(a *api) string {
		return string(a.as(a.A, "PUT", "/users/"+a.userID(a.A), userBody(a.A, map[string]any{"firstName": ""})).Body[:1])
	},
	FErrorGoFieldName: func(a *api) string {
		return a.as(a.A, "POST", "/clients", clientBody(map[string]any{"currency": map[string]any{"id": 77}})).codes()
	},
	FForeign404: func(a *api) string { return code(a.as(a.A, "GET", "/clients/"+a.clientID(a.B), nil)) },
	FUnauth403:  func(a *api) string { return code(a.do("GET", "/users/1", nil, nil)) },
}

func TestEveryWrongFaultIsObservable(t *testing.T) {
	for _, f := range Faults() {
		if f.Legal {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			p, ok := probes[f.Name]
			if !ok {
				t.Fatal("no probe row")
			}
			want := p(newAPI(t, ""))
			// the correct server must answer the same way every time
			if again := p(newAPI(t, "")); again != want {
				t.Fatalf("correct server not deterministic: %q vs %q", want, again)
			}
			got := p(newAPI(t, f.Name))
			if got == want {
				t.Fatalf("fault not observable: both %q", got)
			}
			t.Logf("correct %q, fault %q", want, got)
		})
	}
	if len(probes) != 35 {
		t.Errorf("%d probes", len(probes))
	}
}

func TestFaultCatalogue(t *testing.T) {
	names := map[string]bool{}
	legal, classCount := 0, map[int]int{}
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)+$`)
	for _, f := range Faults() {
		if names[f.Name] || !kebab.MatchString(f.Name) || f.Rule == "" || f.Quote == "" || f.Description == "" {
			t.Errorf("bad fault entry %+v", f)
		}
		names[f.Name] = true
		if f.Legal {
			legal++
			continue
		}
		c, ok := faultClass[f.Name]
		if !ok {
			t.Errorf("%s has no class", f.Name)
		}
		classCount[c]++
	}
	if legal != 5 {
		t.Errorf("%d legal readings", legal)
	}
	for c := 1; c <= 8; c++ {
		if classCount[c] < 3 {
			t.Errorf("class %d has %d faults", c, classCount[c])
		}
	}
	// choices.md lists every fault
	doc, err := os.ReadFile("choices.md")
	if err != nil {
		t.Fatal(err)
	}
	for n := range names {
		if !strings.Contains(string(doc), "`"+n+"`") {
			t.Errorf("choices.md does not list %s", n)
		}
	}
}

func absGet(s *Server, path string) int {
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	return w.Code
}

// Legal readings behave as choices.md says.
func TestLegalReadings(t *testing.T) {
	t.Run(LBasePathV1, func(t *testing.T) {
		a := newAPI(t, LBasePathV1)
		if a.s.BasePath() != "/api/v1" {
			t.Fatal(a.s.BasePath())
		}
		if r := a.do("GET", "/platforms", nil, nil); r.Code != 200 {
			t.Fatal(r.Code)
		}
		if r := absGet(a.s, "/api/v1.0/platforms"); r != 404 {
			t.Fatal(r)
		}
		c := newAPI(t, "")
		if r := absGet(c.s, "/api/v1/platforms"); r != 404 {
			t.Fatal("correct server serves /api/v1")
		}
		if r := absGet(c.s, "/api/v1.0/platforms"); r != 200 {
			t.Fatal(r)
		}
	})
	t.Run(LFirstErrorOnly, func(t *testing.T) {
		for fault, want := range map[string]string{"": "firstName:InvalidFirstName,lastName:InvalidLastName", LFirstErrorOnly: "firstName:InvalidFirstName"} {
			a := newAPI(t, fault)
			r := a.as(a.A, "PUT", "/users/"+a.userID(a.A), userBody(a.A, map[string]any{"firstName": "", "lastName": ""}))
			if r.Code != 400 || r.codes() != want {
				t.Fatalf("%q: %d %s", fault, r.Code, r.Body)
			}
		}
	})
	t.Run(LEmailLoginCI, func(t *testing.T) {
		a := newAPI(t, LEmailLoginCI)
		uid := a.userID(a.A)
		a.as(a.A, "PUT", "/users/"+uid, userBody(a.A, map[string]any{"email": "Case.Kept@Example.com"}))
		if r := a.login("case.kept@EXAMPLE.com", a.A.Password); r.Code != 200 {
			t.Fatal(r.Code)
		}
		if a.as(a.A, "GET", "/users/"+uid, nil).str("email") != "Case.Kept@Example.com" {
			t.Fatal("email not kept")
		}
		if r := a.login("case.kept@EXAMPLE.com", "wrong-password"); r.Code != 401 {
			t.Fatal(r.Code)
		}
	})
	t.Run(LWhitespaceNameAccepted, func(t *testing.T) {
		a := newAPI(t, LWhitespaceNameAccepted)
		if r := a.as(a.A, "POST", "/clients", clientBody(map[string]any{"name": "   "})); r.Code != 200 || r.str("name") != "   " {
			t.Fatalf("%d %s", r.Code, r.Body)
		}
		if r := a.as(a.A, "POST", "/clients", clientBody(map[string]any{"name": ""})); r.Code != 400 || r.codes() != "name:InvalidName" {
			t.Fatalf("%d %s", r.Code, r.Body)
		}
		c := newAPI(t, "")
		if r := c.as(c.A, "POST", "/clients", clientBody(map[string]any{"name": "   "})); r.Code != 400 {
			t.Fatal("correct server accepts blank name")
		}
	})
	t.Run(LAPIKeySchemeExact, func(t *testing.T) {
		a := newAPI(t, LAPIKeySchemeExact)
		path := "/users/" + a.userID(a.A)
		if r := a.do("GET", path, nil, map[string]string{"Authorization": "API-Key " + a.A.APIKey}); r.Code != 401 {
			t.Fatal(r.Code)
		}
		if r := a.do("GET", path, nil, map[string]string{"Authorization": "api-key " + a.A.APIKey}); r.Code != 200 {
			t.Fatal(r.Code)
		}
	})
}
