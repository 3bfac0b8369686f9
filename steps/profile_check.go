package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/steps/target"
)

// profiledField is a body field the suite fills from the profile: a 400
// naming it, for the value the profile gave, says that the profile does not
// fit the target, not that the target breaks the contract.
type profiledField struct {
	field string   // the field's dotted path in a body, as a 400 names it
	keys  []string // the profile keys whose values fill it
	// reference: the value names an entity of the target (a catalogue id,
	// the marketplace hash), which a target may refuse as unknown with 404.
	reference bool
}

// choiceOf is, for a field, a choice key of the profile whose other
// reading may be the cause of a 400 for a valid value, and that reading: a
// target that takes one app of a marketplace app refuses the hash of a
// second.
type choiceOf struct{ choice, otherwise string }

var fieldChoices = map[string]choiceOf{"marketapp.hash": {"apps_per_marketapp", "one"}}

var profiledFields = []profiledField{
	{"currency.id", []string{"currency_id", "currencies"}, true},
	{"platform.id", []string{"platform_id", "platforms"}, true},
	{"nextplan.id", []string{"plan_id", "plans"}, true},
	{"phoneCountry.id", []string{"phone_country_id", "other_phone_country_id"}, true},
	{"marketapp.hash", []string{"marketapp_hash"}, true},
	{"phoneNumber", []string{"phone_number", "other_phone_number"}, false},
	{"phoneExtension", []string{"phone_extension", "other_phone_extension"}, false},
	{"addressLine1", []string{"address_line1"}, false},
	{"addressLine2", []string{"address_line2"}, false},
	{"addressCity", []string{"address_city"}, false},
	{"addressPostcode", []string{"address_postcode"}, false},
	{"addressCountry", []string{"address_country"}, false},
	{"vat", []string{"vat"}, false},
	{"email", []string{"email_domain"}, false},
}

// refusal is a value of the profile that the target refused: named by a
// 400, or, for a 404 that named no field, one of the unverified values the
// request carried (others).
type refusal struct {
	field, value, key string
	status            int
	others            []refusal
	probed            bool // found by the preflight's probes, not by a scenario
	// or: the value may be valid, and the profile's choice the cause
	// (fieldChoices).
	or choiceOf
}

func (r refusal) String() string {
	f, _ := target.Lookup(r.key)
	if r.or.choice == r.key {
		return fmt.Sprintf("the target refused the profile's `%s` %s, which it had taken in this run: %s (%s, %s: %s)", r.field, r.value, target.Question(r.key), f.Env, r.key, r.or.otherwise)
	}
	if r.status == http.StatusNotFound && r.probed {
		return fmt.Sprintf("the target answered 404 to the profile's `%s` %s (%s, %s), and 400 to the same request with another value: it does not know it", r.field, r.value, f.Env, r.key)
	}
	if r.status == http.StatusNotFound {
		text := fmt.Sprintf("the target answered 404 to a request carrying the profile's `%s` %s (%s, %s)", r.field, r.value, f.Env, r.key)
		for _, o := range r.others {
			of, _ := target.Lookup(o.key)
			text += fmt.Sprintf(" or `%s` %s (%s, %s)", o.field, o.value, of.Env, o.key)
		}
		return text + ", which the preflight could not check: it may not know it"
	}
	text := fmt.Sprintf("the target refused the profile's `%s` %s (%s, %s)", r.field, r.value, f.Env, r.key)
	if r.or.choice != "" {
		c, _ := target.Lookup(r.or.choice)
		text += fmt.Sprintf(", or chose otherwise than %s says: %s (%s, %s: %s)", r.or.choice, target.Question(r.or.choice), c.Env, r.or.choice, r.or.otherwise)
	}
	return text
}

// profileErrorPrefix starts the line a failure carries when it was caused
// by a refused profile value; the runner counts such failures apart.
const profileErrorPrefix = "profile error: "

// fieldOf is a 400's fieldName without the prefix of a nested body (the app
// of POST /clients, the client of a sign-up), matched without case.
func fieldOf(name string) string {
	for _, p := range []string{"client.app.", "client.", "app."} {
		if len(name) > len(p) && strings.EqualFold(name[:len(p)], p) {
			name = name[len(p):]
			break
		}
	}
	return name
}

