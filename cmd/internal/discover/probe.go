package discover

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// currenciesOfClients takes the currencies of every client the accounts
// can see through the read extensions the target has: their own clients
// and the clients of their users.
func (d *discovery) currenciesOfClients(ctx context.Context, acct map[string]string, sessions [2]gjson.Result) {
	seen := map[string]string{}
	var order []string
	add := func(c gjson.Result) {
		id, code := c.Get("currency.id").Raw, c.Get("currency.code").String()
		if target.CheckID(id) != nil || !target.IsCurrencyCode(code) {
			return
		}
		if _, ok := seen[id]; !ok {
			order = append(order, id)
		}
		seen[id] = code
	}
	for i, key := range []string{acct["api_key"], acct["other_api_key"]} {
		user, client := sessions[i].Get("userId").Raw, sessions[i].Get("clientId").Raw
		if c, ok := d.get(ctx, "/clients/"+client, key); ok {
			add(c)
		}
		if v, ok := d.get(ctx, "/users/"+user+"/clients", key); ok {
			for _, c := range v.Get("clients").Array() {
				add(c)
			}
		}
	}
	if len(order) < target.MinCatalogue {
		return
	}
	items := make([]string, len(order))
	for i, id := range order {
		items[i] = id + ":" + seen[id]
	}
	d.set("currencies", strings.Join(items, ","), "the currencies of the clients accounts A and B see")
}

// catalogueProbe finds the ids of a catalogue no answer lists, the way the
// preflight checks a profile's values: each candidate id rides on a
// request that every correct target refuses for a reason of section 7.3
// (a blank name), so nothing changes, and the refusal either names the
// field as well (or is a 404: an unknown reference) or it does not.
type catalogueProbe struct {
	key, field   string // profile key and the body field it fills
	method, path string
	body         func(id string) map[string]any
}

// probeCatalogues looks for the ids init found no answer showing: a plan
// (no answer of the spec shows a plan id), a currency and a phone country
// (on a target without read extensions).
func (d *discovery) probeCatalogues(ctx context.Context, acct map[string]string) {
	key := acct["api_key"]
	var probes []catalogueProbe
	if _, ok := d.found["plan_id"]; !ok {
		if platform, ok := d.found["platform_id"]; ok {
			probes = append(probes, catalogueProbe{key: "plan_id", field: "nextplan.id", method: http.MethodPost, path: "/apps",
				body: func(id string) map[string]any {
					return map[string]any{"name": "", "platform": map[string]any{"id": json.Number(platform)}, "nextplan": map[string]any{"id": json.Number(id)}}
				}})
		} else {
			d.notes["plan_id"] = "no platform id was found, which the probe of plan ids needs"
		}
	}
	if _, ok := d.found["currency_id"]; !ok {
		probes = append(probes, catalogueProbe{key: "currency_id", field: "currency.id", method: http.MethodPost, path: "/clients",
			body: func(id string) map[string]any {
				return map[string]any{"name": "", "addressLine1": "1 Probe Street", "addressCity": "London", "addressPostcode": "EC1A 1BB",
					"addressCountry": "United Kingdom", "currency": map[string]any{"id": json.Number(id)}, "terms": "I agree"}
			}})
	}
	if _, ok := d.found["phone_country_id"]; !ok {
		probes = append(probes, catalogueProbe{key: "phone_country_id", field: "phoneCountry.id", method: http.MethodPut, path: "/users/" + d.userA,
			body: func(id string) map[string]any {
				return map[string]any{"email": acct["email"], "firstName": "", "lastName": "Probe", "subscribeWelcome": false,
					"subscribeBlog": false, "subscribeHowto": false, "subscribeOnboarding": false, "timezone": "Europe/London",
					"password": nil, "phoneCountry": map[string]any{"id": json.Number(id)}, "phoneNumber": "7700900123", "phoneExtension": nil}
			}})
	}
	for _, p := range probes {
		known, conclusive := d.probe(ctx, key, p, probeCandidates(p.key, d.seen()))
		switch {
		case len(known) > 0:
			d.set(p.key, known[0], fmt.Sprintf("%s with a blank name was refused for the name alone with this id, and also for %s with other ids", p.method+" "+p.path, p.field))
			if list := listOf[p.key]; list != "" && len(known) >= target.MinCatalogue {
				d.notes[list] = fmt.Sprintf("the target knows the %s ids %s (found by refused requests); what each is shows only in an answer that creates one", p.field, strings.Join(known, ", "))
			}
		case conclusive:
			d.notes[p.key] = fmt.Sprintf("none of the ids tried is known to the target (%s with a blank name)", p.method+" "+p.path)
		default:
			d.notes[p.key] = fmt.Sprintf("%s with a blank name is refused for the name whatever %s says, so refused requests cannot tell a known id", p.method+" "+p.path, p.field)
		}
	}
}

