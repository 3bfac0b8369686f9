package tags

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

type probe func(t *testing.T, s *Server) string

func code(r resp) string { return fmt.Sprint(r.Code) }

func codeAndErrs(r resp) string {
	var e []FieldError
	_ = json.Unmarshal(r.Body, &e)
	var codes []string
	for _, x := range e {
		codes = append(codes, x.Error)
	}
	return fmt.Sprint(r.Code, " ", strings.Join(codes, ","))
}

func putSelf(t *testing.T, s *Server, a Account, body string, hdr ...string) resp {
	return as(s, a, "PUT", "/users/"+itoa(userID(t, s, a)), body, hdr...)
}

func getSelf(t *testing.T, s *Server, a Account) map[string]any {
	return as(s, a, "GET", "/users/"+itoa(userID(t, s, a)), "").obj(t)
}

// concurrently runs fns at the same time.
func concurrently(fns ...func()) {
	var wg sync.WaitGroup
	for _, f := range fns {
		wg.Add(1)
		go func(f func()) { defer wg.Done(); f() }(f)
	}
	wg.Wait()
}

// faultProbes: one request sequence per fault, whose observation differs
// between the correct server and the faulty one. For legal readings,
// legalWant gives [correct, fault] observations as choices.md describes.
var faultProbes = map[string]probe{
	fMaxLenBytes: func(t *testing.T, s *Server) string {
		return code(putSelf(t, s, accA(s), fullUser(accA(s), "firstName", `"`+strings.Repeat("é", 200)+`"`)))
	},
	fPasswordMin5: func(t *testing.T, s *Server) string {
		return code(putSelf(t, s, accA(s), fullUser(accA(s), "password", `"12345"`)))
	},
	fEmptyPassRequired: func(t *testing.T, s *Server) string {
		return code(as(s, accA(s), "POST", "/clients", clientBody("name", `""`)))
	},
	fTermsCaseInsens: func(t *testing.T, s *Server) string {
		return code(as(s, accA(s), "POST", "/clients", clientBody("terms", `"i agree"`)))
	},
	fHashUnanchored: func(t *testing.T, s *Server) string {
		return code(as(s, accA(s), "POST", "/apps", `{"marketapp":{"hash":"`+hashSnakeAndroid+`0"},"nextplan":{"id":1}}`))
	},
	fEmailNoDomain: func(t *testing.T, s *Server) string {
		return code(putSelf(t, s, accA(s), fullUser(accA(s), "email", `"someone@"`)))
	},
	fAPIKeyAnyScheme: func(t *testing.T, s *Server) string {
		a := accA(s)
		return code(call(s, "GET", "/users/"+itoa(userID(t, s, a)), "", "Authorization", "Bearer "+a.APIKey))
	},
	fAPIKeyPrefixOnly: func(t *testing.T, s *Server) string {
		a := accA(s)
		return code(call(s, "GET", "/users/"+itoa(userID(t, s, a)), "", "Authorization", "api-key "+a.APIKey[:12]+"forged"))
	},
	fQueryTokenIgnored: func(t *testing.T, s *Server) string {
		a := accA(s)
		return code(call(s, "GET", "/users/"+itoa(userID(t, s, a))+"?sessionToken="+token(t, s, a), ""))
	},
	fOldPasswordLogin: func(t *testing.T, s *Server) string {
		a := accA(s)
		putSelf(t, s, a, fullUser(a, "password", `"changed-pw"`))
		return code(login(s, a.Email, a.Password)) + " " + code(login(s, a.Email, "changed-pw"))
	},
	fValidateBeforeAuth: func(t *testing.T, s *Server) string {
		a := accA(s)
		return code(call(s, "PUT", "/users/"+itoa(userID(t, s, a)), `{"firstName":""}`))
	},
	fPutOtherUser: func(t *testing.T, s *Server) string {
		a, b := accA(s), accB(s)
		return code(as(s, a, "PUT", "/users/"+itoa(userID(t, s, b)), fullUser(b, "firstName", `"Hijack"`)))
	},
	fPutClientNoMember: func(t *testing.T, s *Server) string {
		a, b := accA(s), accB(s)
		return code(as(s, a, "PUT", "/clients/"+itoa(clientID(t, s, b)), fullClient(b, "name", `"Hijack"`)))
	},
	fPasswordHashLeak: func(t *testing.T, s *Server) string {
		var keys []string
		for k := range getSelf(t, s, accA(s)) {
			if strings.Contains(strings.ToLower(k), "password") && k != "passwordLastChanged" {
				keys = append(keys, k)
			}
		}
		return strings.Join(keys, ",")
	},
	fListAppsAllClients: func(t *testing.T, s *Server) string {
		as(s, accA(s), "POST", "/apps", validApp)
		return fmt.Sprint(as(s, accB(s), "GET", "/apps", "").obj(t)["count"])
	},
	fClientKeptOnAppFail: func(t *testing.T, s *Server) string {
		a := accA(s)
		id1 := as(s, a, "POST", "/clients", validClient).obj(t)["id"].(float64)
		r := as(s, a, "POST", "/clients", clientBody("app", `{"name":"","nextplan":{"id":1}}`))
		id2 := as(s, a, "POST", "/clients", validClient).obj(t)["id"].(float64)
		return fmt.Sprint(r.Code, " ", id2-id1)
	},
	fUserSavedBeforeClient: func(t *testing.T, s *Server) string {
		a := accA(s)
		r := putSelf(t, s, a, fullUser(a, "firstName", `"Saved"`, "client", clientBody("name", `""`)))
		return fmt.Sprint(r.Code, " ", getSelf(t, s, a)["firstName"])
	},
	fMutatesStoredRecord: func(t *testing.T, s *Server) string {
		a := accA(s)
		r := putSelf(t, s, a, fullUser(a, "firstName", `"Mutated"`, "email", `"not-an-email"`))
		return fmt.Sprint(r.Code, " ", getSelf(t, s, a)["firstName"])
	},
	fAppIDRace: func(t *testing.T, s *Server) string {
		a := accA(s)
		for try := 0; try < 10; try++ {
			ids := make([]any, 4)
			fns := make([]func(), len(ids))
			for i := range fns {
				i := i
				fns[i] = func() {
					var m map[string]any
					_ = json.Unmarshal(as(s, a, "POST", "/apps", validApp).Body, &m)
					ids[i] = m["id"]
				}
			}
			concurrently(fns...)
			seen := map[any]bool{}
			for _, id := range ids {
				if seen[id] {
					return "duplicate id"
				}
				seen[id] = true
			}
		}
		return "unique ids"
	},
	fEmailUniqueRace: func(t *testing.T, s *Server) string {
		a, b := accA(s), accB(s)
		ua, ub := userID(t, s, a), userID(t, s, b)
		for try := 0; try < 10; try++ {
			email := fmt.Sprintf(`"same%d@example.com"`, try)
			var ca, cb int
			concurrently(
				func() { ca = as(s, a, "PUT", "/users/"+itoa(ua), fullUser(a, "email", email)).Code },
				func() { cb = as(s, b, "PUT", "/users/"+itoa(ub), fullUser(b, "email", email)).Code },
			)
			if ca == 200 && cb == 200 {
				return "both took the email"
			}
		}
		return "one winner"
	},
	fClientLostUpdate: func(t *testing.T, s *Server) string {
		b := accB(s)
		path := "/clients/" + itoa(clientID(t, s, b))
		for try := 0; try < 10; try++ {
			// full bodies: each sets one optional field and omits the other
			line2, vat := fmt.Sprint("Floor ", try), fmt.Sprint("VAT", try)
			concurrently(
				func() { as(s, b, "PUT", path, fullClient(b, "addressLine2", jsonStr(line2))) },
				func() { as(s, b, "PUT", path, fullClient(b, "vat", jsonStr(vat))) },
			)
			m := as(s, b, "GET", path, "").obj(t)
			if m["addressLine2"] != line2 || m["vat"] != vat {
				return "lost update"
			}
		}
		return "both applied"
	},
	fContentTypeParams: func(t *testing.T, s *Server) string {
		return code(putSelf(t, s, accA(s), fullUser(accA(s), "firstName", `"C"`), "Content-Type", "application/json; charset=utf-8"))
	},
	fAcceptExact: func(t *testing.T, s *Server) string {
		a := accA(s)
		return code(as(s, a, "GET", "/users/"+itoa(userID(t, s, a)), "", "Accept", "*/*"))
	},
	fChunkedEmpty: func(t *testing.T, s *Server) string {
		a := accA(s)
		req := httptest.NewRequest("POST", s.BasePath()+"/clients", strings.NewReader(validClient))
		req.ContentLength = -1
		req.TransferEncoding = []string{"chunked"}
		req.Header.Set("Authorization", "api-key "+a.APIKey)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return fmt.Sprint(rec.Code)
	},
	fKeysCaseInsens: func(t *testing.T, s *Server) string {
		return code(as(s, accA(s), "POST", "/clients", clientBody("name", "", "Name", `"Cased"`)))
	},
	fTermsRawJSON: func(t *testing.T, s *Server) string {
		return code(as(s, accA(s), "POST", "/clients", strings.Replace(validClient, `"terms":"I agree"`, `"terms": "I agree"`, 1)))
	},
	fIntegralFloat: func(t *testing.T, s *Server) string {
		return code(as(s, accA(s), "POST", "/clients", clientBody("currency", `{"id":1.0}`)))
	},
	fPasswordTrimmed: func(t *testing.T, s *Server) string {
		a := accA(s)
		putSelf(t, s, a, fullUser(a, "password", `" padded-pw "`))
		return code(login(s, a.Email, " padded-pw "))
	},
	fNamesHTMLEscape: func(t *testing.T, s *Server) string {
		return fmt.Sprint(putSelf(t, s, accA(s), fullUser(accA(s), "firstName", `"Tom & Jerry"`)).obj(t)["firstName"])
	},
	fEmailIndexStale: func(t *testing.T, s *Server) string {
		a := accA(s)
		putSelf(t, s, a, fullUser(a, "email", `"moved@example.com"`))
		return code(login(s, "moved@example.com", a.Password))
	},
	fOmitemptyFlags: func(t *testing.T, s *Server) string {
		_, ok := getSelf(t, s, accA(s))["subscribeBlog"]
		return fmt.Sprint(ok)
	},
	fErrorObject: func(t *testing.T, s *Server) string {
		return string(putSelf(t, s, accA(s), `{"firstName":""}`).Body[:1])
	},
	fForeign404: func(t *testing.T, s *Server) string {
		a, b := accA(s), accB(s)
		return code(as(s, a, "GET", "/users/"+itoa(userID(t, s, b)), ""))
	},
	fFieldNameGo: func(t *testing.T, s *Server) string {
		return putSelf(t, s, accA(s), fullUser(accA(s), "firstName", `""`)).errs(t)[0].FieldName
	},
	fNullBody500: func(t *testing.T, s *Server) string {
		return code(putSelf(t, s, accA(s), `null`))
	},
	fUnauth403: func(t *testing.T, s *Server) string {
		a := accA(s)
		return code(call(s, "GET", "/users/"+itoa(userID(t, s, a)), ""))
	},
	lRevokeOnPassword: func(t *testing.T, s *Server) string {
		a := accA(s)
		tok := token(t, s, a)
		putSelf(t, s, a, fullUser(a, "password", `"rotated-pw"`))
		return code(call(s, "GET", "/users/"+itoa(userID(t, s, a)), "", "session-token", tok)) +
			" " + code(as(s, a, "GET", "/users/"+itoa(userID(t, s, a)), ""))
	},
	lSchemeCaseSens: func(t *testing.T, s *Server) string {
		a := accA(s)
		return code(call(s, "GET", "/users/"+itoa(userID(t, s, a)), "", "Authorization", "Api-Key "+a.APIKey))
	},
	lUnknownHash400: func(t *testing.T, s *Server) string {
		return codeAndErrs(as(s, accA(s), "POST", "/apps", `{"marketapp":{"hash":"`+strings.Repeat("a", 40)+`"},"nextplan":{"id":1}}`))
	},
	lWhitespaceNameOK: func(t *testing.T, s *Server) string {
		r := as(s, accA(s), "POST", "/clients", clientBody("name", `"   "`))
		if r.Code != 200 {
			return codeAndErrs(r)
		}
		return fmt.Sprintf("200 %q", r.obj(t)["name"])
	},
}