// nestings are the prefixes under which a body of the API carries another
// body's fields: the app of POST /clients, the client of PUT /users.
var nestings = []string{"", "app.", "client.", "client.app."}

// refusedProfileValue reports a failure's answer that is the target's
// refusal of a value the suite took from the profile and the preflight
// could not verify, whatever the status the spec leaves it: a 400 that
// names the field, or a 404 (an unknown reference, on a target that answers
// so) to a body that carries such a value, the field the 404 names first.
// ok is false for any other answer.
func (s *Suite) refusedProfileValue(ex *exchange) (refusal, bool) {
	if ex == nil || ex.err != nil || ex.out.body == nil || (ex.status != http.StatusBadRequest && ex.status != http.StatusNotFound) {
		return refusal{}, false
	}
	body := gjson.ParseBytes(ex.out.body)
	unverified := func(pf profiledField, sent gjson.Result) (refusal, bool) {
		for _, key := range pf.keys {
			v, ok := s.profileHolds(key, sent.String())
			if !ok {
				continue
			}
			// A 400 for the hash may be the refusal of a second app of
			// its marketplace app: the cause, where the target took the
			// hash once in this run; a possible one where it never did.
			var or choiceOf
			if c, ok := fieldChoices[pf.field]; ok && ex.status == http.StatusBadRequest && s.profile.MustValue(c.choice) != c.otherwise {
				or = c
			}
			if !s.verifiedValue(pf.field, v) {
				return refusal{field: pf.field, value: v, key: key, status: ex.status, or: or}, true
			}
			if or.choice != "" {
				return refusal{field: pf.field, value: v, key: or.choice, status: ex.status, or: or}, true
			}
		}
		return refusal{}, false
	}
	for _, e := range gjson.ParseBytes(ex.respBody).Array() {
		name := e.Get("fieldName").String()
		for _, pf := range profiledFields {
			if !strings.EqualFold(fieldOf(name), pf.field) && !strings.EqualFold(fieldOf(name), strings.TrimSuffix(pf.field, ".id")) {
				continue
			}
			sent := body.Get(strings.TrimPrefix(name[:len(name)-len(fieldOf(name))]+pf.field, "."))
			if !sent.Exists() {
				continue
			}
			if r, ok := unverified(pf, sent); ok {
				r.status = http.StatusBadRequest // named: the field is the cause
				return r, true
			}
		}
	}
	if ex.status != http.StatusNotFound {
		return refusal{}, false
	}
	// A 404 that names no field of the profile: the references of the body
	// the preflight could not verify are the candidates, in the order of
	// profiledFields (the catalogue ids and the hash first).
	var found []refusal
	for _, pf := range profiledFields {
		if !pf.reference {
			continue
		}
		for _, prefix := range nestings {
			if sent := body.Get(prefix + pf.field); sent.Exists() && sent.Type != gjson.Null {
				if r, ok := unverified(pf, sent); ok && !slices.ContainsFunc(found, func(f refusal) bool { return f.key == r.key }) {
					found = append(found, r)
				}
			}
		}
	}
	if len(found) == 0 {
		return refusal{}, false
	}
	found[0].others = found[1:]
	return found[0], true
}

// profileHolds reports whether sent is the profile's value of key: equal,
// an id of a catalogue list, or for email_domain an address at it.
func (s *Suite) profileHolds(key, sent string) (string, bool) {
	if s.profile.Missing(key) {
		return "", false
	}
	v := s.profile.MustValue(key)
	switch key {
	case "currencies", "plans", "platforms":
		for _, item := range strings.Split(v, ",") {
			if id, _, _ := strings.Cut(strings.TrimSpace(item), ":"); id == sent {
				return id, true
			}
		}
		return "", false
	case "email_domain":
		_, domain, ok := strings.Cut(sent, "@")
		if ok && (strings.EqualFold(domain, v) || strings.HasSuffix(strings.ToLower(domain), "."+strings.ToLower(v))) {
			return v, true
		}
		return "", false
	}
	if key == "marketapp_hash" { // the scenarios send it in either case
		return v, strings.EqualFold(sent, v)
	}
	return v, sent == v
}

