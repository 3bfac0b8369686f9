package shards

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

var hash0, hash1 = marketApps[0].Hash, marketApps[1].Hash

// probes maps each wrong fault to an observation made only through the
// HTTP API; the correct server and the faulty one must observe differently.
var probes = map[string]func(h *harness) string{
	faultLimitOffByOne: func(h *harness) string {
		return fmt.Sprint(h.do("PUT", "/clients/1", clientBody(strings.Repeat("n", 255)), h.key(0)...).status)
	},
	faultLimitCountsBytes: func(h *harness) string {
		return fmt.Sprint(h.do("PUT", "/clients/1", clientBody(strings.Repeat("é", 200)), h.key(0)...).status)
	},
	faultTermsLoose: func(h *harness) string {
		return fmt.Sprint(h.do("POST", "/clients", with(clientBody("X"), "terms", " i agree"), h.key(0)...).codes())
	},
	faultHashHexUnchecked: func(h *harness) string {
		return fmt.Sprint(h.do("POST", "/apps", appBody(strings.Repeat("z", 40)), h.key(0)...).status)
	},
	faultPasswordNullRejected: func(h *harness) string {
		return fmt.Sprint(h.do("PUT", "/users/1", userBody(h.acc(0).Email), h.key(0)...).status)
	},
	faultPutClientAcceptsApp: func(h *harness) string {
		return fmt.Sprint(h.do("PUT", "/clients/1", with(clientBody("X"), "app", appBody(hash0)), h.key(0)...).codes())
	},
	faultAppMissingName404: func(h *harness) string {
		body := map[string]any{"platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}}
		r := h.do("POST", "/apps", body, h.key(0)...)
		return fmt.Sprint(r.status, r.codes())
	},
	faultAPIKeySchemeCase: func(h *harness) string {
		return fmt.Sprint(h.do("GET", "/platforms", nil, "Authorization", "API-KEY "+h.acc(0).APIKey).status)
	},
	faultQueryTokenWrites: func(h *harness) string {
		return fmt.Sprint(h.do("PUT", "/users/1?sessionToken="+h.token(0), userBody(h.acc(0).Email)).status)
	},
	faultPutUserAnyUser: func(h *harness) string {
		r := h.do("PUT", "/users/2", userBody("stolen@example.test"), h.key(0)...)
		return fmt.Sprint(r.status, h.login("stolen@example.test", h.acc(1).Password).status)
	},
	faultPutClientAnyClient: func(h *harness) string {
		return fmt.Sprint(h.do("PUT", "/clients/2", clientBody("Mine now"), h.key(0)...).status)
	},
	faultMissingCredentials403: func(h *harness) string {
		return fmt.Sprint(h.do("GET", "/platforms", nil).status)
	},
	faultNotFoundBeforeAuth: func(h *harness) string {
		return fmt.Sprint(h.do("PUT", "/users/999999", userBody("x@example.test")).status)
	},
	faultValidationBeforePerm: func(h *harness) string {
		return fmt.Sprint(h.do("PUT", "/clients/2", map[string]any{}, h.key(0)...).status)
	},
	faultOldEmailIndexed: func(h *harness) string {
		h.do("PUT", "/users/1", userBody("new.a@example.test"), h.key(0)...)
		return fmt.Sprint(h.login(h.acc(0).Email, h.acc(0).Password).status)
	},
	faultPasswordChangedStale: func(h *harness) string {
		sleepMS(5)
		r := h.do("PUT", "/users/1", with(userBody(h.acc(0).Email), "password", "brand-new-pw"), h.key(0)...)
		return fmt.Sprint(r.str("passwordLastChanged") == r.str("created"))
	},
	faultPutUserNotAtomic: func(h *harness) string {
		body := with(userBody("moved.a@example.test"), "client", map[string]any{"name": ""})
		r := h.do("PUT", "/users/1", body, h.key(0)...)
		return fmt.Sprint(r.status, h.login("moved.a@example.test", h.acc(0).Password).status)
	},
	faultPostClientsNotAtomic: func(h *harness) string {
		first := h.do("POST", "/clients", clientBody("First"), h.key(0)...)
		bad := with(clientBody("Second"), "app", appBody(strings.Repeat("0", 40)))
		r := h.do("POST", "/clients", bad, h.key(0)...)
		next := fmt.Sprintf("/clients/%d", first.num("id")+1)
		return fmt.Sprint(r.status, h.do("PUT", next, clientBody("Third"), h.key(0)...).status)
	},
	faultLostUpdatePassword: func(h *harness) string {
		a := h.acc(0)
		parallel(10,
			func() { h.do("PUT", "/users/1", with(userBody(a.Email), "password", "changed-pw-1"), h.key(0)...) },
			func() { h.do("PUT", "/users/1", userBody(a.Email), h.key(0)...) })
		return fmt.Sprint(h.login(a.Email, "changed-pw-1").status)
	},
	faultDuplicateAppIDs: func(h *harness) string {
		var ra, rb resp
		parallel(0,
			func() { ra = h.do("POST", "/apps", appBody(hash0), h.key(0)...) },
			func() { rb = h.do("POST", "/apps", appBody(hash1), h.key(1)...) })
		return fmt.Sprint(ra.status, rb.status, ra.num("id") == rb.num("id"))
	},
	faultDuplicateEmailRace: func(h *harness) string {
		var st [2]int
		parallel(0,
			func() { st[0] = h.do("PUT", "/users/1", userBody("same@example.test"), h.key(0)...).status },
			func() { st[1] = h.do("PUT", "/users/2", userBody("same@example.test"), h.key(1)...).status })
		sort.Ints(st[:])
		return fmt.Sprint(st)
	},
	faultDuplicateMarketappRace: func(h *harness) string {
		var st [2]int
		parallel(0,
			func() { st[0] = h.do("POST", "/apps", appBody(hash0), h.key(0)...).status },
			func() { st[1] = h.do("POST", "/apps", appBody(hash0), h.key(0)...).status })
		sort.Ints(st[:])
		return fmt.Sprint(st)
	},
	faultForbiddenLeaksUser: func(h *harness) string {
		r := h.do("PUT", "/users/2", userBody(h.acc(0).Email), h.key(0)...)
		return fmt.Sprint(r.status, strings.Contains(string(r.body), h.acc(1).Email))
	},
	faultWriteKeyFromHash: func(h *harness) string {
		ra := h.do("POST", "/apps", appBody(hash0), h.key(0)...)
		rb := h.do("POST", "/apps", appBody(hash0), h.key(1)...)
		return fmt.Sprint(ra.str("writeKey") == rb.str("writeKey"))
	},
	faultAppDuplicateGlobal: func(h *harness) string {
		h.do("POST", "/apps", appBody(hash0), h.key(0)...)
		return fmt.Sprint(h.do("POST", "/apps", appBody(hash0), h.key(1)...).status)
	},
	faultPasswordHashReturned: func(h *harness) string {
		_, has := h.do("PUT", "/users/1", userBody(h.acc(0).Email), h.key(0)...).obj()["passwordHash"]
		return fmt.Sprint(has)
	},
	faultNumberFloatRejected: func(h *harness) string {
		body := with(clientBody("X"), "currency", map[string]any{"id": json.Number("1.0")})
		return fmt.Sprint(h.do("PUT", "/clients/1", body, h.key(0)...).status)
	},
	faultHashUppercase: func(h *harness) string {
		return fmt.Sprint(h.do("POST", "/apps", appBody(strings.ToUpper(hash0)), h.key(0)...).status)
	},
	faultContentTypeStrict: func(h *harness) string {
		return fmt.Sprint(h.do("PUT", "/users/1", userBody(h.acc(0).Email),
			append(h.key(0), "Content-Type", "application/json; charset=utf-8")...).status)
	},
	faultMixedCaseEmailLogin: func(h *harness) string {
		h.do("PUT", "/users/1", userBody("Mixed.Case@Example.test"), h.key(0)...)
		return fmt.Sprint(h.login("Mixed.Case@Example.test", h.acc(0).Password).status)
	},
	faultPasswordTrimmed: func(h *harness) string {
		h.do("PUT", "/users/1", with(userBody(h.acc(0).Email), "password", "  secret77  "), h.key(0)...)
		return fmt.Sprint(h.login(h.acc(0).Email, "  secret77  ").status)
	},
	faultPhoneExtensionNumber: func(h *harness) string {
		r := h.do("PUT", "/users/1", with(userBody(h.acc(0).Email), "phoneExtension", "0042"), h.key(0)...)
		return fmt.Sprintf("%T %v", r.get("phoneExtension"), r.get("phoneExtension"))
	},
	faultErrorObject: func(h *harness) string {
		r := h.do("POST", "/clients", map[string]any{}, h.key(0)...)
		_, isArr := r.value().([]any)
		return fmt.Sprint(r.status, isArr)
	},
	faultErrorTextPlain: func(h *harness) string {
		r := h.do("POST", "/clients", map[string]any{}, h.key(0)...)
		return fmt.Sprint(r.status, r.header.Get("Content-Type"))
	},
}

func TestEveryWrongFaultIsObservable(t *testing.T) {
	for _, f := range Faults() {
		if f.Legal {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			probe, ok := probes[f.Name]
			if !ok {
				t.Fatalf("no probe for fault %s", f.Name)
			}
			good := probe(newHarness(t, ""))
			bad := probe(newHarness(t, f.Name))
			if good == bad {
				t.Fatalf("correct and faulty servers agree: %q", good)
			}
			t.Logf("correct %q, faulty %q", good, bad)
		})
	}
}

func TestFaultCatalogue(t *testing.T) {
	seen := map[string]bool{}
	wrong, legal, sawLegal := 0, 0, false
	for _, f := range Faults() {
		if seen[f.Name] || f.Name == "" || f.Rule == "" || f.Quote == "" || f.Description == "" {
			t.Errorf("bad or duplicate entry %+v", f)
		}
		seen[f.Name] = true
		if f.Legal {
			legal, sawLegal = legal+1, true
		} else {
			wrong++
			if sawLegal {
				t.Errorf("wrong fault %s listed after a legal reading", f.Name)
			}
		}
		if _, err := New(Options{Fault: f.Name}); err != nil {
			t.Errorf("New(%s): %v", f.Name, err)
		}
	}
	if wrong < 25 || legal < 4 {
		t.Errorf("wrong=%d legal=%d", wrong, legal)
	}
	if len(probes) != wrong {
		t.Errorf("%d probes for %d wrong faults", len(probes), wrong)
	}
	if _, err := New(Options{Fault: "no-such-fault"}); err == nil {
		t.Error("unknown fault accepted")
	}
}
