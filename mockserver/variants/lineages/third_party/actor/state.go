package actor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"
)

// ---- catalogues -----------------------------------------------------------

type platform struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type plan struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	lite    bool
	pro     bool
	dynamic bool
}

type currency struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
}

type phoneCountry struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	DialCode string `json:"dialCode"`
}

type marketApp struct {
	Hash     string   `json:"hash"`
	Name     string   `json:"name"`
	Platform platform `json:"platform"`
}

var (
	platforms = []platform{{1, "Android"}, {2, "iOS"}}
	plans     = []plan{
		{ID: 1, Name: "Lite", lite: true},
		{ID: 2, Name: "Pro", pro: true},
		{ID: 3, Name: "Dynamic", dynamic: true},
	}
	currencies     = []currency{{1, "GBP"}, {2, "USD"}, {3, "EUR"}}
	phoneCountries = []phoneCountry{
		{1, "United Kingdom (+44)", "+44"},
		{2, "United States (+1)", "+1"},
		{3, "France (+33)", "+33"},
	}
	marketApps = []marketApp{
		{"c3ab11b55aae7f3dfc125d9396cab66771b6216e", "Puzzle Quest", platforms[0]},
		{"ad5601b51eb3543bdba2116bbf29b7418908ecb8", "Puzzle Quest", platforms[1]},
		{"7365f5960972f5b8bed70ffb8ca84a42b3bb4ee0", "Weather Now", platforms[0]},
		{"64acd7092a89594247154cae3c891126fc9a8d87", "Note Taker", platforms[1]},
	}
)

func findPlatform(id int64) (platform, bool) {
	for _, p := range platforms {
		if p.ID == id {
			return p, true
		}
	}
	return platform{}, false
}

func findPlan(id int64) (plan, bool) {
	for _, p := range plans {
		if p.ID == id {
			return p, true
		}
	}
	return plan{}, false
}

func findCurrency(id int64) (currency, bool) {
	for _, c := range currencies {
		if c.ID == id {
			return c, true
		}
	}
	return currency{}, false
}

func findPhoneCountry(id int64) (phoneCountry, bool) {
	for _, c := range phoneCountries {
		if c.ID == id {
			return c, true
		}
	}
	return phoneCountry{}, false
}

func findMarketApp(hash string) (marketApp, bool) {
	for _, m := range marketApps {
		if strings.EqualFold(m.Hash, hash) {
			return m, true
		}
	}
	return marketApp{}, false
}

func findMarketAppByName(name string, platformID int64) (marketApp, bool) {
	for _, m := range marketApps {
		if m.Name == name && m.Platform.ID == platformID {
			return m, true
		}
	}
	return marketApp{}, false
}

// ---- state owned by the actor goroutine ----------------------------------

type user struct {
	ID              int64
	Created         time.Time
	Email           string
	Password        string
	PasswordChanged time.Time
	FirstName       string
	LastName        string
	Subs            [4]bool // welcome, blog, howto, onboarding
	PhoneCountry    int64
	PhoneNumber     string
	PhoneExt        *string
	Timezone        string
	APIKey          string
	Clients         []int64 // ascending; Clients[0] is the primary client
}

type client struct {
	ID       int64
	Created  time.Time
	Name     string
	Line1    string
	Line2    *string
	City     string
	Postcode string
	Country  string
	VAT      *string
	Currency int64
	Members  map[int64]bool
}

type app struct {
	ID       int64
	Created  time.Time
	Name     string
	Platform int64
	WriteKey string
	Plan     int64
	Hash     string
	ClientID int64
}

type session struct {
	ID       int64
	Created  time.Time
	UserID   int64
	ClientID int64
	Token    string
}

type state struct {
	users    map[int64]*user
	clients  map[int64]*client
	apps     map[int64]*app
	sessions map[string]*session
	keys     map[string]int64

	nextUser, nextClient, nextApp, nextSession int64
	tokenSeq                                   int64
}

func newState() *state {
	return &state{
		users:       map[int64]*user{},
		clients:     map[int64]*client{},
		apps:        map[int64]*app{},
		sessions:    map[string]*session{},
		keys:        map[string]int64{},
		nextUser:    1001,
		nextClient:  2001,
		nextApp:     3001,
		nextSession: 1,
	}
}

func (st *state) emailTaken(email string, except int64) bool {
	for _, u := range st.users {
		if u.ID != except && strings.EqualFold(u.Email, email) {
			return true
		}
	}
	return false
}

func (st *state) addMembership(u *user, c *client) {
	c.Members[u.ID] = true
	u.Clients = append(u.Clients, c.ID) // ids only grow, so the slice stays sorted
}

func primaryClient(u *user) int64 {
	if len(u.Clients) == 0 {
		return 0
	}
	return u.Clients[0]
}

// ---- the actor ------------------------------------------------------------

// result is what a command answers: a status and a body (or errors).
type result struct {
	status int
	body   any
	errs   []apiError
	ptr    any // only used by faults that leak state pointers
}

type command struct {
	fn    func(*state) result
	reply chan result
}

func (s *Server) loop() {
	for c := range s.cmds {
		c.reply <- c.fn(s.st)
	}
}

// do sends one command to the actor and waits for its answer or the deadline.
func (s *Server) do(ctx context.Context, fn func(*state) result) (result, error) {
	c := command{fn: fn, reply: make(chan result, 1)}
	select {
	case s.cmds <- c:
	case <-ctx.Done():
		return result{}, ctx.Err()
	}
	select {
	case r := <-c.reply:
		return r, nil
	case <-ctx.Done():
		return result{}, ctx.Err()
	}
}

// ---- helpers --------------------------------------------------------------

func randHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func (s *Server) now() time.Time { return time.Now().UTC() }

func (s *Server) date(t time.Time) string {
	if s.is("dates-numeric-offset") {
		return t.UTC().Format("2006-01-02T15:04:05.000-07:00")
	}
	return t.UTC().Format(time.RFC3339)
}
