package undolog

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

const dateFormat = time.RFC3339

func randHex(nBytes int) string {
	b := make([]byte, nBytes)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func hashPassword(salt, pw string) string {
	h := sha256.Sum256([]byte(salt + ":" + pw))
	return hex.EncodeToString(h[:])
}

func checkPassword(u User, pw string) bool {
	return subtle.ConstantTimeCompare([]byte(hashPassword(u.Salt, pw)), []byte(u.PasswordHash)) == 1
}

var (
	timezoneRe  = regexp.MustCompile(`^[A-Za-z]+(?:/[A-Za-z0-9_+\-]+)+$`)
	extensionRe = regexp.MustCompile(`^[0-9]{1,10}$`)
	hashRe      = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
)

func validEmail(s string) bool {
	if strings.ContainsAny(s, " \t\r\n<>(),;:\"[]\\") {
		return false
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || strings.Contains(domain, "@") {
		return false
	}
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return false
	}
	return true
}

func (s *Server) emailKey(e string) string {
	if s.is("email-match-case-sensitive") {
		return e
	}
	return strings.ToLower(e)
}

// ================= users =================

type userDraft struct {
	User
	newPassword *string
	client      fields
}

type userJSON struct {
	ID                  int64         `json:"id"`
	Created             string        `json:"created"`
	Email               string        `json:"email"`
	PasswordLastChanged string        `json:"passwordLastChanged"`
	FirstName           string        `json:"firstName"`
	LastName            string        `json:"lastName"`
	SubscribeWelcome    bool          `json:"subscribeWelcome"`
	SubscribeBlog       bool          `json:"subscribeBlog"`
	SubscribeHowto      bool          `json:"subscribeHowto"`
	SubscribeOnboarding bool          `json:"subscribeOnboarding"`
	PhoneCountry        *PhoneCountry `json:"phoneCountry"`
	PhoneNumber         string        `json:"phoneNumber"`
	PhoneExtension      *string       `json:"phoneExtension"`
	Timezone            string        `json:"timezone"`
	Password            *string       `json:"password,omitempty"`
}

func (s *Server) usersResource() *Resource[userDraft] {
	res := &Resource[userDraft]{
		Name: "user",
		Auth: map[string]AuthFunc{"*": authEither, "create": authNone},
		Find: func(c *Ctx, tx *Tx, id int64) (userDraft, bool) {
			if s.is("unknown-user-403") && c.caller != nil && c.caller.UserID != id {
				c.fail(http.StatusForbidden, "", "Forbidden", "you may not view or modify this user")
				return userDraft{}, false
			}
			u, ok := get(tx, s.store.users, id)
			return userDraft{User: u}, ok
		},
		Allow: func(c *Ctx, tx *Tx, v *userDraft) bool {
			if s.is("put-user-owner-not-checked") {
				return c.caller != nil
			}
			return c.caller != nil && c.caller.UserID == v.ID
		},
		Decode:      s.decodeUser,
		Validate:    s.validateUser,
		BeforeWrite: s.beforeWriteUser,
		Write:       s.writeUser,
		Render:      func(c *Ctx, v *userDraft) any { return s.renderUser(v.User) },
	}
	res.validateOutsideTx = s.is("email-unique-check-outside-tx")
	res.loadOutsideTx = s.is("put-user-load-outside-tx")
	res.allowAfterWrite = s.is("put-user-permission-after-write")
	return res
}

func (s *Server) decodeUser(c *Ctx, fr fieldReader, cur *userDraft) userDraft {
	create := cur == nil
	var d userDraft
	if cur != nil {
		d.User = cur.User
	}
	if v, ok := fr.text("email", "InvalidEmail"); ok {
		if validEmail(v) {
			d.Email = v
		} else {
			fr.bad("email", "InvalidEmail", "email is not a valid email address")
		}
	}
	if v, ok := fr.text("firstName", "InvalidFirstName"); ok {
		d.FirstName = v
	}
	if v, ok := fr.text("lastName", "InvalidLastName"); ok {
		d.LastName = v
	}
	for _, b := range []struct {
		name, code string
		dst        *bool
	}{
		{"subscribeWelcome", "InvalidSubscribeWelcome", &d.SubWelcome},
		{"subscribeBlog", "InvalidSubscribeBlog", &d.SubBlog},
		{"subscribeHowto", "InvalidSubscribeHowto", &d.SubHowto},
		{"subscribeOnboarding", "InvalidSubscribeOnboarding", &d.SubOnboarding},
	} {
		if v, ok := fr.boolean(b.name, b.code); ok {
			*b.dst = v
		}
	}
	if v, ok := fr.text("timezone", "InvalidTimezone"); ok {
		if timezoneRe.MatchString(v) {
			d.Timezone = v
		} else {
			fr.bad("timezone", "InvalidTimezone", "timezone must have the form Area/City")
		}
	}

	raw, p := fr.get("password")
	switch {
	case p == absent:
		fr.bad("password", "InvalidPassword", "password is required (null keeps the existing password)")
	case p == null:
		if create || s.is("password-null-rejected") {
			fr.bad("password", "InvalidPassword", "a password of at least 6 characters is required")
		}
	default:
		pw, ok := c.asString(raw)
		if !ok || utf8.RuneCountInString(pw) < 6 {
			fr.bad("password", "InvalidPassword", "password must be a string of at least 6 characters")
		} else {
			d.newPassword = &pw
		}
	}

	// Phone fields are not in the body table but have codes in section 7.3:
	// optional; absent keeps the stored value.
	// null is refused, not read as "no phone country": the user object's
	// phoneCountry is an Object (2.1), never null (changed by the
	// pricing-contract team after the audit, README "Blind audits").
	if _, p := fr.get("phoneCountryId"); p == null {
		fr.bad("phoneCountryId", "InvalidPhoneCountryId", "phoneCountryId must be the id of an allowed phone country")
	} else if raw, p := fr.get("phoneCountryId"); p == given {
		id, ok := c.asInt(raw)
		if _, known := phoneCountryByID(id); !ok || !known {
			fr.bad("phoneCountryId", "InvalidPhoneCountryId", "phoneCountryId must be the id of an allowed phone country")
		} else {
			d.PhoneCountryID = id
		}
	}
	if raw, p := fr.get("phoneNumber"); p != absent {
		v, ok := c.asString(raw)
		if p == null || !ok || strings.TrimSpace(v) == "" || c.tooLong(v) {
			fr.bad("phoneNumber", "InvalidPhoneNumber", "phoneNumber must be a non-empty string of at most 255 characters")
		} else {
			d.PhoneNumber = v
		}
	}
	if raw, p := fr.get("phoneExtension"); p == null {
		d.PhoneExtension = nil
	} else if p == given {
		v, ok := c.asString(raw)
		if !ok || !extensionRe.MatchString(v) {
			fr.bad("phoneExtension", "InvalidPhoneExtension", "phoneExtension must be null or 1 to 10 digits")
		} else {
			d.PhoneExtension = &v
		}
	}

	if raw, p := fr.get("client"); p == given {
		obj, ok := c.asObject(raw)
		if !ok {
			fr.bad("client", "InvalidClient", "client must be an object")
		} else {
			d.client = obj
		}
	}
	return d
}

func (s *Server) validateUser(c *Ctx, tx *Tx, d *userDraft) {
	if id, ok := s.store.byEmail[s.emailKey(d.Email)]; ok && id != d.ID {
		c.invalid("email", "InvalidEmail", "this email address is already in use")
	}
}

func (s *Server) beforeWriteUser(c *Ctx, d *userDraft) {
	now := s.now()
	if d.ID == 0 {
		d.Created = now
		d.APIKey = randHex(16)
	}
	if s.is("names-trimmed-on-store") {
		d.FirstName = strings.TrimSpace(d.FirstName)
		d.LastName = strings.TrimSpace(d.LastName)
	}
	if d.newPassword != nil {
		pw := *d.newPassword
		if s.is("password-trimmed-on-set") {
			pw = strings.TrimSpace(pw)
		}
		d.PasswordChanged = now
		if !s.is("password-update-not-stored") || d.ID == 0 {
			d.Salt = randHex(8)
			d.PasswordHash = hashPassword(d.Salt, pw)
		}
	}
}

func (s *Server) writeUser(c *Ctx, tx *Tx, d *userDraft, create bool) {
	st := s.store
	undoEmail := !st.emailNoUndo
	if create {
		d.ID = insert(tx, st.users, 0, func(id int64) User { u := d.User; u.ID = id; return u })
		tx.idxSet(st.byEmail, s.emailKey(d.Email), d.ID, undoEmail)
		tx.idxSet(st.byAPIKey, d.APIKey, d.ID, true)
	} else {
		old, _ := get(tx, st.users, d.ID)
		put(tx, st.users, d.ID, d.User)
		if !s.is("email-index-stale-after-update") && s.emailKey(old.Email) != s.emailKey(d.Email) {
			tx.idxDel(st.byEmail, s.emailKey(old.Email), undoEmail)
			tx.idxSet(st.byEmail, s.emailKey(d.Email), d.ID, undoEmail)
		}
	}
	if d.client == nil {
		return
	}
	if (create && s.is("post-users-keeps-user-when-client-fails")) ||
		(!create && s.is("put-user-commits-before-client")) {
		tx.Checkpoint()
	}
	uid := d.ID
	createIn(s.clients, c, tx, d.client, "client.", func(cl *clientDraft) { cl.Members = []int64{uid} })
}

func (s *Server) renderUser(u User) userJSON {
	out := userJSON{
		ID: u.ID, Created: u.Created.Format(dateFormat), Email: u.Email,
		PasswordLastChanged: u.PasswordChanged.Format(dateFormat),
		FirstName:           u.FirstName, LastName: u.LastName,
		SubscribeWelcome: u.SubWelcome, SubscribeBlog: u.SubBlog,
		SubscribeHowto: u.SubHowto, SubscribeOnboarding: u.SubOnboarding,
		PhoneNumber: u.PhoneNumber, PhoneExtension: u.PhoneExtension, Timezone: u.Timezone,
	}
	if pc, ok := phoneCountryByID(u.PhoneCountryID); ok {
		out.PhoneCountry = &pc
	}
	if s.is("user-render-includes-password") {
		h := u.PasswordHash
		out.Password = &h
	}
	return out
}

// ================= clients =================

type clientDraft struct {
	Client
	app    fields
	prefix string
}

type currencyJSON struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
}

