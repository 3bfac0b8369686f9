package layered

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"
)

// ---- request DTOs ----

// Opt distinguishes an absent member (Set=false) from null (Set=true, V=nil).
type Opt[T any] struct {
	Set bool
	V   *T
}

func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.V = nil
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	o.V = &v
	return nil
}

type idRef struct {
	ID int64 `json:"id"`
}

type optIDRef struct {
	ID *int64 `json:"id"`
}

type hashRef struct {
	Hash string `json:"hash"`
}

type appDTO struct {
	Marketapp *hashRef  `json:"marketapp"`
	Name      *string   `json:"name"`
	Platform  *optIDRef `json:"platform"`
	Nextplan  idRef     `json:"nextplan"`
}

type clientDTO struct {
	Name            string  `json:"name"`
	AddressLine1    string  `json:"addressLine1"`
	AddressLine2    *string `json:"addressLine2"`
	AddressCity     string  `json:"addressCity"`
	AddressPostcode string  `json:"addressPostcode"`
	AddressCountry  string  `json:"addressCountry"`
	Vat             *string `json:"vat"`
	Currency        idRef   `json:"currency"`
	Terms           string  `json:"terms"`
	App             *appDTO `json:"app"`
}

type userDTO struct {
	Email               string      `json:"email"`
	FirstName           string      `json:"firstName"`
	LastName            string      `json:"lastName"`
	SubscribeWelcome    bool        `json:"subscribeWelcome"`
	SubscribeBlog       bool        `json:"subscribeBlog"`
	SubscribeHowto      bool        `json:"subscribeHowto"`
	SubscribeOnboarding bool        `json:"subscribeOnboarding"`
	Timezone            string      `json:"timezone"`
	Password            Opt[string] `json:"password"`
	PhoneCountry        *idRef      `json:"phoneCountry"`
	PhoneNumber         *string     `json:"phoneNumber"`
	PhoneExtension      Opt[string] `json:"phoneExtension"`
	Client              *clientDTO  `json:"client"`
}

type sessionDTO struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// ---- caller ----

type caller struct {
	UserID   int64
	ClientID int64 // the client the caller acts for (session client or default client)
}

// ---- service ----

type service struct {
	s    *Server
	repo *repo
	now  func() time.Time
}

