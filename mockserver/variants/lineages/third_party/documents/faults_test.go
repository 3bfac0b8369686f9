package documents

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// A probe runs one short request sequence and reports whether it saw the
// fault's departure. It must never see it on the correct server and must see
// it on the faulty one (races: within a bounded number of tries).
type probe struct {
	race bool
	run  func(f *fixture) (seen bool, evidence string)
}

// parallel runs the functions at once, released together.
func parallel(fns ...func()) {
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for _, fn := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			fn()
		}()
	}
	close(gate)
	wg.Wait()
}

// userPath finds the account's user through its api key, which no change of
// email or password affects.
func userPath(f *fixture, a Account) string {
	f.t.Helper()
	r := f.do("GET", "/users/me", nil, key(a)...)
	if r.status != 200 {
		f.t.Fatalf("GET /users/me: %s", r)
	}
	return fmt.Sprintf("/users/%v", r.obj()["id"])
}

var probes = map[string]probe{
	fPasswordFiveCharsAccepted: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		r := f.do("PUT", userPath(f, a), `{"password":"abcde"}`, key(a)...)
		return r.status == 200, r.String()
	}},
	fLengthLimitCountsBytes: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		r := f.do("PUT", userPath(f, a), map[string]any{"firstName": strings.Repeat("é", 200)}, key(a)...)
		return r.status == 400, r.String()
	}},
	fAppNameRequiredWithHash: {run: func(f *fixture) (bool, string) {
		r := f.do("POST", "/apps", `{"marketapp":{"hash":"`+goodHash+`"},"nextplan":{"id":1}}`, key(f.acc[0][0])...)
		return r.status == 400, r.String()
	}},
	fMarketappHashHexUnchecked: {run: func(f *fixture) (bool, string) {
		r := f.do("POST", "/apps", `{"marketapp":{"hash":"`+strings.Repeat("z", 40)+`"}}`, key(f.acc[0][0])...)
		return r.status == 200, r.String()
	}},
	fOnlyFirstErrorReported: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		r := f.do("PUT", userPath(f, a), `{"firstName":"","lastName":""}`, key(a)...)
		return r.status == 400 && len(r.codes()) == 1, r.String()
	}},

	fSessionTokenQueryIgnored: {run: func(f *fixture) (bool, string) {
		id := f.ident(f.acc[0][0])
		r := f.do("PUT", fmt.Sprintf("/users/%d?sessionToken=%s", id.user, id.token), `{}`)
		return r.status == 401, r.String()
	}},
	fSessionTokenAsAPIKey: {run: func(f *fixture) (bool, string) {
		id := f.ident(f.acc[0][0])
		r := f.do("PUT", fmt.Sprintf("/users/%d", id.user), `{}`, "Authorization", "api-key "+id.token)
		return r.status == 200, r.String()
	}},
	fMissingUserAnswers403: {run: func(f *fixture) (bool, string) {
		r := f.do("PUT", "/users/999999999", `{}`, key(f.acc[0][0])...)
		return r.status == 403, r.String()
	}},
	fAPIKeyShadowsBadToken: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		r := f.do("PUT", userPath(f, a), `{}`, with(key(a), "session-token", "not-a-token")...)
		return r.status == 200, r.String()
	}},

	fOldPasswordStillLogsIn: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		if r := f.do("PUT", userPath(f, a), `{"password":"brand-new-pw"}`, key(a)...); r.status != 200 {
			return false, "change refused: " + r.String()
		}
		r := f.login(a.Email, a.Password)
		return r.status == 200, r.String()
	}},
	fOldEmailStillLogsIn: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		if r := f.do("PUT", userPath(f, a), map[string]any{"email": unique("moved") + "@example.net"}, key(a)...); r.status != 200 {
			return false, "change refused: " + r.String()
		}
		r := f.login(a.Email, a.Password)
		return r.status == 200, r.String()
	}},
	fMixedCaseEmailCannotLogIn: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		email := unique("Jane.Doe") + "@Example.COM"
		if r := f.do("PUT", userPath(f, a), map[string]any{"email": email}, key(a)...); r.status != 200 {
			return false, "change refused: " + r.String()
		}
		r := f.login(email, a.Password)
		return r.status == 401, r.String()
	}},
	fRefusedUserUpdatePartiallyApplied: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		p := userPath(f, a)
		if r := f.do("PUT", p, `{"firstName":"Zed","lastName":""}`, key(a)...); r.status != 400 {
			return false, "not refused: " + r.String()
		}
		r := f.do("GET", p, nil, key(a)...)
		return r.obj()["firstName"] == "Zed", r.String()
	}},
	fClientKeptWhenAppInvalid: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		before := len(f.do("GET", "/clients", nil, key(a)...).obj()["clients"].([]any))
		body := validClient("Half Made")
		body["app"] = map[string]any{"marketapp": map[string]any{"hash": "not-a-hash"}}
		if r := f.do("POST", "/clients", body, key(a)...); r.status != 400 {
			return false, "not refused: " + r.String()
		}
		after := f.do("GET", "/clients", nil, key(a)...)
		return len(after.obj()["clients"].([]any)) != before, after.String()
	}},

	fUserUpdateLostUpdate: {race: true, run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		p := userPath(f, a)
		// Two updates of members a body may leave out (kept when absent),
		// one each: both must stay.
		number, ext := unique("7700 9"), fmt.Sprint(uniq.Add(1)%100000)
		parallel(
			func() { f.do("PUT", p, map[string]any{"phoneNumber": number}, key(a)...) },
			func() { f.do("PUT", p, map[string]any{"phoneExtension": ext}, key(a)...) },
		)
		r := f.do("GET", p, nil, key(a)...)
		return r.obj()["phoneNumber"] != number || r.obj()["phoneExtension"] != ext, r.String()
	}},
	fAppIDCollision: {race: true, run: func(f *fixture) (bool, string) {
		// Each client's apps are created one at a time; the race is between
		// the two clients of a pair.
		ids := make([]int64, 2)
		var fns []func()
		for i := range ids {
			a := f.acc[0][i]
			fns = append(fns, func() {
				ids[i] = num(f.do("POST", "/apps", map[string]any{"name": unique("n"), "platform": map[string]any{"id": 1}}, key(a)...).obj()["id"])
			})
		}
		parallel(fns...)
		seen := map[int64]bool{}
		for _, id := range ids {
			if seen[id] {
				return true, fmt.Sprint(ids)
			}
			seen[id] = true
		}
		return false, fmt.Sprint(ids)
	}},
	fEmailUniquenessRace: {race: true, run: func(f *fixture) (bool, string) {
		a, b := f.acc[0][0], f.acc[0][1]
		pa, pb := userPath(f, a), userPath(f, b)
		email := unique("shared") + "@example.com"
		var ra, rb resp
		parallel(
			func() { ra = f.do("PUT", pa, map[string]any{"email": email}, key(a)...) },
			func() { rb = f.do("PUT", pb, map[string]any{"email": email}, key(b)...) },
		)
		return ra.status == 200 && rb.status == 200, ra.String() + " | " + rb.String()
	}},
	fAppResponseFromSharedSlot: {race: true, run: func(f *fixture) (bool, string) {
		a, b := f.acc[0][0], f.acc[0][1]
		na, nb := unique("appA"), unique("appB")
		var ra, rb resp
		parallel(
			func() {
				ra = f.do("POST", "/apps", map[string]any{"name": na, "platform": map[string]any{"id": 1}}, key(a)...)
			},
			func() {
				rb = f.do("POST", "/apps", map[string]any{"name": nb, "platform": map[string]any{"id": 2}}, key(b)...)
			},
		)
		return ra.obj()["name"] != na || rb.obj()["name"] != nb, ra.String() + " | " + rb.String()
	}},

	fPasswordHashInUser: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		r := f.do("PUT", userPath(f, a), `{}`, key(a)...)
		return len(r.obj()) != len(userFields), r.String()
	}},
	fForbiddenUserEchoesEmail: {run: func(f *fixture) (bool, string) {
		a, b := f.acc[0][0], f.acc[0][1]
		r := f.do("PUT", userPath(f, b), `{"firstName":"X"}`, key(a)...)
		return r.status != 403 || strings.Contains(string(r.body), b.Email), r.String()
	}},
	fDuplicateEmailRevealsOwner: {run: func(f *fixture) (bool, string) {
		a, b := f.acc[0][0], f.acc[0][1]
		ib := f.ident(b)
		r := f.do("PUT", userPath(f, a), map[string]any{"email": b.Email}, key(a)...)
		return r.status != 400 || strings.Contains(string(r.body), fmt.Sprint(ib.user)), r.String()
	}},

	fAcceptWildcard406: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		r := f.do("PUT", userPath(f, a), `{}`, with(key(a), "Accept", "*/*")...)
		return r.status == 406, r.String()
	}},
	fContentTypeCharset415: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		r := f.do("PUT", userPath(f, a), `{"firstName":"C"}`, with(key(a), "Content-Type", "application/json; charset=utf-8")...)
		return r.status == 415, r.String()
	}},
	fChunkedBodyIgnored: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		body := io.MultiReader(strings.NewReader(`{"firstName"`), strings.NewReader(`:"Chunk"}`))
		r := f.do("PUT", userPath(f, a), body, key(a)...)
		return r.status != 200, r.String()
	}},
	fCreateApp201: {run: func(f *fixture) (bool, string) {
		r := f.do("POST", "/apps", `{"name":"Status","platform":{"id":1}}`, key(f.acc[0][0])...)
		return r.status == 201, r.String()
	}},
	fTermsUnicodeEscapeRejected: {run: func(f *fixture) (bool, string) {
		body := strings.Replace(mustJSON(validClient("Escaped")), `"I agree"`, `"I\u0020agree"`, 1)
		r := f.do("POST", "/clients", body, key(f.acc[0][0])...)
		return r.status == 400, r.String()
	}},

	fUserIDAsString: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		r := f.do("PUT", userPath(f, a), `{}`, key(a)...)
		_, isNum := r.obj()["id"].(float64)
		return !isNum, r.String()
	}},
	fSessionDateRFC1123: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		r := f.login(a.Email, a.Password)
		_, err := time.Parse(time.RFC3339, fmt.Sprint(r.obj()["created"]))
		return err != nil, r.String()
	}},
	fPlatformNameLowercase: {run: func(f *fixture) (bool, string) {
		r := f.do("POST", "/apps", `{"name":"Phone","platform":{"id":2}}`, key(f.acc[0][0])...)
		p, _ := r.obj()["platform"].(map[string]any)
		return p["name"] != "iOS", r.String()
	}},
	fPlanNeedBillingOmitted: {run: func(f *fixture) (bool, string) {
		r := f.do("POST", "/apps", `{"name":"Cheap","platform":{"id":1},"nextplan":{"id":1}}`, key(f.acc[0][0])...)
		p, _ := r.obj()["plan"].(map[string]any)
		_, has := p["needBilling"]
		return !has, r.String()
	}},

	fOnlyV1BasePath: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		r := f.raw("PUT", f.ts.URL+"/v1.0"+userPath(f, a), `{}`, key(a)...)
		return r.status == 404, r.String()
	}},
	fPasswordChangeEndsOtherSessions: {run: func(f *fixture) (bool, string) {
		a := f.acc[0][0]
		s1, s2 := f.ident(a), f.ident(a)
		p := fmt.Sprintf("/users/%d", s1.user)
		if r := f.do("PUT", p, `{"password":"changed-pw"}`, "session-token", s2.token); r.status != 200 {
			return false, "change refused: " + r.String()
		}
		if r := f.do("GET", p, nil, "session-token", s2.token); r.status != 200 {
			return false, "the changing session ended: " + r.String()
		}
		r := f.do("GET", p, nil, "session-token", s1.token)
		return r.status == 401, r.String()
	}},
	fCollectionsCarryPageAndTotal: {run: func(f *fixture) (bool, string) {
		r := f.do("GET", "/platforms", nil, key(f.acc[0][0])...)
		return len(r.obj()) != 1, r.String()
	}},
	fWriteKeyUpperCase: {run: func(f *fixture) (bool, string) {
		r := f.do("POST", "/apps", `{"name":"Keyed","platform":{"id":1}}`, key(f.acc[0][0])...)
		wk := fmt.Sprint(r.obj()["writeKey"])
		return wk != strings.ToLower(wk), r.String()
	}},
	fReferencePublic: {run: func(f *fixture) (bool, string) {
		r := f.do("GET", "/platforms", nil)
		return r.status == 200, r.String()
	}},
}