type clientJSON struct {
	ID              int64        `json:"id"`
	CreatedDate     string       `json:"createdDate"`
	Name            string       `json:"name"`
	AddressLine1    string       `json:"addressLine1"`
	AddressLine2    *string      `json:"addressLine2,omitempty"`
	AddressCity     string       `json:"addressCity"`
	AddressPostcode string       `json:"addressPostcode"`
	AddressCountry  string       `json:"addressCountry"`
	VAT             *string      `json:"vat,omitempty"`
	Currency        currencyJSON `json:"currency"`
}

func (s *Server) clientsResource() *Resource[clientDraft] {
	auth := map[string]AuthFunc{"*": authEither}
	if s.is("put-client-auth-declared-none") {
		auth["update"] = authNone
	}
	return &Resource[clientDraft]{
		Name:       "client",
		Collection: "clients",
		Auth:       auth,
		Find: func(c *Ctx, tx *Tx, id int64) (clientDraft, bool) {
			cl, ok := get(tx, s.store.clients, id)
			return clientDraft{Client: cl}, ok
		},
		Allow: func(c *Ctx, tx *Tx, v *clientDraft) bool {
			if s.is("put-client-membership-not-checked") && c.r.Method == http.MethodPut {
				return c.caller != nil
			}
			return c.caller != nil && isMember(v.Client, c.caller.UserID)
		},
		AllowCreate: func(c *Ctx, tx *Tx) bool { return c.caller != nil },
		List: func(c *Ctx, tx *Tx) []clientDraft {
			var out []clientDraft
			for _, cl := range scan(tx, s.store.clients, func(cl Client) bool { return isMember(cl, c.caller.UserID) }) {
				out = append(out, clientDraft{Client: cl})
			}
			return out
		},
		Decode:      s.decodeClient,
		BeforeWrite: s.beforeWriteClient,
		Write:       s.writeClient,
		Render:      func(c *Ctx, v *clientDraft) any { return renderClient(v.Client) },
	}
}

