package tables

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// Seed data. Catalogue ids are drawn like every other id (random, odd, above
// 2^53), so they differ from one server to the next and a client has to read
// them from the collections or from a representation.

func (s *Server) seed(pairs int, at time.Time) [][2]Account {
	x := s.t.begin()
	s.seedCatalogues(x)
	accounts := make([][2]Account, pairs)
	for i := 0; i < 2*pairs; i++ {
		accounts[i/2][i%2] = s.seedAccount(x, i, at)
	}
	s.commit(x)
	return accounts
}

// seedCatalogues adds the platforms, currencies, plans, phone seedCountries
// and marketplace apps.
func (s *Server) seedCatalogues(x *tx) {
	for _, name := range []string{"Android", "iOS"} {
		p := platformRow{x.newID(), name}
		s.t.platforms[p.id] = p
		s.t.platformOrder = append(s.t.platformOrder, p.id)
	}
	android, ios := s.t.platformOrder[0], s.t.platformOrder[1]

	for _, c := range [][2]string{{"EUR", "Euro"}, {"USD", "US Dollar"}, {"GBP", "Pound Sterling"}, {"JPY", "Yen"}, {"CHF", "Swiss Franc"}} {
		r := currencyRow{x.newID(), c[0], c[1]}
		s.t.currencies[r.id] = r
		s.t.currencyOrder = append(s.t.currencyOrder, r.id)
	}

	for _, p := range []planRow{
		{name: "lite", lite: true},
		{name: "pro", pro: true, billed: true},
		{name: "dynamic", dynamic: true, billed: true},
	} {
		p.id = x.newID()
		s.t.plans[p.id] = p
		s.t.planOrder = append(s.t.planOrder, p.id)
	}
	s.t.litePlanID = s.t.planOrder[0]

	for _, c := range [][2]string{
		{"United Kingdom", "+44"}, {"United States", "+1"}, {"France", "+33"}, {"Germany", "+49"},
		{"Japan", "+81"}, {"Brazil", "+55"}, {"India", "+91"}, {"New Zealand", "+64"}, {"Kenya", "+254"},
	} {
		r := phoneCountryRow{x.newID(), c[0], c[1]}
		s.t.phoneCountries[r.id] = r
		s.t.phoneOrder = append(s.t.phoneOrder, r.id)
	}

	type store struct {
		platform     int64
		bundle, name string
	}
	for _, m := range []store{
		{android, "org.lanternledger.android", "Lantern Ledger"},
		{android, "io.pebblecourier.app", "Pebble Courier"},
		{android, "com.mossandmeter.garden", "Moss & Meter"},
		{android, "net.tidepool.tracker", "Tidepool Tracker"},
		{ios, "quill-harbor/id6449910217", "Quill Harbor"},
		{ios, "aurora-tabs/id1580094412", "Aurora Tabs"},
		{ios, "cinder-notes/id1733208861", "Cinder Notes"},
		{ios, "kestrel-budget/id1499827305", "Kestrel Budget"},
	} {
		// A SHA-1 is exactly the 40 hexadecimal characters of a hash.
		sum := sha1.Sum([]byte(m.bundle))
		r := marketappRow{hex.EncodeToString(sum[:]), m.name, m.platform}
		s.t.marketapps[r.hash] = r
		s.t.marketOrder = append(s.t.marketOrder, r.hash)
	}
}

// The words the seed's accounts are made of.
var (
	seedFirstNames = []string{"Ottilie", "Bartholomew", "Saoirse", "Ikenna", "Marisol", "Thorvald", "Yevgenia", "Caetano", "Wilhelmina", "Oluwaseun", "Ingeborg", "Anselm"}
	seedLastNames  = []string{"Vandersloot", "Quennell", "Aldana", "Okafor", "Brightwater", "Hallgrimsson", "Lazarev", "Moncrieff", "Achterberg", "Nakashima-Roe"}
	seedDomains    = []string{"heronsgate.test", "brackenfold.test", "marrowlane.test"}
	seedZones      = []string{"Europe/Lisbon", "America/Chicago", "Asia/Tokyo", "Pacific/Auckland", "Africa/Nairobi", "Europe/Helsinki"}
	seedFirms      = []string{"Gannet & Lumen Studios", "Orchard Static Ltd", "Blue Vellum Games", "Cobble Arcade GmbH", "Harrow Pixel SAS", "Fernlight Interactive"}
	seedCities     = []string{"Leeds", "Ghent", "Porto", "Kraków", "Osaka", "Valparaíso"}
	seedCountries  = []string{"United Kingdom", "Belgium", "Portugal", "Poland", "Japan", "Chile"}
)

// seedAccount adds the i-th account of the seed: its user, its client and
// two apps of the client.
func (s *Server) seedAccount(x *tx, i int, at time.Time) Account {
	first, last := seedFirstNames[i%len(seedFirstNames)], seedLastNames[(i*7+3)%len(seedLastNames)]
	email := fmt.Sprintf("%s.%s.%d@%s", strings.ToLower(first), strings.ToLower(last), 4100+i*37, seedDomains[i%len(seedDomains)])
	password := "Tb" + base64.RawURLEncoding.EncodeToString(randBytes(12)) + "!9"
	ext := fmt.Sprintf("%d", 200+i%700)
	u := userRow{
		id:             x.newID(),
		created:        at.AddDate(0, 0, -(420 + 3*i)).Add(-time.Duration(i) * 17 * time.Minute),
		email:          email,
		firstName:      first,
		lastName:       last,
		subscribe:      [4]bool{i%2 == 0, i%3 == 0, true, i%2 == 1},
		phoneCountryID: s.t.phoneOrder[i%len(s.t.phoneOrder)],
		phoneNumber:    fmt.Sprintf("20 7946 %04d", 1000+(i*131)%9000),
		phoneExtension: &ext,
		timezone:       seedZones[i%len(seedZones)],
		apiKey:         s.uniqueAPIKey(),
	}
	u.setPassword(password, at.AddDate(0, 0, -(40+i)))
	x.users = append(x.users, u)

	vat := fmt.Sprintf("GB%09d", 100000000+i*7919)
	line2 := fmt.Sprintf("Unit %d", 3+i%40)
	cur := s.t.currencies[s.t.currencyOrder[i%len(s.t.currencyOrder)]]
	c := clientRow{
		id:           x.newID(),
		created:      u.created.Add(9 * time.Minute),
		name:         seedFirms[i%len(seedFirms)],
		addressLine1: fmt.Sprintf("%d Wicket Lane", 11+i),
		addressLine2: &line2,
		addressCity:  seedCities[i%len(seedCities)],
		postcode:     fmt.Sprintf("LS%d %dQT", 1+i%9, 2+i%7),
		country:      seedCountries[i%len(seedCountries)],
		vat:          &vat,
		currencyID:   cur.id,
		currencyCode: cur.code,
	}
	x.clients = append(x.clients, c)
	x.members = append(x.members, membership{u.id, c.id})

	for k, pick := range []int{i % 8, (i + 3) % 8} {
		m := s.t.marketapps[s.t.marketOrder[pick]]
		x.apps = append(x.apps, appRow{
			id: x.newID(), clientID: c.id, created: c.created.AddDate(0, 0, 2+k),
			name: m.name, platformID: m.platformID, writeKey: newWriteKey(),
			planID: s.t.planOrder[(i+k)%len(s.t.planOrder)], hash: m.hash,
		})
	}
	return Account{Email: email, Password: password, APIKey: u.apiKey}
}