var legalWant = map[string][2]string{
	lRevokeOnPassword: {"200 200", "401 200"},
	lSchemeCaseSens:   {"200", "401"},
	lUnknownHash400:   {"404 NotFound", "400 InvalidMarketappHash"},
	lWhitespaceNameOK: {"400 InvalidName", `200 "   "`},
}

func TestFaultsDiffer(t *testing.T) {
	wrong, legal := 0, 0
	for _, f := range Faults() {
		f := f
		p, ok := faultProbes[f.Name]
		if !ok {
			t.Errorf("no probe for fault %s", f.Name)
			continue
		}
		if f.Legal {
			legal++
		} else {
			wrong++
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			good := p(t, newServer(t, ""))
			bad := p(t, newServer(t, f.Name))
			if good == bad {
				t.Fatalf("fault not observable: both %q", good)
			}
			if f.Legal {
				w := legalWant[f.Name]
				if good != w[0] || bad != w[1] {
					t.Fatalf("legal reading: correct %q (want %q), variant %q (want %q)", good, w[0], bad, w[1])
				}
			}
			t.Logf("correct %q / fault %q", good, bad)
		})
	}
	if len(faultProbes) != len(Faults()) {
		t.Errorf("%d probes for %d faults", len(faultProbes), len(Faults()))
	}
	if legal != 4 || wrong < 30 {
		t.Errorf("wrong %d legal %d", wrong, legal)
	}
}

// Every fault other than the one it is about leaves the correct behaviour of
// a basic request sequence alone (faults are one behaviour each).
func TestFaultsOtherwiseCorrect(t *testing.T) {
	for _, f := range Faults() {
		s := newServer(t, f.Name)
		a := accA(s)
		if r := as(s, a, "POST", "/apps", validApp); r.Code != 200 {
			t.Errorf("%s: POST /apps %d", f.Name, r.Code)
		}
		if r := login(s, a.Email, a.Password); r.Code != 200 {
			t.Errorf("%s: login %d", f.Name, r.Code)
		}
	}
}