func (s *Server) decodeClient(c *Ctx, fr fieldReader, cur *clientDraft) clientDraft {
	create := cur == nil
	d := clientDraft{prefix: fr.prefix}
	if cur != nil {
		d.Client = cur.Client
	} else if c.caller != nil {
		d.Members = []int64{c.caller.UserID}
	}
	if v, ok := fr.text("name", "InvalidName"); ok {
		d.Name = v
	}
	if v, ok := fr.text("addressLine1", "InvalidAddressLine1"); ok {
		d.Line1 = v
	}
	if v, p, ok := fr.optText("addressLine2", "InvalidAddressLine2"); ok {
		if create || p != absent || !s.is("put-client-keeps-omitted-optionals") {
			d.Line2 = v
		}
	}
	if v, ok := fr.text("addressCity", "InvalidAddressCity"); ok {
		d.City = v
	}
	if v, ok := fr.text("addressPostcode", "InvalidAddressPostcode"); ok {
		d.Postcode = v
	}
	if v, ok := fr.text("addressCountry", "InvalidAddressCountry"); ok {
		d.Country = v
	}
	if v, p, ok := fr.optText("vat", "InvalidVat"); ok {
		if create || p != absent || !s.is("put-client-keeps-omitted-optionals") {
			d.VAT = v
		}
	}
	if id, ok := fr.refID("currency", "InvalidCurrencyId", known(currencyByID)); ok {
		d.CurrencyID = id
	}
	if v, ok := fr.text("terms", "InvalidTerms"); ok && v != "I agree" {
		fr.bad("terms", "InvalidTerms", `terms must equal "I agree"`)
	}
	raw, p := fr.get("app")
	if create {
		if p == given {
			obj, ok := c.asObject(raw)
			if !ok {
				fr.bad("app", "InvalidApp", "app must be an object")
			} else {
				d.app = obj
			}
		}
	} else if p != absent && !s.is("put-client-app-ignored") {
		fr.bad("app", "AppNotAllowed", "app must not be given to PUT /clients/:clientId; use POST /apps")
	}
	return d
}

