package pricing

import (
	"reflect"
	"strconv"
	"strings"
)

// completeProfile adds to the profile what the suite's profile says of the
// seed beyond profile.json: the catalogues as the suite lists them, and the
// names, timezones and phones of accounts A and B. With them, --print-env
// describes every seed, a foreign one included, without a default of the
// suite standing in for it.
func (d *Seed) completeProfile() {
	p := &d.profile
	var cur, plans, plats []string
	for _, c := range d.currencies {
		cur = append(cur, strconv.FormatInt(c.ID, 10)+":"+c.Code)
	}
	for _, pl := range d.plans {
		word := "none"
		switch {
		case pl.IsLite:
			word = "lite"
		case pl.IsPro:
			word = "pro"
		case pl.IsDynamic:
			word = "dynamic"
		}
		plans = append(plans, strconv.FormatInt(pl.ID, 10)+":"+word)
	}
	for _, pf := range d.platforms {
		plats = append(plats, strconv.FormatInt(pf.ID, 10)+":"+pf.Name)
	}
	p.Currencies, p.Plans, p.Platforms = strings.Join(cur, ","), strings.Join(plans, ","), strings.Join(plats, ",")
	for _, u := range d.users {
		ext := "null"
		if u.PhoneExtension != nil {
			ext = *u.PhoneExtension
		}
		a := AccountDetails{FirstName: u.FirstName, LastName: u.LastName, Timezone: u.Timezone,
			PhoneCountryID: u.PhoneCountryID, PhoneNumber: u.PhoneNumber, PhoneExtension: ext}
		switch {
		case strings.EqualFold(u.Email, p.Email):
			p.A = a
		case strings.EqualFold(u.Email, p.OtherEmail):
			p.B = a
		}
	}
}

// AccountDetails are the fields of an account's user that the suite needs
// to restore it on a target without GET /users/:id.
type AccountDetails struct {
	FirstName, LastName, Timezone string
	PhoneCountryID                int64
	PhoneNumber, PhoneExtension   string // "null" for no extension
}

// SameDefaults reports whether the seed describes the same accounts A and B
// and catalogues as o, further pairs of accounts aside: whether the suite's
// defaults, written for the embedded seed, hold for it.
func (d *Seed) SameDefaults(o *Seed) bool {
	a, b := d.profile, o.profile
	a.Pairs, b.Pairs = nil, nil
	return reflect.DeepEqual(a, b)
}