const raceBudget = 2 * time.Second

func TestFaultProbes(t *testing.T) {
	for _, ft := range Faults() {
		t.Run(ft.Name, func(t *testing.T) {
			t.Parallel()
			p, ok := probes[ft.Name]
			if !ok {
				t.Fatalf("no probe")
			}
			// The correct server never shows the departure.
			good := start(t, "", 1)
			rounds := 1
			if p.race {
				rounds = 10
			}
			for range rounds {
				if seen, ev := p.run(good); seen {
					t.Fatalf("correct server shows the departure: %s", ev)
				}
			}
			// The faulty server shows it, at once or within the race budget.
			bad := start(t, ft.Name, 1)
			deadline := time.Now().Add(raceBudget)
			var ev string
			for tries := 1; ; tries++ {
				var seen bool
				if seen, ev = p.run(bad); seen {
					if p.race {
						t.Logf("seen after %d tries", tries)
					}
					return
				}
				if !p.race || time.Now().After(deadline) || tries >= 100 {
					break
				}
			}
			t.Fatalf("faulty server does not show the departure: %s", ev)
		})
	}
}

// TestLegalFaultsStayCorrect runs the correct server's main tests' core
// sequence on each legal reading: apart from its one reading it must behave
// the same.
func TestLegalFaultsStayCorrect(t *testing.T) {
	for _, ft := range Faults() {
		if !ft.Legal {
			continue
		}
		t.Run(ft.Name, func(t *testing.T) {
			t.Parallel()
			f := start(t, ft.Name, 1)
			a, b := f.acc[0][0], f.acc[0][1]
			ia := f.ident(a)
			p := fmt.Sprintf("/users/%d", ia.user)
			if r := f.do("PUT", p, `{"firstName":"Legal","password":"legal-pw"}`, key(a)...); r.status != 200 {
				t.Fatalf("%s", r)
			}
			if f.login(a.Email, "legal-pw").status != 200 || f.login(a.Email, a.Password).status != 401 {
				t.Errorf("password change")
			}
			if r := f.do("PUT", p, `{"firstName":""}`, key(a)...); r.status != 400 || !r.hasCode("InvalidFirstName") {
				t.Errorf("validation: %s", r)
			}
			if r := f.do("PUT", fmt.Sprintf("/users/%d", f.ident(b).user), `{}`, key(a)...); r.status != 403 {
				t.Errorf("permission: %s", r)
			}
			r := f.do("POST", "/apps", `{"marketapp":{"hash":"`+goodHash+`"}}`, key(a)...)
			if r.status != 200 || len(fmt.Sprint(r.obj()["writeKey"])) != 32 {
				t.Errorf("app: %s", r)
			}
			if r := f.do("GET", "/platforms", nil, key(a)...); r.status != 200 || len(r.obj()["platforms"].([]any)) != 2 {
				t.Errorf("platforms: %s", r)
			}
		})
	}
}
