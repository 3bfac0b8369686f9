package events

import (
	"fmt"
	"strings"
	"time"
)

// Seeding goes through the same events as the API, so a seeded user is
// indistinguishable from one whose history was played through the log.

type persona struct {
	first, last, timezone string
	phoneCountry          int64
	phone                 string
	extension             string // "" means none
	city, postcode        string
	country               string
	currency              int64
}

func personas() []persona {
	return []persona{
		{"Ottoline", "Quennell", "Europe/London", 512, "7700 900461", "", "Whitby", "YO21 3PU", "United Kingdom", 826},
		{"Kwabena", "Asante-Lindqvist", "Europe/Stockholm", 622, "70 123 45 67", "214", "Uppsala", "753 20", "Sweden", 752},
		{"Seraphine", "Delacroix", "Europe/Paris", 538, "6 12 34 56 78", "", "Lyon", "69002", "France", 978},
		{"Tomasz", "Wierzbicki", "Europe/Berlin", 569, "151 2345 6789", "7", "Leipzig", "04109", "Germany", 978},
		{"Marisol", "Ibarra Okafor", "America/Los_Angeles", 547, "(415) 555-0142", "3301", "Oakland", "94612", "United States", 840},
		{"Haruki", "Tanabe", "Asia/Tokyo", 583, "90-1234-5678", "", "Sapporo", "060-0001", "Japan", 392},
		{"Ilse", "Brandvold", "Europe/Stockholm", 622, "73 555 01 99", "", "Lund", "222 21", "Sweden", 752},
		{"Rafferty", "Ngata", "America/New_York", 547, "(212) 555-0187", "", "Brooklyn", "11201", "United States", 840},
		{"Priyamvada", "Raghunathan", "Asia/Kolkata", 601, "98765 43210", "55", "Pune", "411001", "India", 840},
		{"Bartholomew", "Achterberg", "Europe/London", 512, "20 7946 0321", "", "Falmouth", "TR11 3DF", "United Kingdom", 826},
		{"Luzia", "Carvalho Mbeki", "America/Sao_Paulo", 637, "11 91234-5678", "", "Campinas", "13010-000", "Brazil", 840},
		{"Thorvald", "Espeland", "Europe/Berlin", 569, "30 901820", "12", "Bremen", "28195", "Germany", 978},
	}
}

func (s *Server) seed(pairs int) {
	people := personas()
	domains := []string{"tidewater-analytics.io", "brackenridge.studio", "quillfeather.app", "saltmarsh-games.co.uk", "lanternfish.dev"}
	passwordWords := []string{"heron", "lantern", "gravel", "orchid", "tundra", "cobalt", "saffron", "juniper", "marlin", "quartz", "thistle"}
	studioWords := []string{"Foxglove", "Ironbark", "Kestrel", "Moonwort", "Driftwood", "Bellwether", "Sorrel"}
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	base := time.Date(2021, time.March, 14, 9, 26, 53, 0, time.UTC)
	for n := 0; n < 2*pairs; n++ {
		p := people[n%len(people)]
		round := n / len(people)
		local := strings.ToLower(strings.NewReplacer(" ", "", "-", "").Replace(p.first + "." + p.last))
		if round > 0 {
			local += fmt.Sprint(round + 1)
		}
		email := local + "@" + domains[n%len(domains)]
		password := fmt.Sprintf("%s-%s-%d%c", strings.ToUpper(passwordWords[n%len(passwordWords)][:1])+passwordWords[n%len(passwordWords)][1:],
			passwordWords[(n*3+5)%len(passwordWords)], 1000+(n*7919)%9000, "!#%*?"[n%5])
		key := randomHex(48)

		created := base.Add(time.Duration(n*37+11) * 24 * time.Hour).Add(time.Duration(n*4133) * time.Second)
		var ext *string
		if p.extension != "" {
			e := p.extension
			ext = &e
		}
		uid := st.nextID(kindUser)
		st.commit(
			userRegistered{
				At: created, UserID: uid, Password: password,
				PasswordLastChanged: created.Add(time.Duration(200+n%90) * 24 * time.Hour),
				Profile: profile{
					Email: email, FirstName: p.first, LastName: p.last,
					SubscribeWelcome: true, SubscribeBlog: n%2 == 0, SubscribeHowto: n%3 != 1, SubscribeOnboarding: n%4 == 3,
					PhoneCountryID: p.phoneCountry, PhoneNumber: p.phone, PhoneExtension: ext, Timezone: p.timezone,
				},
			},
			apiKeyIssued{UserID: uid, Key: key},
		)

		studio := studioWords[n%len(studioWords)]
		vat := fmt.Sprintf("%s%09d", strings.ToUpper(p.country[:2]), 100000000+(n*48271)%900000000)
		line2 := fmt.Sprintf("Unit %d", 3+n%17)
		cid := st.nextID(kindClient)
		st.commit(clientCreated{
			At: created.Add(2 * time.Hour), ClientID: cid, ByUserID: uid,
			Details: clientDetails{
				Name:         fmt.Sprintf("%s %s Ltd", studio, p.last),
				AddressLine1: fmt.Sprintf("%d %s Wharf", 11+n*3, studio),
				AddressLine2: &line2, AddressCity: p.city, AddressPostcode: p.postcode,
				AddressCountry: p.country, VAT: &vat, CurrencyID: p.currency,
			},
		})
		plans := []int64{planLite, planPro, planDynamic}
		for k := 0; k < 1+n%2; k++ {
			m := s.cat.marketApps[(n*3+k*5)%len(s.cat.marketApps)]
			st.commit(appCreated{
				At: created.Add(time.Duration(3+k) * 24 * time.Hour), AppID: st.nextID(kindApp), ClientID: cid,
				Name: m.Name, PlatformID: m.PlatformID, Hash: m.Hash,
				PlanID: plans[(n+k)%len(plans)], WriteKey: randomHex(32),
			})
		}

		acct := Account{Email: email, Password: password, APIKey: key}
		if n%2 == 0 {
			s.accounts = append(s.accounts, [2]Account{acct})
		} else {
			s.accounts[n/2][1] = acct
		}
	}
}
