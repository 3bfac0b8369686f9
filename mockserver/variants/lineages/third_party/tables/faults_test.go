package tables

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// A probe is a request sequence whose observations (statuses and a few
// chosen values) differ between the correct server and the server with one
// fault. Each starts from a freshly seeded server with two pairs.
type probe func(h *harness) []string

func st(r resp) string { return fmt.Sprint(r.status) }

const missingID = "9007199254740997"

var probes = map[string]probe{
	fQueryTokenIgnored: func(h *harness) []string {
		tok := h.session(0, 0).str("token")
		return []string{st(h.do("GET", "/platforms", tokenQuery(tok), nil))}
	},
	fTokenPrefixMatch: func(h *harness) []string {
		tok := h.session(0, 0).str("token")
		return []string{st(h.do("GET", "/platforms", tokenHeader(tok[:42]+flip(tok[42])), nil))}
	},
	fNotFoundBeforeAuth: func(h *harness) []string {
		return []string{
			st(h.do("PUT", "/clients/"+missingID, anonymous, h.clientBody())),
			st(h.do("GET", "/users/"+missingID, anonymous, nil)),
		}
	},
	fOtherUser404: func(h *harness) []string {
		other := itoa(h.userID(0, 1))
		return []string{
			st(h.do("GET", "/users/"+other, h.key(0, 0), nil)),
			st(h.do("PUT", "/users/"+other, h.key(0, 0), h.userBody(0, 1))),
		}
	},
	fForbiddenUserPutApplied: func(h *harness) []string {
		b := h.account(0, 1)
		r := h.do("PUT", "/users/"+itoa(h.userID(0, 1)), h.key(0, 0), with(h.userBody(0, 1), "email", "hijacked@heronsgate.test"))
		return []string{st(r), st(h.login(b.Email, b.Password))}
	},
	fMissingClient403: func(h *harness) []string {
		return []string{st(h.do("PUT", "/clients/"+missingID, h.key(0, 0), h.clientBody()))}
	},
	fClientPermissionSkipped: func(h *harness) []string {
		theirs := itoa(h.clientID(0, 1))
		r := h.do("PUT", "/clients/"+theirs, h.key(0, 0), h.clientBody())
		return []string{st(r), h.do("GET", "/clients/"+theirs, h.key(0, 1), nil).str("name")}
	},
	fPasswordBytes: func(h *harness) []string {
		r := h.do("PUT", "/users/"+itoa(h.userID(0, 0)), h.key(0, 0), with(h.userBody(0, 0), "password", "ééé"))
		return []string{st(r)}
	},
	fPasswordNullBumpsDate: func(h *harness) []string {
		me := itoa(h.userID(0, 0))
		before := h.do("GET", "/users/"+me, h.key(0, 0), nil).str("passwordLastChanged")
		after := h.do("PUT", "/users/"+me, h.key(0, 0), h.userBody(0, 0)).str("passwordLastChanged")
		return []string{fmt.Sprint(before == after)}
	},
	fEmailIndexStale: func(h *harness) []string {
		a := h.account(0, 0)
		r := h.do("PUT", "/users/"+itoa(h.userID(0, 0)), h.key(0, 0), with(h.userBody(0, 0), "email", "moved.on@marrowlane.test"))
		return []string{st(r), st(h.login("moved.on@marrowlane.test", a.Password)), st(h.login(a.Email, a.Password))}
	},
	fFirstNameMissingKept: func(h *harness) []string {
		r := h.do("PUT", "/users/"+itoa(h.userID(0, 0)), h.key(0, 0), with(h.userBody(0, 0), "firstName", drop))
		return []string{st(r), strings.Join(r.codes(), ",")}
	},
	fLastNameCodeSwapped: func(h *harness) []string {
		r := h.do("PUT", "/users/"+itoa(h.userID(0, 0)), h.key(0, 0), with(h.userBody(0, 0), "lastName", drop))
		return []string{st(r), strings.Join(r.codes(), ",")}
	},
	fPhoneCountryUnknownOK: func(h *harness) []string {
		r := h.do("PUT", "/users/"+itoa(h.userID(0, 0)), h.key(0, 0), with(h.userBody(0, 0), "phoneCountry", map[string]any{"id": 9007199254740999}))
		return []string{st(r)}
	},
	fPutUserPartialWrite: func(h *harness) []string {
		a := h.account(0, 0)
		r := h.do("PUT", "/users/"+itoa(h.userID(0, 0)), h.key(0, 0), with(h.userBody(0, 0), "email", "half.way@marrowlane.test", "password", "abc"))
		return []string{st(r), st(h.login("half.way@marrowlane.test", a.Password))}
	},
	fDialCodeNoPlus: func(h *harness) []string {
		r := h.do("GET", "/users/"+itoa(h.userID(0, 0)), h.key(0, 0), nil)
		return []string{fmt.Sprint(strings.HasPrefix(r.str("phoneCountry.dialCode"), "+"))}
	},
	fOldPasswordStillWorks: func(h *harness) []string {
		a := h.account(0, 0)
		r := h.do("PUT", "/users/"+itoa(h.userID(0, 0)), h.key(0, 0), with(h.userBody(0, 0), "password", "Brand-new-77"))
		return []string{st(r), st(h.login(a.Email, a.Password)), st(h.login(a.Email, "Brand-new-77"))}
	},
	fSessionIDsAsStrings: func(h *harness) []string {
		s := h.session(0, 0)
		return []string{fmt.Sprintf("%T %T %T %T", s.get("id"), s.get("userId"), s.get("clientId"), s.get("creatorUserId"))}
	},
	fClientAppHalfCreated: func(h *harness) []string {
		count := func() string { return fmt.Sprint(len(h.do("GET", "/clients", h.key(0, 0), nil).items("clients"))) }
		before := count()
		body := with(h.clientBody(), "app", with(h.appByName("iOS"), "nextplan.id", 9007199254740999))
		r := h.do("POST", "/clients", h.key(0, 0), body)
		return []string{before, st(r), count()}
	},
	fPutClientAppAccepted: func(h *harness) []string {
		r := h.do("PUT", "/clients/"+itoa(h.clientID(0, 0)), h.key(0, 0), with(h.clientBody(), "app", h.appByName("iOS")))
		return []string{st(r)}
	},
	fTermsCaseInsensitive: func(h *harness) []string {
		return []string{st(h.do("POST", "/clients", h.key(0, 0), with(h.clientBody(), "terms", "i agree")))}
	},
	fLimit256Accepted: func(h *harness) []string {
		return []string{st(h.do("POST", "/clients", h.key(0, 0), with(h.clientBody(), "name", strings.Repeat("q", 256))))}
	},
	fCurrencyCodeStale: func(h *harness) []string {
		mine := itoa(h.clientID(0, 0))
		r := h.do("PUT", "/clients/"+mine, h.key(0, 0), with(h.clientBody(), "currency.id", h.cat.currencies["JPY"]))
		return []string{st(r), r.str("currency.code"), h.do("GET", "/clients/"+mine, h.key(0, 0), nil).str("currency.code")}
	},
	fHashPrefixMatch: func(h *harness) []string {
		body := map[string]any{"marketapp": map[string]any{"hash": h.cat.market[0].hash + "7"}}
		return []string{st(h.do("POST", "/apps", h.key(0, 0), body))}
	},
	fAppNameRequiredWithHash: func(h *harness) []string {
		body := map[string]any{"marketapp": map[string]any{"hash": h.cat.market[0].hash}}
		return []string{st(h.do("POST", "/apps", h.key(0, 0), body))}
	},
	fPlatformFromBodyWithHash: func(h *harness) []string {
		body := map[string]any{"marketapp": map[string]any{"hash": h.marketOn("Android").hash}, "platform": map[string]any{"id": h.cat.platforms["iOS"]}}
		return []string{h.do("POST", "/apps", h.key(0, 0), body).str("platform.name")}
	},
	fWriteKeyUUID: func(h *harness) []string {
		r := h.do("POST", "/apps", h.key(0, 0), h.appByName("Android"))
		return []string{fmt.Sprint(regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(r.str("writeKey")))}
	},
	fUserIDFloatRounded: func(h *harness) []string {
		me := itoa(h.userID(0, 0))
		return []string{fmt.Sprint(h.do("GET", "/users/"+me, h.key(0, 0), nil).str("id") == me)}
	},
	fErrorObjectNotArray: func(h *harness) []string {
		r := h.do("PUT", "/users/"+itoa(h.userID(0, 0)), h.key(0, 0), with(h.userBody(0, 0), "firstName", ""))
		return []string{st(r), fmt.Sprintf("%T", r.v)}
	},
	fAnyVersionServed: func(h *harness) []string {
		root := strings.TrimSuffix(h.base, h.s.BasePath())
		return []string{st(h.doURL("GET", root+"/api/v2/platforms", h.key(0, 0), nil))}
	},
	fCollectionBareArray: func(h *harness) []string {
		return []string{fmt.Sprintf("%T", h.do("GET", "/platforms", h.key(0, 0), nil).v)}
	},
}