// verifiedValue reports whether the preflight saw the target accept value
// in field.
func (s *Suite) verifiedValue(field, value string) bool {
	s.checkMu.Lock()
	defer s.checkMu.Unlock()
	return s.verified[field+"="+value]
}

func (s *Suite) verify(field, value string) {
	s.checkMu.Lock()
	defer s.checkMu.Unlock()
	if s.verified == nil {
		s.verified = map[string]bool{}
	}
	s.verified[field+"="+value] = true
}

// probe is one request of the profile check: refused for a reason of
// section 7.3 on any correct target (a blank name or first name), so it
// changes nothing, and carrying one value of the profile in field, which a
// 400 then either names (the target refuses the value) or not (it accepts
// it).
type probe struct {
	method, path, template string
	set                    map[string]any // body fields set after the template
	field, value, key      string
}

// sendProbe sends the probe's request: its template with the probe's
// fields set, with account A's api key. It sends nothing (nil) when the
// template needs a value the profile does not give (a plan id, say): this
// value cannot ride on it, and the scenarios that need the missing one say
// so themselves.
func (s *Suite) sendProbe(ctx context.Context, pr probe) (*exchange, error) {
	st := s.newState(nil)
	st.pair, st.need[0] = s.pool.pairs[0], sharedAccess
	data, err := s.fixture("bodies", pr.template)
	if err != nil {
		return nil, err
	}
	if err := st.setJSONBody(ctx, "template "+pr.template, string(data)); err != nil {
		var missing *missingValue
		if errors.As(err, &missing) {
			return nil, nil
		}
		return nil, err
	}
	for field, v := range pr.set {
		if err := st.setBodyField(ctx, field, v, true); err != nil {
			return nil, err
		}
	}
	out := outgoing{method: pr.method, header: http.Header{}}
	out.url, _ = s.endpointURL(pr.path, "")
	out.header.Set("Authorization", "api-key "+st.pair.accounts[0].apiKey)
	if err := st.pending.apply(&out); err != nil {
		return nil, err
	}
	return st.do(ctx, out), nil
}

// probes are the checks of every value of the profile that a refused
// request can show: each currency, platform, plan and phone country id, the
// address, the phone and the email domain. The marketplace hash cannot be
// checked so: with a hash, no field of POST /apps is required.
func (s *Suite) probes(userID string) []probe {
	p := s.profile
	var out []probe
	ids := func(idKey, listKey string) map[string]string {
		got := map[string]string{}
		if !p.Missing(listKey) {
			for _, item := range strings.Split(p.MustValue(listKey), ",") {
				id, _, _ := strings.Cut(strings.TrimSpace(item), ":")
				got[id] = listKey
			}
		}
		if !p.Missing(idKey) {
			got[p.MustValue(idKey)] = idKey
		}
		return got
	}
	add := func(method, path, template, field string, values map[string]string, set map[string]any) {
		keys := make([]string, 0, len(values))
		for v := range values {
			keys = append(keys, v)
		}
		sort.Strings(keys)
		for _, v := range keys {
			b := map[string]any{field: jsonNumberOrText(v)}
			for k, x := range set {
				b[k] = x
			}
			out = append(out, probe{method, path, template, b, field, v, values[v]})
		}
	}
	blankClient := map[string]any{"name": ""}
	add(http.MethodPost, "/clients", "client", "currency.id", ids("currency_id", "currencies"), blankClient)
	blankApp := map[string]any{"name": ""}
	add(http.MethodPost, "/apps", "app-by-name", "platform.id", ids("platform_id", "platforms"), blankApp)
	add(http.MethodPost, "/apps", "app-by-name", "nextplan.id", ids("plan_id", "plans"), blankApp)
	users := "/users/" + userID
	phones := map[string]string{}
	for _, k := range []string{"other_phone_country_id", "phone_country_id"} {
		if !p.Missing(k) {
			phones[p.MustValue(k)] = k
		}
	}
	add(http.MethodPut, users, "user", "phoneCountry.id", phones, map[string]any{"firstName": ""})
	// The template's values: the address, the phone and a made-up email at
	// the profile's domain, each named by the key it came from.
	for _, f := range []struct{ method, path, template, field, key string }{
		{http.MethodPost, "/clients", "client", "addressLine1", "address_line1"},
		{http.MethodPost, "/clients", "client", "addressLine2", "address_line2"},
		{http.MethodPost, "/clients", "client", "addressCity", "address_city"},
		{http.MethodPost, "/clients", "client", "addressPostcode", "address_postcode"},
		{http.MethodPost, "/clients", "client", "addressCountry", "address_country"},
		{http.MethodPost, "/clients", "client", "vat", "vat"},
		{http.MethodPut, users, "user", "phoneNumber", "phone_number"},
		{http.MethodPut, users, "user", "email", "email_domain"},
	} {
		set := blankClient
		if f.template == "user" {
			set = map[string]any{"firstName": ""}
		}
		out = append(out, probe{f.method, f.path, f.template, set, f.field, p.MustValue(f.key), f.key})
	}
	return out
}

