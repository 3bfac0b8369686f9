package events

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A probe is a short request sequence that ends in one observation (a status,
// a field); the correct server must observe want, and the faulty server
// anything else, so that no fault is a no-op.
type probe struct {
	fault string
	want  string
	run   func(h *harness) string
}

func code(status int) string { return fmt.Sprint(status) }

var fixedNow = time.Date(2030, time.May, 6, 7, 8, 9, 0, time.UTC)

func (h *harness) ownUser(side int) (Account, login, string) {
	a := h.acct(0, side)
	l := h.login(a)
	return a, l, path("/users/%d", l.userID)
}

func probes() []probe {
	return []probe{
		{faultSessionQueryIgnored, "200", func(h *harness) string {
			a, l, url := h.ownUser(0)
			return code(h.do("PUT", url, userBody(a.Email), withQueryToken(l.token)).status)
		}},
		{faultTruncatedAPIKeyAccepted, "401", func(h *harness) string {
			a, _, url := h.ownUser(0)
			return code(h.do("PUT", url, userBody(a.Email), withKey(a.APIKey[:32])).status)
		}},
		{faultAuthSchemeUnchecked, "401", func(h *harness) string {
			a, _, url := h.ownUser(0)
			return code(h.do("PUT", url, userBody(a.Email), withHeader("Authorization", "Bearer "+a.APIKey)).status)
		}},
		{faultNotFoundBeforeAuth, "401", func(h *harness) string {
			return code(h.do("PUT", "/users/3999999999", userBody("who@kelp.example.com")).status)
		}},
		{faultOtherUserUpdateAllowed, "403", func(h *harness) string {
			_, lb, _ := h.ownUser(1)
			a := h.acct(0, 0)
			return code(h.do("PUT", path("/users/%d", lb.userID), userBody(h.acct(0, 1).Email), withKey(a.APIKey)).status)
		}},
		{faultForeignClientAs404, "403", func(h *harness) string {
			lb := h.login(h.acct(0, 1))
			return code(h.do("PUT", path("/clients/%d", lb.clientID), clientBody(), withKey(h.acct(0, 0).APIKey)).status)
		}},
		{faultLoginPasswordCaseInsensitive, "400", func(h *harness) string {
			a := h.acct(0, 0)
			return code(h.loginStatus(a.Email, strings.ToUpper(a.Password)))
		}},
		{faultSessionIDsSwapped, "200", func(h *harness) string {
			// The userId of a session is the id PUT /users/:userId takes.
			a, l, _ := h.ownUser(0)
			return code(h.do("PUT", path("/users/%d", l.userID), userBody(a.Email), withToken(l.token)).status)
		}},
		{faultPasswordLengthInBytes, "400 password:InvalidPassword", func(h *harness) string {
			a, _, url := h.ownUser(0)
			r := h.do("PUT", url, set(userBody(a.Email), "password", "ééé"), withKey(a.APIKey))
			return code(r.status) + " " + strings.Join(r.codes(), ",")
		}},
		{faultSixCharPasswordRefused, "200", func(h *harness) string {
			a, _, url := h.ownUser(0)
			return code(h.do("PUT", url, set(userBody(a.Email), "password", "tern42"), withKey(a.APIKey)).status)
		}},
		{faultNullPasswordRejected, "200 200", func(h *harness) string {
			a, _, url := h.ownUser(0)
			r := h.do("PUT", url, userBody(a.Email), withKey(a.APIKey))
			return code(r.status) + " " + code(h.loginStatus(a.Email, a.Password))
		}},
		{faultNullPasswordTouchesDate, "same", func(h *harness) string {
			a, _, url := h.ownUser(0)
			h.s.now = func() time.Time { return fixedNow }
			r := h.do("PUT", url, userBody(a.Email), withKey(a.APIKey))
			if r.str("passwordLastChanged") == isoTime(fixedNow) {
				return "moved"
			}
			return "same"
		}},
		{faultEmailNotPersisted, "200", func(h *harness) string {
			a, _, url := h.ownUser(0)
			h.do("PUT", url, userBody("moved.on@puffin-harbour.example.net"), withKey(a.APIKey))
			return code(h.loginStatus("moved.on@puffin-harbour.example.net", a.Password))
		}},
		{faultRefusedUserUpdateApplied, "400 400", func(h *harness) string {
			a, _, url := h.ownUser(0)
			body := set(userBody("moved.on@puffin-harbour.example.net"), "client", set(clientBody(), "name", ""))
			r := h.do("PUT", url, body, withKey(a.APIKey))
			return code(r.status) + " " + code(h.loginStatus("moved.on@puffin-harbour.example.net", a.Password))
		}},
		{faultAbsentLastNameKept, "lastName:InvalidLastName", func(h *harness) string {
			a, _, url := h.ownUser(0)
			return strings.Join(h.do("PUT", url, set(userBody(a.Email), "lastName", del), withKey(a.APIKey)).codes(), ",")
		}},
		{faultPhoneCountryUnchecked, "phoneCountry.id:InvalidPhoneCountryId", func(h *harness) string {
			a, _, url := h.ownUser(0)
			return strings.Join(h.do("PUT", url, set(userBody(a.Email), "phoneCountry", map[string]any{"id": 4242}), withKey(a.APIKey)).codes(), ",")
		}},
		{faultSubscribeHowtoCopiesBlog, "true", func(h *harness) string {
			a, _, url := h.ownUser(0)
			body := set(set(userBody(a.Email), "subscribeBlog", false), "subscribeHowto", true)
			return h.do("PUT", url, body, withKey(a.APIKey)).str("subscribeHowto")
		}},
		{faultPutClientNameOptional, "name:InvalidName", func(h *harness) string {
			a := h.acct(0, 0)
			l := h.login(a)
			return strings.Join(h.do("PUT", path("/clients/%d", l.clientID), set(clientBody(), "name", del), withKey(a.APIKey)).codes(), ",")
		}},
		{faultPutClientAppAccepted, "app:AppNotAllowed", func(h *harness) string {
			a := h.acct(0, 0)
			l := h.login(a)
			body := set(clientBody(), "app", h.appBody("Lumen Budget", platformIOS))
			return strings.Join(h.do("PUT", path("/clients/%d", l.clientID), body, withKey(a.APIKey)).codes(), ",")
		}},
		{faultTermsCaseInsensitive, "terms:InvalidTerms", func(h *harness) string {
			return strings.Join(h.do("POST", "/clients", set(clientBody(), "terms", "i agree"), withKey(h.acct(0, 0).APIKey)).codes(), ",")
		}},
		{faultCurrencyCodeNumeric, "string EUR", func(h *harness) string {
			r := h.do("POST", "/clients", set(clientBody(), "currency.id", 978), withKey(h.acct(0, 0).APIKey))
			return fmt.Sprintf("%T %v", r.at("currency.code"), r.at("currency.code"))
		}},
		{faultOptionalFieldLengthUnchecked, "vat:InvalidVat", func(h *harness) string {
			body := set(clientBody(), "vat", strings.Repeat("9", 256))
			return strings.Join(h.do("POST", "/clients", body, withKey(h.acct(0, 0).APIKey)).codes(), ",")
		}},
		{faultAppNameRequiredWithHash, "200", func(h *harness) string {
			return code(h.do("POST", "/apps", h.appBody("Saltmarsh Radio", platformIOS), withKey(h.acct(0, 0).APIKey)).status)
		}},
		{faultHash41Accepted, "marketapp.hash:InvalidMarketappHash", func(h *harness) string {
			body := set(h.appBody("Saltmarsh Radio", platformIOS), "marketapp.hash", h.hashOf("Saltmarsh Radio", platformIOS)+"7")
			return strings.Join(h.do("POST", "/apps", body, withKey(h.acct(0, 0).APIKey)).codes(), ",")
		}},
		{faultWriteKey64Hex, "32", func(h *harness) string {
			r := h.do("POST", "/apps", h.appBody("Saltmarsh Radio", platformIOS), withKey(h.acct(0, 0).APIKey))
			return fmt.Sprint(len(r.str("writeKey")))
		}},
		{faultPlatformFromBodyWithHash, "iOS", func(h *harness) string {
			body := set(h.appBody("Saltmarsh Radio", platformIOS), "platform.id", platformAndroid)
			return h.do("POST", "/apps", body, withKey(h.acct(0, 0).APIKey)).str("platform.name")
		}},
		{faultErrorObjectNotArray, "array", func(h *harness) string {
			r := h.do("POST", "/sessions", map[string]any{"email": "x@y.example.com", "password": "wrong-one"})
			if _, ok := r.body.([]any); ok {
				return "array"
			}
			return fmt.Sprintf("%T", r.body)
		}},
		{faultValidationAs422, "400", func(h *harness) string {
			return code(h.do("POST", "/clients", map[string]any{}, withKey(h.acct(0, 0).APIKey)).status)
		}},
		{faultPlatformsBareArray, "object", func(h *harness) string {
			r := h.do("GET", "/platforms", nil)
			if _, ok := r.body.(map[string]any); ok && r.at("platforms.0.name") != nil {
				return "object"
			}
			return fmt.Sprintf("%T", r.body)
		}},
		{faultVersionV2Served, "404", func(h *harness) string {
			return code(h.doRaw("GET", "/pricing/v2/platforms", nil).status)
		}},
	}
}

func TestFaultProbes(t *testing.T) {
	covered := map[string]bool{}
	for _, p := range probes() {
		covered[p.fault] = true
		t.Run(p.fault, func(t *testing.T) {
			if !knownFault(p.fault) {
				t.Fatalf("probe for unknown fault %q", p.fault)
			}
			got := p.run(newHarness(t, ""))
			if got != p.want {
				t.Errorf("correct server: %q, want %q", got, p.want)
			}
			bad := p.run(newHarness(t, p.fault))
			if bad == p.want {
				t.Errorf("the fault is not observed: %q", bad)
			}
			t.Logf("correct %q, faulty %q", got, bad)
		})
	}
	for _, f := range Faults() {
		if !covered[f.Name] {
			t.Errorf("fault %s has no probe", f.Name)
		}
	}
}
