package shards

import "testing"

func TestLegalFirstErrorOnly(t *testing.T) {
	for _, c := range []struct {
		fault string
		want  func(n int) bool
	}{{"", func(n int) bool { return n > 1 }}, {legalFirstErrorOnly, func(n int) bool { return n == 1 }}} {
		h := newHarness(t, c.fault)
		r := h.do("POST", "/clients", map[string]any{}, h.key(0)...)
		if r.status != 400 || !c.want(len(r.codes())) {
			t.Errorf("%q: %s", c.fault, r)
		}
	}
}

func TestLegalClientPutKeepsOptional(t *testing.T) {
	for fault, want := range map[string]bool{"": false, legalClientPutKeeps: true} {
		h := newHarness(t, fault)
		h.do("PUT", "/clients/1", with(clientBody("C"), "addressLine2", "Flat 2", "vat", "GB1"), h.key(0)...)
		r := h.do("PUT", "/clients/1", clientBody("C"), h.key(0)...)
		_, has := r.obj()["addressLine2"]
		if r.status != 200 || has != want {
			t.Errorf("%q: %s", fault, r)
		}
	}
}

func TestLegalAppDuplicatesAllowed(t *testing.T) {
	for fault, want := range map[string]int{"": 400, legalAppDuplicates: 200} {
		h := newHarness(t, fault)
		h.do("POST", "/apps", appBody(hash0), h.key(0)...)
		if r := h.do("POST", "/apps", appBody(hash0), h.key(0)...); r.status != want {
			t.Errorf("%q: %s", fault, r)
		}
	}
}

func TestLegalPasswordChangeRevokesSessions(t *testing.T) {
	for fault, want := range map[string]int{"": 200, legalPasswordRevokes: 401} {
		h := newHarness(t, fault)
		tok := h.token(0)
		h.do("PUT", "/users/1", with(userBody(h.acc(0).Email), "password", "another-pw"), h.key(0)...)
		if r := h.do("GET", "/platforms", nil, "session-token", tok); r.status != want {
			t.Errorf("%q: token %s", fault, r)
		}
		if r := h.do("GET", "/platforms", nil, h.key(0)...); r.status != 200 {
			t.Errorf("%q: api key %s", fault, r)
		}
	}
}

func TestLegalNextplanDefaultLite(t *testing.T) {
	body := map[string]any{"marketapp": map[string]any{"hash": hash0}}
	for fault, want := range map[string]int{"": 400, legalNextplanDefaultLite: 200} {
		h := newHarness(t, fault)
		r := h.do("POST", "/apps", body, h.key(0)...)
		if r.status != want || (want == 200 && r.get("plan.isLite") != true) {
			t.Errorf("%q: %s", fault, r)
		}
	}
}