func (s *Server) beforeWriteClient(c *Ctx, d *clientDraft) {
	if d.ID == 0 {
		d.Created = s.now()
	}
	if s.is("names-trimmed-on-store") {
		d.Name = strings.TrimSpace(d.Name)
	}
}

func (s *Server) writeClient(c *Ctx, tx *Tx, d *clientDraft, create bool) {
	if !create {
		put(tx, s.store.clients, d.ID, d.Client)
		return
	}
	d.ID = insert(tx, s.store.clients, 0, func(id int64) Client { cl := d.Client; cl.ID = id; return cl })
	if d.app == nil {
		return
	}
	if s.is("post-client-keeps-client-when-app-fails") {
		tx.Checkpoint()
	}
	cid := d.ID
	createIn(s.apps, c, tx, d.app, d.prefix+"app.", func(a *appDraft) { a.ClientID = cid })
}

func renderClient(cl Client) clientJSON {
	cur, _ := currencyByID(cl.CurrencyID)
	return clientJSON{
		ID: cl.ID, CreatedDate: cl.Created.Format(dateFormat), Name: cl.Name,
		AddressLine1: cl.Line1, AddressLine2: cl.Line2, AddressCity: cl.City,
		AddressPostcode: cl.Postcode, AddressCountry: cl.Country, VAT: cl.VAT,
		Currency: currencyJSON(cur),
	}
}

// ================= apps =================

type appDraft struct {
	App
	prefix string
}

type planJSON struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type appJSON struct {
	ID        int64    `json:"id"`
	Created   string   `json:"created"`
	Name      string   `json:"name"`
	Platform  Platform `json:"platform"`
	WriteKey  string   `json:"writeKey"`
	Plan      planJSON `json:"plan"`
	Marketapp struct {
		Hash *string `json:"hash"`
	} `json:"marketapp"`
}