// jsonNumberOrText is an id as a JSON number when it is one.
func jsonNumberOrText(v string) any {
	if err := target.CheckID(v); err == nil {
		return json.Number(v)
	}
	return v
}

// checkProfileValues sends the probes as account A of pair 1 with its api
// key, at once, and returns the values the target refused, one per key.
// A probe the target does not answer 400 proves nothing and is left out
// (a 403 of a target that allows one client per user, say).
func (s *Suite) checkProfileValues(ctx context.Context, userID string) ([]refusal, error) {
	probes := s.probes(userID)
	var (
		mu          sync.Mutex
		refused     = map[string]refusal{}
		notFound    = map[int]bool{}    // probes answered 404 naming no field
		answered400 = map[string]bool{} // templates some probe of which was answered 400
	)
	err := parallel(len(probes), func(i int) error {
		pr := probes[i]
		ex, err := s.sendProbe(ctx, pr)
		if err != nil || ex == nil || ex.err != nil || (ex.status != http.StatusBadRequest && ex.status != http.StatusNotFound) {
			return err
		}
		sent := gjson.GetBytes(ex.out.body, pr.field).String()
		for _, e := range gjson.ParseBytes(ex.respBody).Array() {
			if strings.EqualFold(fieldOf(e.Get("fieldName").String()), pr.field) ||
				strings.EqualFold(fieldOf(e.Get("fieldName").String()), strings.TrimSuffix(pr.field, ".id")) {
				mu.Lock()
				if _, ok := refused[pr.key]; !ok {
					v := pr.value
					if pr.field == "email" {
						v = sent
					}
					refused[pr.key] = refusal{field: pr.field, value: v, key: pr.key, status: ex.status}
				}
				mu.Unlock()
				return nil
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if ex.status == http.StatusNotFound {
			notFound[i] = true
			return nil
		}
		answered400[pr.method+" "+pr.path+" "+pr.template] = true
		s.verify(pr.field, pr.value)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// A 404 that names no field is an unknown reference of the body (a
	// target that answers unknown references so): this probe's value when
	// another probe of the same template was answered 400, which shows
	// that the template's other values are known. Otherwise it cannot be
	// told which value is unknown, and a scenario that meets it says so.
	for i := range notFound {
		pr := probes[i]
		if _, ok := refused[pr.key]; !ok && answered400[pr.method+" "+pr.path+" "+pr.template] {
			refused[pr.key] = refusal{field: pr.field, value: pr.value, key: pr.key, status: http.StatusNotFound, probed: true}
		}
	}
	var out []refusal
	for _, r := range refused {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, nil
}

// acceptedProfileValues verifies the profile's values a request carried
// and the target answered 200 to: a value taken once is valid on the
// target, so that a later refusal of it has another cause (the second app
// of a marketplace app) and is not reported as the profile's value.
func (s *Suite) acceptedProfileValues(ex *exchange) {
	if ex == nil || ex.err != nil || ex.status != http.StatusOK || ex.out.body == nil {
		return
	}
	body := gjson.ParseBytes(ex.out.body)
	if !body.IsObject() {
		return
	}
	for _, pf := range profiledFields {
		for _, prefix := range nestings {
			sent := body.Get(prefix + pf.field)
			if !sent.Exists() || sent.Type == gjson.Null {
				continue
			}
			for _, key := range pf.keys {
				if v, ok := s.profileHolds(key, sent.String()); ok {
					s.verify(pf.field, v)
				}
			}
		}
	}
}
