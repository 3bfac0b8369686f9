package explore

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The reference is the mock's domain (mockserver/pricing), a store seeded
// with what the explorer knows of the target: its two accounts as the
// target shows them (the read extensions) or as the profile gives them, and
// the catalogues of the profile. A value the explorer cannot know (a
// marketplace app's name, a phone country's dial code on a target without
// read extensions, the creation date of an account) is seeded as a
// placeholder and learned from the target's first answer that shows it;
// every later answer must agree with it.

// unknownDate is the date the reference holds where it cannot know the
// target's: the answer that shows it first is learned.
var unknownDate = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// Placeholders of catalogue values the profile does not give.
const (
	unknownName     = "contract-explore-unknown"
	unknownDialCode = "+0"
	// unknownPhone is a phone country's name: 2.1 wants its dial code in
	// brackets, and the reference checks it.
	unknownPhone = unknownName + " (" + unknownDialCode + ")"
	unknownCode  = "XXX"
)

// catalogue is what the explorer knows of the target's catalogues.
type catalogue struct {
	currencies     map[int64]string // id: code (unknownCode: not given)
	plans          map[int64]string // id: name as the profile gives it
	platforms      map[int64]string // id: name
	phoneCountries map[int64][2]string
	hash           string // the profile's marketplace app
	platformID     int64  // the profile's platform, the marketplace app's
	planID         int64
	currencyID     int64
}

// planFlags are the flags of a plan named lite, pro or dynamic (2.3); ok
// is false for a name that says nothing of them.
func planFlags(name string) (lite, pro, dynamic, billing, ok bool) {
	switch strings.ToLower(name) {
	case "lite":
		return true, false, false, false, true
	case "pro":
		return false, true, false, true, true
	case "dynamic":
		return false, false, true, true, true
	}
	return false, false, false, false, false
}

// seedFS renders the reference's seed as the fixture files of
// pricing.LoadSeed.
func (e *explorer) seedFS() (fstest.MapFS, error) {
	c := e.cat
	files := fstest.MapFS{}
	put := func(name string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		files[name] = &fstest.MapFile{Data: b}
		return nil
	}
	var (
		platforms, currencies, plans, phones []map[string]any
	)
	for id, name := range c.platforms {
		platforms = append(platforms, map[string]any{"id": id, "created": "2024-01-01T00:00:00Z", "creatorUserId": e.acct["A"].user.ID, "name": name})
	}
	for id, code := range c.currencies {
		currencies = append(currencies, map[string]any{"id": id, "code": code})
	}
	for id, name := range c.plans {
		lite, pro, dyn, billing, _ := planFlags(name)
		plans = append(plans, map[string]any{"id": id, "name": name, "isLite": lite, "isPro": pro, "isDynamic": dyn, "needBilling": billing})
	}
	for id, nd := range c.phoneCountries {
		phones = append(phones, map[string]any{"id": id, "name": nd[0], "dialCode": nd[1]})
	}
	market := []map[string]any{{"hash": c.hash, "name": unknownName, "platformId": c.platformID}}
	var users []pricing.StateUser
	var clients []pricing.StateClient
	for _, name := range []string{"A", "B"} {
		a := e.acct[name]
		users = append(users, a.user)
		clients = append(clients, a.clientSeed)
	}
	prof := map[string]any{
		"email": e.acct["A"].user.Email, "password": e.acct["A"].user.Password, "apiKey": e.acct["A"].apiKey,
		"otherEmail": e.acct["B"].user.Email, "otherPassword": e.acct["B"].user.Password, "otherApiKey": e.acct["B"].apiKey,
		"currencyId": c.currencyID, "planId": c.planID, "platformId": c.platformID,
		"phoneCountryId": e.acct["A"].user.PhoneCountryID, "marketappHash": c.hash,
	}
	for name, v := range map[string]any{
		"platforms.json": platforms, "currencies.json": currencies, "plans.json": plans, "phoneCountries.json": phones,
		"marketapps.json": market, "users.json": users, "clients.json": clients, "apps.json": []any{}, "profile.json": prof,
	} {
		if err := put(name, v); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// newReference makes the reference of one sequence: a fresh store of the
// seed, with a session for each account.
func (e *explorer) newReference() (*pricing.Store, error) {
	files, err := e.seedFS()
	if err != nil {
		return nil, err
	}
	seed, err := pricing.LoadSeed(files)
	if err != nil {
		return nil, fmt.Errorf("the reference cannot hold what the explorer knows of the target: %w", err)
	}
	return pricing.NewStore(seed, pricing.NewSource(nil), pricing.Deviations{}), nil
}

// loadCatalogue reads the profile's catalogues.
func (e *explorer) loadCatalogue() error {
	p := e.p
	c := catalogue{currencies: map[int64]string{}, plans: map[int64]string{}, platforms: map[int64]string{}, phoneCountries: map[int64][2]string{}}
	num := func(key string) (int64, error) {
		n, err := strconv.ParseInt(p.MustValue(key), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", key, err)
		}
		return n, nil
	}
	var err error
	if c.currencyID, err = num("currency_id"); err != nil {
		return err
	}
	if c.planID, err = num("plan_id"); err != nil {
		return err
	}
	if c.platformID, err = num("platform_id"); err != nil {
		return err
	}
	c.hash = strings.ToLower(p.MustValue("marketapp_hash"))
	for _, l := range []struct {
		key  string
		into map[int64]string
	}{{"currencies", c.currencies}, {"plans", c.plans}, {"platforms", c.platforms}} {
		v, _ := p.Value(l.key)
		if v == "" {
			continue
		}
		entries, err := p.Catalogue(l.key, v)
		if err != nil {
			return err
		}
		for _, en := range entries {
			id, err := strconv.ParseInt(en.ID, 10, 64)
			if err != nil {
				return fmt.Errorf("%s: %w", l.key, err)
			}
			l.into[id] = en.Word
		}
	}
	if _, ok := c.currencies[c.currencyID]; !ok {
		c.currencies[c.currencyID] = unknownCode
	}
	if _, ok := c.plans[c.planID]; !ok {
		c.plans[c.planID] = unknownName
	}
	if _, ok := c.platforms[c.platformID]; !ok {
		c.platforms[c.platformID] = unknownName
	}
	for _, k := range []string{"phone_country_id", "other_phone_country_id"} {
		if v, _ := p.Value(k); v != "" {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			c.phoneCountries[id] = [2]string{unknownPhone, unknownDialCode}
		}
	}
	e.cat = c
	return nil
}