func (s *Server) appsResource() *Resource[appDraft] {
	res := &Resource[appDraft]{
		Name:       "app",
		Collection: "apps",
		Auth:       map[string]AuthFunc{"*": authEither},
		Find: func(c *Ctx, tx *Tx, id int64) (appDraft, bool) {
			a, ok := get(tx, s.store.apps, id)
			return appDraft{App: a}, ok
		},
		Allow: func(c *Ctx, tx *Tx, v *appDraft) bool {
			cl, ok := get(tx, s.store.clients, v.ClientID)
			return ok && c.caller != nil && isMember(cl, c.caller.UserID)
		},
		AllowCreate: func(c *Ctx, tx *Tx) bool { return c.caller != nil && c.caller.ClientID != 0 },
		List: func(c *Ctx, tx *Tx) []appDraft {
			var out []appDraft
			for _, a := range scan(tx, s.store.apps, func(a App) bool {
				cl, ok := get(tx, s.store.clients, a.ClientID)
				return ok && isMember(cl, c.caller.UserID)
			}) {
				out = append(out, appDraft{App: a})
			}
			return out
		},
		Decode:   s.decodeApp,
		Validate: s.validateApp,
		BeforeWrite: func(c *Ctx, d *appDraft) {
			d.Created = s.now()
			d.WriteKey = randHex(16)
		},
		Write: func(c *Ctx, tx *Tx, d *appDraft, create bool) {
			d.ID = insert(tx, s.store.apps, d.ID, func(id int64) App { a := d.App; a.ID = id; return a })
		},
		Render: func(c *Ctx, v *appDraft) any { return renderApp(v.App) },
		SetID:  func(v *appDraft, id int64) { v.ID = id },
		NextID: func(tx *Tx) int64 { return peekID(tx, s.store.apps) },
	}
	res.allocOutsideTx = s.is("app-id-allocated-outside-tx")
	return res
}

func (s *Server) decodeApp(c *Ctx, fr fieldReader, cur *appDraft) appDraft {
	d := appDraft{prefix: fr.prefix}
	if c.caller != nil {
		d.ClientID = c.caller.ClientID
	}
	hashPresent := false
	if raw, p := fr.get("marketapp"); p == given {
		obj, ok := c.asObject(raw)
		if !ok {
			fr.bad("marketapp", "InvalidMarketapp", "marketapp must be an object")
		} else {
			sub := fr.sub("marketapp", obj)
			if hraw, hp := sub.get("hash"); hp == given {
				hashPresent = true
				h, ok := c.asString(hraw)
				if !ok || !hashRe.MatchString(h) {
					sub.bad("hash", "InvalidMarketappHash", "marketapp.hash must be 40 hexadecimal characters")
				} else {
					h = strings.ToLower(h)
					d.Hash = &h
				}
			}
		}
	}
	if !hashPresent {
		nameRaw, np := fr.get("name")
		if np == given && s.is("app-without-hash-refused") {
			fr.bad("marketapp.hash", "InvalidMarketappHash", "apps can only be created from a marketplace app")
		} else {
			name, ok := c.asString(nameRaw)
			switch {
			case np != given || !ok || strings.TrimSpace(name) == "":
				fr.bad("name", "InvalidName", "an app name is required when no marketapp hash is given")
			case c.tooLong(name):
				fr.bad("name", "InvalidName", "name must be at most 255 characters")
			default:
				d.Name = name
			}
			if id, ok := fr.refID("platform", "InvalidPlatformId", known(platformByID)); ok {
				d.PlatformID = id
			}
		}
	}
	if id, ok := fr.refID("nextplan", "InvalidNextplanId", known(planByID)); ok {
		d.PlanID = id
	}
	return d
}

func (s *Server) validateApp(c *Ctx, tx *Tx, d *appDraft) {
	if d.Hash == nil {
		return
	}
	m, ok := marketappByHash(*d.Hash)
	if !ok {
		c.fail(http.StatusNotFound, d.prefix+"marketapp.hash", "MarketappNotFound", "no marketplace app has this hash")
		return
	}
	d.Name = m.Name
	d.PlatformID = m.PlatformID
}

