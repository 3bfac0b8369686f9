package reducer

import (
	"fmt"
	"strings"
	"time"
)

type User struct {
	ID                  int64
	Created             time.Time
	Email               string
	PasswordLastChanged time.Time
	FirstName           string
	LastName            string
	SubscribeWelcome    bool
	SubscribeBlog       bool
	SubscribeHowto      bool
	SubscribeOnboarding bool
	PhoneCountryID      int64
	PhoneNumber         string
	PhoneExtension      *string
	Timezone            string
	ClientIDs           []int64 // memberships; the first is the primary client
	APIKey              string  // "" for users created by POST /users
}

// Login is the credentials index entry, keyed by the folded e-mail address.
type Login struct {
	UserID   int64
	Password string
}

type Client struct {
	ID              int64
	Created         time.Time
	Name            string
	AddressLine1    string
	AddressLine2    *string
	AddressCity     string
	AddressPostcode string
	AddressCountry  string
	VAT             *string
	CurrencyID      int64
	Members         []int64
}

type App struct {
	ID            int64
	Created       time.Time
	Name          string
	PlatformID    int64
	WriteKey      string
	PlanID        int64
	MarketappHash string
	ClientID      int64
}

type Session struct {
	ID            int64
	Created       time.Time
	CreatorUserID int64
	UserID        int64
	ClientID      int64 // 0: none
	Token         string
}

// State is the whole service state. It is a value: every field is immutable
// or a persistent map, so Apply can return a new State sharing structure.
type State struct {
	fault string

	users    PMap[int64, User]
	clients  PMap[int64, Client]
	apps     PMap[int64, App]
	sessions PMap[string, Session] // token -> session
	apiKeys  PMap[string, int64]   // api key -> user id
	logins   PMap[string, Login]   // folded email -> credentials

	nextUser, nextClient, nextApp, nextSession int64
}

func (s State) has(f string) bool { return s.fault == f }

const sessionLifetime = 24 * time.Hour

// ---- catalogues ----

type Platform struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type Currency struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
}

type Plan struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	IsLite      bool   `json:"isLite"`
	IsPro       bool   `json:"isPro"`
	IsDynamic   bool   `json:"isDynamic"`
	NeedBilling bool   `json:"needBilling"`
}

type PhoneCountry struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	DialCode string `json:"dialCode"`
}

type Marketapp struct {
	Hash     string   `json:"hash"`
	Name     string   `json:"name"`
	Platform Platform `json:"platform"`
}

var (
	platforms  = []Platform{{1, "Android"}, {2, "iOS"}}
	currencies = []Currency{{1, "EUR"}, {2, "USD"}, {3, "GBP"}}
	plans      = []Plan{
		{ID: 1, Name: "Lite", IsLite: true},
		{ID: 2, Name: "Pro", IsPro: true, NeedBilling: true},
		{ID: 3, Name: "Dynamic", IsDynamic: true, NeedBilling: true},
	}
	phoneCountries = []PhoneCountry{
		{1, "United Kingdom (+44)", "+44"},
		{2, "United States (+1)", "+1"},
		{3, "Germany (+49)", "+49"},
		{4, "France (+33)", "+33"},
	}
	marketapps = []Marketapp{
		{"7ebe8545aa88b3d1cd02f8d5bae25c67fb085577", "Puzzle Quest", Platform{1, "Android"}},
		{"1dcdb2b2525d2fdbcf8792926564f66bb2a9cbac", "Puzzle Quest", Platform{2, "iOS"}},
		{"7ac9cc35a2fb22f35061c61070bb87fb05cf9a71", "Weather Now", Platform{1, "Android"}},
		{"cdf4f65a6e0114daecac63b69177af1777f38fb6", "Weather Now", Platform{2, "iOS"}},
		{"cd6e4ee5d199b694e2bd781377d907bd2823d804", "Budget Book", Platform{1, "Android"}},
		{"1c2598952363e977f8a8232f1499ed1d67088b84", "Budget Book", Platform{2, "iOS"}},
	}
)

func findPlatform(id int64) (Platform, bool) {
	for _, p := range platforms {
		if p.ID == id {
			return p, true
		}
	}
	return Platform{}, false
}

func findCurrency(id int64) (Currency, bool) {
	for _, c := range currencies {
		if c.ID == id {
			return c, true
		}
	}
	return Currency{}, false
}

func findPlan(id int64) (Plan, bool) {
	for _, p := range plans {
		if p.ID == id {
			return p, true
		}
	}
	return Plan{}, false
}

func findPhoneCountry(id int64) (PhoneCountry, bool) {
	for _, p := range phoneCountries {
		if p.ID == id {
			return p, true
		}
	}
	return PhoneCountry{}, false
}

func findMarketappByHash(h string) (Marketapp, bool) {
	for _, m := range marketapps {
		if strings.EqualFold(m.Hash, h) {
			return m, true
		}
	}
	return Marketapp{}, false
}

func findMarketappByName(name string, platform int64) (Marketapp, bool) {
	for _, m := range marketapps {
		if m.Name == name && m.Platform.ID == platform {
			return m, true
		}
	}
	return Marketapp{}, false
}

func foldEmail(e string) string { return strings.ToLower(e) }

// ---- seed ----

// seed builds the initial state: pairs of accounts A and B, each user the
// only member of its own client. User ids and client ids are both 1..2n.
func seed(pairs int, fault string, now time.Time, ids IDSource) (State, [][2]Account) {
	st := State{fault: fault, nextUser: 1, nextClient: 1, nextApp: 1, nextSession: 1}
	accts := make([][2]Account, 0, pairs)
	for i := 1; i <= pairs; i++ {
		var pair [2]Account
		for j, tag := range []string{"a", "b"} {
			uid, cid := st.nextUser, st.nextClient
			st.nextUser++
			st.nextClient++
			acc := Account{
				Email:    fmt.Sprintf("%s%d@example.com", tag, i),
				Password: fmt.Sprintf("secret-%s%d", tag, i),
				APIKey:   ids.Hex(32),
			}
			u := User{
				ID: uid, Created: now, Email: acc.Email, PasswordLastChanged: now,
				FirstName: strings.ToUpper(tag) + "-first", LastName: fmt.Sprintf("Pair%d", i),
				SubscribeWelcome: true, PhoneCountryID: 1, PhoneNumber: "7700900000",
				Timezone: "Europe/London", ClientIDs: []int64{cid}, APIKey: acc.APIKey,
			}
			c := Client{
				ID: cid, Created: now, Name: fmt.Sprintf("Client %s%d", strings.ToUpper(tag), i),
				AddressLine1: "1 High Street", AddressCity: "London", AddressPostcode: "SW1A 1AA",
				AddressCountry: "United Kingdom", CurrencyID: 1, Members: []int64{uid},
			}
			st.users = st.users.Set(uid, u)
			st.clients = st.clients.Set(cid, c)
			st.apiKeys = st.apiKeys.Set(acc.APIKey, uid)
			st.logins = st.logins.Set(foldEmail(acc.Email), Login{UserID: uid, Password: acc.Password})
			pair[j] = acc
		}
		accts = append(accts, pair)
	}
	return st, accts
}