func TestFaultList(t *testing.T) {
	fs := Faults()
	if len(fs) < 20 || len(fs) > 30 {
		t.Errorf("%d faults, want 20 to 30", len(fs))
	}
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	rule := regexp.MustCompile(`^[1-9](\.[1-9])?$`)
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.Name] || !kebab.MatchString(f.Name) || !rule.MatchString(f.Rule) || f.Description == "" {
			t.Errorf("bad fault %+v", f)
		}
		seen[f.Name] = true
		if _, err := New(Options{Fault: f.Name}); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
		if probes[f.Name] == nil {
			t.Errorf("%s has no probe", f.Name)
		}
	}
	for name := range probes {
		if !seen[name] {
			t.Errorf("probe for unknown fault %s", name)
		}
	}
	if fmt.Sprint(Faults()) != fmt.Sprint(fs) {
		t.Error("Faults() is not stable")
	}
}

func TestFaultProbes(t *testing.T) {
	for _, f := range Faults() {
		p := probes[f.Name]
		if p == nil {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			good := p(newHarness(t, Options{Pairs: 2}))
			bad := p(newHarness(t, Options{Pairs: 2, Fault: f.Name}))
			if fmt.Sprint(good) == fmt.Sprint(bad) {
				t.Errorf("the fault changes nothing the probe sees: %v", good)
			}
			t.Logf("correct %v, faulty %v", good, bad)
		})
	}
}