// listOf is the catalogue list of a key whose entries need more than an id.
var listOf = map[string]string{"plan_id": "plans", "currency_id": "currencies"}

// seen is every id of a catalogue init found.
func (d *discovery) seen() []string {
	var ids []string
	for _, k := range []string{"currency_id", "platform_id", "phone_country_id", "other_phone_country_id", "plan_id"} {
		if v, ok := d.found[k]; ok {
			ids = append(ids, v)
		}
	}
	for _, k := range []string{"currencies", "platforms", "plans"} {
		for _, item := range strings.Split(d.found[k], ",") {
			if id, _, _ := strings.Cut(item, ":"); id != "" {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// probeCandidates are the ids tried: small ones, the first few of each
// hundred and thousand, the neighbours of every catalogue id seen, and for
// currencies the ISO 4217 numbers of the common ones. About 130 requests.
func probeCandidates(key string, seen []string) []string {
	set := map[int64]bool{}
	for i := int64(1); i <= 32; i++ {
		set[i] = true
	}
	for k := int64(1); k <= 9; k++ {
		for j := int64(1); j <= 3; j++ {
			set[100*k+j], set[1000*k+j] = true, true
		}
		set[1000*k+4], set[1000*k+5] = true, true
	}
	for _, s := range seen {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			for j := n - 3; j <= n+3; j++ {
				if j > 0 {
					set[j] = true
				}
			}
		}
	}
	if key == "currency_id" {
		// GBP, EUR, USD, CHF, JPY, SEK, NOK, DKK, PLN, CAD, AUD
		for _, n := range []int64{826, 978, 840, 756, 392, 752, 578, 208, 985, 124, 36} {
			set[n] = true
		}
	}
	ids := make([]int64, 0, len(set))
	for n := range set {
		ids = append(ids, n)
	}
	slices.Sort(ids)
	out := make([]string, len(ids))
	for i, n := range ids {
		out[i] = strconv.FormatInt(n, 10)
	}
	return out
}

// probe sends one request per candidate, eight at a time, and returns the
// ids the target knows, lowest first. An id is known when its request was
// refused without naming the field, and conclusive says that some other id
// was refused for the field (named in a 400, or a 404), which shows that
// the request tells known ids from unknown ones at all.
func (d *discovery) probe(ctx context.Context, key string, p catalogueProbe, candidates []string) (known []string, conclusive bool) {
	type verdict int
	const (
		unclear verdict = iota
		accepted
		refused
	)
	verdicts := make([]verdict, len(candidates))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, id := range candidates {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			body, _ := json.Marshal(p.body(id))
			h := http.Header{"Authorization": {"api-key " + key}, "Content-Type": {"application/json"}}
			status, b, _, err := d.do(ctx, p.method, d.base+p.path, h, string(body))
			switch {
			case err != nil:
			case status == http.StatusNotFound:
				verdicts[i] = refused
			case status == http.StatusBadRequest:
				verdicts[i] = accepted
				for _, e := range gjson.ParseBytes(b).Array() {
					name := e.Get("fieldName").String()
					if strings.EqualFold(name, p.field) || strings.EqualFold(name, strings.TrimSuffix(p.field, ".id")) {
						verdicts[i] = refused
					}
				}
			}
		}()
	}
	wg.Wait()
	for i, v := range verdicts {
		switch v {
		case refused:
			conclusive = true
		case accepted:
			known = append(known, candidates[i])
		}
	}
	if !conclusive {
		return nil, false
	}
	sort.SliceStable(known, func(i, j int) bool {
		return len(known[i]) < len(known[j]) || len(known[i]) == len(known[j]) && known[i] < known[j]
	})
	return known, true
}

// phoneCountryField finds how a PUT /users body carries the phone country
// (the spec shows no request field for it): as phoneCountry {id}, as the
// user answers it, or flat as phoneCountryId, as its code is named. Two
// requests with a blank first name (refused by every correct target, 7.3:
// "No first name was provided", so nothing is written) carry the phone
// country in each form: the form whose refusal names the phone country
// (as missing, or as a field it does not take) is not the target's. A
// target whose phone fields are optional names neither: then an unknown
// id in each form tells, where the target judges it beside the blank name
// (the form it reads names the phone country; the one it ignores does not).
func (d *discovery) phoneCountryField(ctx context.Context, acct map[string]string) {
	known, ok := d.found["phone_country_id"]
	if !ok || d.userA == "" {
		return
	}
	// names reports whether the refusal names the phone country; with
	// code, only for that code (an unknown id's, not a member the target
	// does not take).
	names := func(form, id, code string) (phone bool, ok bool) {
		body := map[string]any{"email": acct["email"], "firstName": "", "lastName": "Probe", "subscribeWelcome": false,
			"subscribeBlog": false, "subscribeHowto": false, "subscribeOnboarding": false, "timezone": "Europe/London",
			"password": nil, "phoneNumber": "7700900123", "phoneExtension": nil}
		if form == target.PhoneCountryFlat {
			body["phoneCountryId"] = json.Number(id)
		} else {
			body["phoneCountry"] = map[string]any{"id": json.Number(id)}
		}
		b, _ := json.Marshal(body)
		h := http.Header{"Authorization": {"api-key " + acct["api_key"]}, "Content-Type": {"application/json"}}
		status, ans, _, err := d.do(ctx, http.MethodPut, d.base+"/users/"+d.userA, h, string(b))
		if err != nil || status != http.StatusBadRequest || !gjson.ValidBytes(ans) {
			return false, false
		}
		for _, e := range gjson.ParseBytes(ans).Array() {
			if strings.HasPrefix(e.Get("fieldName").String(), "phoneCountry") && (code == "" || e.Get("error").String() == code) {
				phone = true
			}
		}
		return phone, true
	}
	objectNamed, ok1 := names(target.PhoneCountryObject, known, "")
	flatNamed, ok2 := names(target.PhoneCountryFlat, known, "")
	switch {
	case ok1 && ok2 && objectNamed && !flatNamed:
		d.set("phone_country_field", target.PhoneCountryFlat, "PUT /users with a blank first name was refused for the phone country as phoneCountry {id}, and not as phoneCountryId")
		return
	case !ok1 || objectNamed:
		return
	}
	const unknown = "999999999"
	objectUnknown, ok1 := names(target.PhoneCountryObject, unknown, pricing.CodeInvalidPhoneCountryID.String())
	flatUnknown, ok2 := names(target.PhoneCountryFlat, unknown, pricing.CodeInvalidPhoneCountryID.String())
	if ok1 && ok2 && flatUnknown && !objectUnknown {
		d.set("phone_country_field", target.PhoneCountryFlat, "PUT /users with a blank first name was refused for an unknown phone country as phoneCountryId, and not as phoneCountry {id}")
		return
	}
	d.set("phone_country_field", target.PhoneCountryObject, "PUT /users with a blank first name was refused for the first name alone with phoneCountry {id}")
}