func renderApp(a App) appJSON {
	p, _ := platformByID(a.PlatformID)
	pl, _ := planByID(a.PlanID)
	out := appJSON{
		ID: a.ID, Created: a.Created.Format(dateFormat), Name: a.Name, Platform: p,
		WriteKey: a.WriteKey,
		Plan:     planJSON{IsLite: pl.IsLite, IsPro: pl.IsPro, IsDynamic: pl.IsDynamic, NeedBilling: pl.NeedBilling},
	}
	out.Marketapp.Hash = a.Hash
	return out
}

// ================= sessions =================

type sessionDraft struct {
	Session
	email, password string
	noPassword      bool
}

type sessionJSON struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	UserID        int64  `json:"userId"`
	ClientID      *int64 `json:"clientId"`
	Token         string `json:"token"`
}

func (s *Server) sessionsResource() *Resource[sessionDraft] {
	return &Resource[sessionDraft]{
		Name: "session",
		Auth: map[string]AuthFunc{"*": authNone},
		Decode: func(c *Ctx, fr fieldReader, cur *sessionDraft) sessionDraft {
			var d sessionDraft
			if raw, p := fr.get("email"); p != given {
				fr.bad("email", "InvalidEmail", "email is required")
			} else if v, ok := c.asString(raw); !ok || v == "" {
				fr.bad("email", "InvalidEmail", "email must be a non-empty string")
			} else {
				d.email = v
			}
			raw, p := fr.get("password")
			if p == absent && s.is("login-absent-password-accepted") {
				d.noPassword = true
			} else if v, ok := c.asString(raw); p != given || !ok || v == "" {
				fr.bad("password", "InvalidPassword", "password must be a non-empty string")
			} else {
				d.password = v
			}
			return d
		},
		Validate: func(c *Ctx, tx *Tx, d *sessionDraft) {
			uid, ok := s.store.byEmail[s.emailKey(d.email)]
			u, found := get(tx, s.store.users, uid)
			if !ok || !found || (!d.noPassword && !checkPassword(u, d.password)) {
				c.fail(http.StatusUnauthorized, "", "InvalidCredentials", "the email address or password is wrong")
				return
			}
			d.UserID = uid
			d.ClientID = primaryClient(tx, uid)
		},
		BeforeWrite: func(c *Ctx, d *sessionDraft) {
			d.Created = s.now()
			d.Token = randHex(32)
		},
		Write: func(c *Ctx, tx *Tx, d *sessionDraft, create bool) {
			d.ID = insert(tx, s.store.sessions, 0, func(id int64) Session { x := d.Session; x.ID = id; return x })
			tx.idxSet(s.store.byToken, d.Token, d.ID, true)
		},
		Render: func(c *Ctx, d *sessionDraft) any {
			out := sessionJSON{ID: d.ID, Created: d.Created.Format(dateFormat), CreatorUserID: d.UserID, UserID: d.UserID, Token: d.Token}
			if d.ClientID != 0 {
				cid := d.ClientID
				out.ClientID = &cid
			}
			return out
		},
	}
}

// ================= catalogues =================

func (s *Server) catalogue(name, collection string, items func() []any) *Resource[any] {
	auth := authNone
	if s.is("catalogues-require-auth") {
		auth = authEither
	}
	return &Resource[any]{
		Name:       name,
		Collection: collection,
		Auth:       map[string]AuthFunc{"*": auth},
		List:       func(c *Ctx, tx *Tx) []any { return items() },
		Render:     func(c *Ctx, v *any) any { return *v },
	}
}

func asAny[T any](xs []T, f func(T) any) func() []any {
	return func() []any {
		out := make([]any, len(xs))
		for i, x := range xs {
			out[i] = f(x)
		}
		return out
	}
}

type marketappJSON struct {
	Hash     string   `json:"hash"`
	Name     string   `json:"name"`
	Platform Platform `json:"platform"`
}
