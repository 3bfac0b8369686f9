package steps

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/steps/target"
)

// seedHeader is the header a pricing-mock names its seed in (target.SeedHeader).
const seedHeader = target.SeedHeader

// Identify asks the target, with one request that needs no account and
// changes nothing (GET of the platforms collection), whether it is the mock
// of the default seed, and completes the profile accordingly (Complete):
// the seed values not given are the mock's there, and elsewhere derived or
// left unset. It then refuses (*UnusableError) a profile with no accounts.
// Preflight calls it first; a run without the preflight calls it alone.
func (s *Suite) Identify(ctx context.Context) error {
	if !s.profile.Loaded() || s.identified {
		return nil
	}
	s.identified = true
	st := s.newState(nil)
	out := outgoing{method: http.MethodGet, header: http.Header{}}
	out.url, _ = s.endpointURL(s.profile.MustValue("platforms_path"), "")
	ex := st.do(ctx, out)
	if ex.err != nil {
		return noAnswer(ex, st, http.MethodGet, st.maskURL(ex.url))
	}
	mockSeed := ex.respHeader.Get(seedHeader) == "default"
	s.profile.Complete(mockSeed)
	switch {
	case s.profile.SeedDefaultsMode() != "auto":
		s.notice("profile:seed", "profile: seed_defaults = %s", s.profile.SeedDefaultsMode())
	case mockSeed:
		s.notice("profile:seed", "profile: the target is a pricing-mock with the default seed, whose values stand for the keys the profile does not give")
	default:
		var unset, standIns []string
		for _, f := range target.Fields() {
			switch {
			case !s.profile.Missing(f.Key):
			case restoreOnly[f.Key]:
				standIns = append(standIns, f.Key)
			default:
				unset = append(unset, f.Key)
			}
		}
		if len(unset) > 0 {
			s.notice("profile:seed", "profile: the target is not the default mock, so these keys have no value and the scenarios that need one are skipped: %s",
				strings.Join(unset, ", "))
		}
		if len(standIns) > 0 {
			s.notice("profile:restore", "profile: %s have no value: an account restored without GET /users/:userId gets stand-ins (names Contract Account, timezone Europe/London, account A's phone)",
				strings.Join(standIns, ", "))
		}
	}
	for _, n := range s.profile.Notes() {
		s.notice("profile:"+n, "profile: %s", n)
	}
	var missing []string
	for _, key := range []string{"email", "password", "api_key", "other_email", "other_password", "other_api_key"} {
		if s.profile.Missing(key) {
			f, _ := target.Lookup(key)
			missing = append(missing, f.Env)
		}
	}
	if len(missing) > 0 {
		return &UnusableError{Reason: fmt.Sprintf("the profile gives no %s, and the target is not the default mock: set them (pricing-contract init writes a profile)",
			strings.Join(missing, ", "))}
	}
	s.pool = newAccountPool(profilePairs(s.profile))
	return nil
}

// restoreOnly are the keys only a restore without a snapshot uses; where
// the profile gives none, profilePairs writes stand-ins.
var restoreOnly = map[string]bool{
	"first_name": true, "last_name": true, "timezone": true, "other_first_name": true, "other_last_name": true, "other_timezone": true,
	"other_phone_country_id": true, "other_phone_number": true, "other_phone_extension": true,
}