func randHex(n int) string {
	b := make([]byte, n/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func randKey(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = base62[int(b[i])%len(base62)]
	}
	return string(b)
}

// racyAppID is the fault app-id-allocation-racy: read, pause, write back, outside the writer lock.
func (sv *service) racyAppID() int64 {
	v := sv.repo.appSeq.Load()
	time.Sleep(5 * time.Millisecond)
	sv.repo.appSeq.Store(v + 1)
	return v + 1
}

func (sv *service) login(d sessionDTO) (*Session, error) {
	snap := sv.repo.snap()
	id, ok := snap.emails[strings.ToLower(d.Email)]
	var u *User
	if ok {
		u = snap.users[id]
	}
	if u == nil || (sv.s.has("login-email-exact-case") && u.Email != d.Email) ||
		subtle.ConstantTimeCompare([]byte(u.Password), []byte(d.Password)) != 1 {
		if sv.s.has("session-bad-credentials-400") {
			return nil, invalid("password", "InvalidCredentials")
		}
		return nil, ErrUnauthorized
	}
	se := &Session{
		ID: sv.repo.sessionSeq.Add(1), Created: sv.now(), CreatorUserID: u.ID, UserID: u.ID,
		Token: randHex(64),
	}
	if len(u.ClientIDs) > 0 {
		se.ClientID = u.ClientIDs[0]
	}
	if err := sv.repo.update(func(t *tx) error { t.putSession(se); return nil }); err != nil {
		return nil, err
	}
	return se, nil
}

// applyUser writes the DTO fields onto a copy of the user. Referential checks are done here.
func (sv *service) applyUser(u *User, d *userDTO) error {
	if d.PhoneCountry != nil {
		if _, ok := findPhoneCountry(d.PhoneCountry.ID); !ok {
			return invalid("phoneCountry.id", "InvalidPhoneCountryId")
		}
		u.PhoneCountryID = d.PhoneCountry.ID
	}
	if sv.s.has("email-lowercased-on-store") {
		u.Email = strings.ToLower(d.Email)
	} else {
		u.Email = d.Email
	}
	u.FirstName, u.LastName = d.FirstName, d.LastName
	u.SubscribeWelcome, u.SubscribeBlog = d.SubscribeWelcome, d.SubscribeBlog
	u.SubscribeHowto, u.SubscribeOnboarding = d.SubscribeHowto, d.SubscribeOnboarding
	u.Timezone = d.Timezone
	if d.Password.V != nil {
		u.PasswordLastChanged = sv.now()
		if !sv.s.has("password-change-not-used-at-login") {
			if sv.s.has("password-trimmed-on-set") {
				u.Password = strings.TrimSpace(*d.Password.V)
			} else {
				u.Password = *d.Password.V
			}
		}
	}
	if d.PhoneNumber != nil {
		u.PhoneNumber = *d.PhoneNumber
	}
	if d.PhoneExtension.Set {
		u.PhoneExtension = d.PhoneExtension.V
	}
	return nil
}

func (sv *service) checkEmailFree(t *tx, email string, self int64) error {
	if owner, ok := t.emailOwner(email); ok && owner != self {
		return invalid("email", "InvalidEmail")
	}
	return nil
}

// userAccess returns the user if the caller may modify it.
func (sv *service) userAccess(c *caller, id int64) (*User, error) {
	u, ok := sv.repo.snap().users[id]
	if !ok {
		return nil, ErrNotFound
	}
	if u.ID != c.UserID && !sv.s.has("put-user-any-id") {
		return nil, ErrForbidden
	}
	return u, nil
}

func (sv *service) updateUser(c *caller, id int64, d *userDTO) (*User, error) {
	if _, err := sv.userAccess(c, id); err != nil {
		return nil, err
	}
	if sv.s.has("email-unique-check-then-act") {
		if err := sv.checkEmailFree(newTx(sv.repo.snap()), d.Email, id); err != nil {
			return nil, err
		}
		time.Sleep(5 * time.Millisecond)
	}
	var out *User
	saveUser := func(t *tx) error {
		cur, ok := t.user(id)
		if !ok {
			return ErrNotFound
		}
		if !sv.s.has("email-unique-check-then-act") {
			if err := sv.checkEmailFree(t, d.Email, id); err != nil {
				return err
			}
		}
		u := cloneUser(cur)
		if err := sv.applyUser(u, d); err != nil {
			return err
		}
		t.staleIndex = sv.s.has("email-change-login-stale-index")
		t.putUser(u)
		out = u
		return nil
	}
	addClient := func(t *tx) error {
		if d.Client == nil {
			return nil
		}
		u := cloneUser(out)
		if _, err := sv.createClientTx(t, u, d.Client, "client."); err != nil {
			return err
		}
		t.staleIndex = sv.s.has("email-change-login-stale-index")
		t.putUser(u)
		out = u
		return nil
	}
	if sv.s.has("put-user-saved-before-client-fails") {
		if err := sv.repo.update(saveUser); err != nil {
			return nil, err
		}
		if err := sv.repo.update(addClient); err != nil {
			return nil, err
		}
		return out, nil
	}
	err := sv.repo.update(func(t *tx) error {
		if err := saveUser(t); err != nil {
			return err
		}
		return addClient(t)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (sv *service) createUser(d *userDTO) (*User, error) {
	var out *User
	err := sv.repo.update(func(t *tx) error {
		if err := sv.checkEmailFree(t, d.Email, 0); err != nil {
			return err
		}
		now := sv.now()
		u := &User{ID: sv.repo.userSeq.Add(1), Created: now, APIKey: randKey(40), PhoneCountryID: 1}
		if err := sv.applyUser(u, d); err != nil {
			return err
		}
		u.PasswordLastChanged = now
		if d.Client != nil {
			if _, err := sv.createClientTx(t, u, d.Client, "client."); err != nil {
				return err
			}
		}
		t.putUser(u)
		out = u
		return nil
	})
	return out, err
}

// createClientTx creates a client (and its first app) inside t and makes u a member.
// u must be a private copy; the caller stores it.
func (sv *service) createClientTx(t *tx, u *User, d *clientDTO, prefix string) (*Client, error) {
	if _, ok := findCurrency(d.Currency.ID); !ok {
		return nil, invalid(prefix+"currency.id", "InvalidCurrencyId")
	}
	c := &Client{
		ID: sv.repo.clientSeq.Add(1), Created: sv.now(), Name: d.Name,
		AddressLine1: d.AddressLine1, AddressLine2: d.AddressLine2, AddressCity: d.AddressCity,
		AddressPostcode: d.AddressPostcode, AddressCountry: d.AddressCountry, Vat: d.Vat,
		CurrencyID: d.Currency.ID,
	}
	t.putClient(c)
	u.ClientIDs = append(u.ClientIDs, c.ID)
	if d.App != nil {
		if _, err := sv.createAppTx(t, c.ID, d.App, prefix+"app.", true, 0); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (sv *service) createClient(c *caller, d *clientDTO) (*Client, error) {
	var out *Client
	if sv.s.has("post-clients-keeps-client-when-app-fails") && d.App != nil {
		app := d.App
		d.App = nil
		err := sv.repo.update(func(t *tx) error {
			cur, ok := t.user(c.UserID)
			if !ok {
				return ErrUnauthorized
			}
			u := cloneUser(cur)
			cl, err := sv.createClientTx(t, u, d, "")
			if err != nil {
				return err
			}
			t.putUser(u)
			out = cl
			return nil
		})
		if err != nil {
			return nil, err
		}
		err = sv.repo.update(func(t *tx) error {
			_, err := sv.createAppTx(t, out.ID, app, "app.", true, 0)
			return err
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	fn := func(t *tx) error {
		cur, ok := t.user(c.UserID)
		if !ok {
			return ErrUnauthorized
		}
		u := cloneUser(cur)
		cl, err := sv.createClientTx(t, u, d, "")
		if err != nil {
			return err
		}
		t.putUser(u)
		out = cl
		return nil
	}
	var err error
	if sv.s.has("clients-map-lost-update") {
		err = sv.repo.updateFrom(sv.repo.snap(), fn)
	} else {
		err = sv.repo.update(fn)
	}
	return out, err
}

func (sv *service) clientAccess(c *caller, id int64) (*Client, error) {
	snap := sv.repo.snap()
	cl, ok := snap.clients[id]
	if !ok {
		return nil, ErrNotFound
	}
	u, ok := snap.users[c.UserID]
	if !ok {
		return nil, ErrUnauthorized
	}
	if !isMember(u, id) {
		return nil, ErrForbidden
	}
	return cl, nil
}

func (sv *service) updateClient(c *caller, id int64, d *clientDTO) (*Client, error) {
	if _, err := sv.clientAccess(c, id); err != nil {
		if !(sv.s.has("put-client-no-membership-check") && err == ErrForbidden) {
			return nil, err
		}
	}
	var out *Client
	err := sv.repo.update(func(t *tx) error {
		cur, ok := t.client(id)
		if !ok {
			return ErrNotFound
		}
		cl := cur
		if !sv.s.has("put-client-shallow-copy-mutates-on-reject") {
			cp := *cur
			cl = &cp
		}
		cl.Name, cl.AddressLine1, cl.AddressLine2 = d.Name, d.AddressLine1, d.AddressLine2
		cl.AddressCity, cl.AddressPostcode, cl.AddressCountry = d.AddressCity, d.AddressPostcode, d.AddressCountry
		cl.Vat = d.Vat
		if _, ok := findCurrency(d.Currency.ID); !ok {
			return invalid("currency.id", "InvalidCurrencyId")
		}
		cl.CurrencyID = d.Currency.ID
		t.putClient(cl)
		out = cl
		return nil
	})
	return out, err
}

// createAppTx creates an app for clientID inside t.
// id 0 allocates a fresh id.
func (sv *service) createAppTx(t *tx, clientID int64, d *appDTO, prefix string, checkPlan bool, id int64) (*App, error) {
	if checkPlan {
		if _, ok := findPlan(d.Nextplan.ID); !ok {
			return nil, invalid(prefix+"nextplan.id", "InvalidPlanId")
		}
	}
	a := &App{ClientID: clientID, Created: sv.now(), WriteKey: randHex(32), PlanID: d.Nextplan.ID}
	if d.Marketapp != nil && d.Marketapp.Hash != "" {
		m, ok := findMarketapp(d.Marketapp.Hash)
		if !ok {
			return nil, ErrNotFound
		}
		h := m.Hash
		a.MarketappHash = &h
		a.Name = m.Name
		a.PlatformID = m.Platform.ID
	} else {
		if d.Platform == nil || d.Platform.ID == nil {
			return nil, invalid(prefix+"platform.id", "InvalidPlatformId")
		}
		if _, ok := findPlatform(*d.Platform.ID); !ok {
			return nil, invalid(prefix+"platform.id", "InvalidPlatformId")
		}
		a.PlatformID = *d.Platform.ID
		if d.Name != nil {
			a.Name = *d.Name
		}
	}
	if id == 0 {
		id = sv.repo.appSeq.Add(1)
	}
	a.ID = id
	t.putApp(a)
	return a, nil
}

func (sv *service) createApp(c *caller, d *appDTO) (*App, error) {
	if c.ClientID == 0 {
		return nil, ErrForbidden
	}
	if _, err := sv.clientAccess(c, c.ClientID); err != nil {
		return nil, err
	}
	var out *App
	var id int64
	if sv.s.has("app-id-allocation-racy") {
		id = sv.racyAppID()
	}
	if sv.s.has("post-apps-inserted-before-plan-check") {
		err := sv.repo.update(func(t *tx) error {
			a, err := sv.createAppTx(t, c.ClientID, d, "", false, id)
			out = a
			return err
		})
		if err != nil {
			return nil, err
		}
		if _, ok := findPlan(d.Nextplan.ID); !ok {
			return nil, invalid("nextplan.id", "InvalidPlanId")
		}
		return out, nil
	}
	err := sv.repo.update(func(t *tx) error {
		a, err := sv.createAppTx(t, c.ClientID, d, "", true, id)
		out = a
		return err
	})
	return out, err
}
