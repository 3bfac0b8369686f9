package documents

import (
	"fmt"
	"net/http"
	"strings"
	"time"
	_ "time/tzdata" // timezone names are checked without depending on the host's zoneinfo
	"unicode"
	"unicode/utf8"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// userView is the user object of section 2.1, with the password hash only
// a fault leaks. The password and everything derived from it otherwise stay
// out, as do the internal links.
type userView struct {
	wire.User
	PasswordHash string `json:"passwordHash,omitempty"`
}

func (s *Server) userView(u userDoc) userView {
	pc, _ := findPhoneCountry(u.PhoneCountryID)
	v := userView{User: wire.User{
		ID:                  u.ID,
		Created:             u.Created,
		Email:               u.Email,
		PasswordLastChanged: u.PasswordLastChanged,
		FirstName:           u.FirstName,
		LastName:            u.LastName,
		SubscribeWelcome:    u.SubscribeWelcome,
		SubscribeBlog:       u.SubscribeBlog,
		SubscribeHowto:      u.SubscribeHowto,
		SubscribeOnboarding: u.SubscribeOnboarding,
		PhoneCountry:        wire.PhoneCountry(pc),
		PhoneNumber:         u.PhoneNumber,
		PhoneExtension:      u.PhoneExtension,
		Timezone:            u.Timezone,
	}}
	if s.is(fUserIDAsString) {
		v.ID = fmt.Sprint(u.ID)
	}
	if s.is(fPasswordHashInUser) {
		v.PasswordHash = u.PasswordHash
	}
	return v
}

// sessionView is a session as the API answers it: the stored document,
// its date written as the fault writes it.
func (s *Server) sessionView(sd sessionDoc) sessionDoc {
	if s.is(fSessionDateRFC1123) {
		if t, err := time.Parse(isoMillis, sd.Created); err == nil {
			sd.Created = t.Format(time.RFC1123)
		}
	}
	return sd
}

// validEmail is deliberately plain: one @, a non-empty local part without
// spaces or specials, a dotted domain of non-empty labels.
func validEmail(e string) bool {
	local, domain, ok := strings.Cut(e, "@")
	if !ok || local == "" || domain == "" || strings.Contains(domain, "@") {
		return false
	}
	for _, r := range e {
		if r <= ' ' || r == 0x7f || unicode.IsSpace(r) || strings.ContainsRune(`<>()[]\,;:"`, r) {
			return false
		}
	}
	if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return false
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") {
			return false
		}
		for _, r := range l {
			if !(r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return false
			}
		}
	}
	return true
}

// validTimezone wants an IANA name of the form Area/City.
func validTimezone(tz string) bool {
	if !strings.Contains(tz, "/") || strings.HasPrefix(tz, "/") || strings.HasSuffix(tz, "/") {
		return false
	}
	_, err := time.LoadLocation(tz)
	return err == nil
}

// validExtension allows null (handled by the caller) or up to ten digits.
func validExtension(x string) bool {
	if utf8.RuneCountInString(x) > 10 {
		return false
	}
	for _, r := range x {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// applyUserFields validates the body against u and applies the valid members
// to it. The members of the table of 4.1 are required on update too (1: only
// a field marked optional may be omitted; 7.3: "No first name was
// provided"); on create every required member must be there; on update a
// missing password or phone member keeps its value. It returns the new
// password, if one was given.
func (s *Server) applyUserFields(body object, u *userDoc, create bool, errs *errList) *string {
	if v, isStr := stringValue(body["email"]); !isStr || !validEmail(v) || !s.fits255(v) {
		errs.add("email", "InvalidEmail", "the email address is invalid")
	} else {
		u.Email = v
	}
	newPassword := s.readPassword(body, create, errs)
	s.applyProfile(body, u, errs)
	s.applyPhoneCountry(body, u, create, errs)
	s.applyPhoneNumber(body, u, create, errs)
	return newPassword
}

// readPassword is the new password of a user's body: nil when it carries
// none (required when create) or an invalid one.
func (s *Server) readPassword(body object, create bool, errs *errList) *string {
	raw, ok := body.given("password")
	if !ok {
		if create {
			errs.add("password", "InvalidPassword", "a password of at least 6 characters is required")
		}
		return nil
	}
	v, isStr := stringValue(raw)
	min := 6
	if s.is(fPasswordFiveCharsAccepted) {
		min = 5
	}
	if !isStr || utf8.RuneCountInString(v) < min {
		errs.add("password", "InvalidPassword", "the password must be a string of at least 6 characters")
		return nil
	}
	return &v
}

// applyProfile validates and applies the names, the subscribe flags and
// the timezone of a user's body.
func (s *Server) applyProfile(body object, u *userDoc, errs *errList) {
	names := []struct {
		key, code, what string
		dst             *string
	}{
		{"firstName", "InvalidFirstName", "first name", &u.FirstName},
		{"lastName", "InvalidLastName", "last name", &u.LastName},
	}
	for _, n := range names {
		v, isStr := stringValue(body[n.key])
		switch {
		case !isStr || strings.TrimSpace(v) == "":
			errs.add(n.key, n.code, "no "+n.what+" was provided")
		case !s.fits255(v):
			errs.add(n.key, n.code, "the "+n.what+" is longer than 255 characters")
		default:
			*n.dst = v
		}
	}

	flags := []struct {
		key, code string
		dst       *bool
	}{
		{"subscribeWelcome", "InvalidSubscribeWelcome", &u.SubscribeWelcome},
		{"subscribeBlog", "InvalidSubscribeBlog", &u.SubscribeBlog},
		{"subscribeHowto", "InvalidSubscribeHowto", &u.SubscribeHowto},
		{"subscribeOnboarding", "InvalidSubscribeOnboarding", &u.SubscribeOnboarding},
	}
	for _, f := range flags {
		if v, isBool := boolValue(body[f.key]); isBool {
			*f.dst = v
		} else {
			errs.add(f.key, f.code, f.key+" must be true or false")
		}
	}

	if v, isStr := stringValue(body["timezone"]); !isStr || !s.fits255(v) || !validTimezone(v) {
		errs.add("timezone", "InvalidTimezone", "the timezone must be a name of the form Area/City")
	} else {
		u.Timezone = v
	}
}

// applyPhoneNumber validates and applies the phone number (required when
// create) and extension of a user's body.
func (s *Server) applyPhoneNumber(body object, u *userDoc, create bool, errs *errList) {
	if raw, ok := body["phoneNumber"]; ok || create {
		v, isStr := stringValue(raw)
		if !isStr || strings.TrimSpace(v) == "" || !s.fits255(v) {
			errs.add("phoneNumber", "InvalidPhoneNumber", "no phone number was provided")
		} else {
			u.PhoneNumber = v
		}
	}

	if raw, ok := body["phoneExtension"]; ok {
		if isNull(raw) {
			u.PhoneExtension = nil
		} else if v, isStr := stringValue(raw); isStr && validExtension(v) {
			u.PhoneExtension = &v
		} else {
			errs.add("phoneExtension", "InvalidPhoneExtension", "the phone extension must be null or up to 10 digits")
		}
	}
}

// applyPhoneCountry takes the country as the response shows it,
// phoneCountry {id}, or as a bare phoneCountryId.
func (s *Server) applyPhoneCountry(body object, u *userDoc, create bool, errs *errList) {
	const code, msg = "InvalidPhoneCountryId", "the phone country id does not match an allowed value"
	var chosen int64
	seen := false
	if raw, ok := body["phoneCountry"]; ok {
		seen = true
		o, isObj := objectValue(raw)
		id, isID := idValue(o["id"])
		if _, known := findPhoneCountry(id); !isObj || !isID || !known {
			errs.add("phoneCountry.id", code, msg)
			return
		}
		chosen = id
	}
	if raw, ok := body["phoneCountryId"]; ok {
		seen = true
		id, isID := idValue(raw)
		if _, known := findPhoneCountry(id); !isID || !known || (chosen != 0 && chosen != id) {
			errs.add("phoneCountryId", code, msg)
			return
		}
		chosen = id
	}
	if !seen {
		if create {
			errs.add("phoneCountry.id", code, "a phone country is required")
		}
		return
	}
	u.PhoneCountryID = chosen
}

func (s *Server) postSession(r *http.Request, _ principal, _ string) reply {
	body, fail := s.readObject(r)
	if fail != nil {
		return *fail
	}
	var errs errList
	email, okEmail := stringValue(body["email"])
	if !okEmail {
		errs.add("email", "InvalidEmail", "an email address is required")
	}
	password, okPassword := stringValue(body["password"])
	if !okPassword {
		errs.add("password", "InvalidPassword", "a password is required")
	}
	if len(errs) > 0 {
		return s.badRequest(errs)
	}
	key := emailKey(email)
	if s.is(fMixedCaseEmailCannotLogIn) {
		key = email
	}
	uid, found := s.emailOwner(key)
	if !found || uid == 0 {
		return failure(http.StatusUnauthorized, "InvalidCredentials", "the email address or the password is wrong")
	}
	d := s.users.get(uid)
	if d == nil {
		return failure(http.StatusUnauthorized, "InvalidCredentials", "the email address or the password is wrong")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var u userDoc
	decode(d.data, &u)
	// The index may name a user whose email changed a moment ago; the
	// document under its lock is what counts.
	if (!strings.EqualFold(u.Email, email) && !s.is(fOldEmailStillLogsIn)) || !s.passwordMatches(&u, password) {
		return failure(http.StatusUnauthorized, "InvalidCredentials", "the email address or the password is wrong")
	}
	sd := s.createSession(&u)
	d.data = encode(u)
	return reply{status: http.StatusOK, body: s.sessionView(sd)}
}

// postUser is the sign-up endpoint 4.5 names; it needs no authentication.
func (s *Server) postUser(r *http.Request, _ principal, _ string) reply {
	body, fail := s.readObject(r)
	if fail != nil {
		return *fail
	}
	var errs errList
	u := userDoc{Timezone: "Etc/UTC"}
	password := s.applyUserFields(body, &u, true, &errs)
	client, app := s.userClient(body, &errs)
	key := emailKey(u.Email)
	if u.Email != "" {
		if _, taken := s.emailOwner(key); taken {
			errs.add("email", "InvalidEmail", "the email address is already in use")
		}
	}
	if len(errs) > 0 {
		return s.badRequest(errs)
	}
	if s.signups.Add(1) > maxSignups {
		s.signups.Add(-1)
		return limitReached("no more users can be created")
	}
	s.idx.Lock()
	if _, taken := s.emails[key]; taken {
		s.idx.Unlock()
		s.signups.Add(-1)
		return s.badRequest(errList{{FieldName: "email", Error: "InvalidEmail", Message: "the email address is already in use"}})
	}
	s.emails[key] = 0 // reserved: logins see no user until the document exists
	s.idx.Unlock()

	u.Created = now()
	s.setPassword(&u, *password)
	if client != nil {
		u.ClientIDs = []int64{s.createClient(*client, app)}
	}
	id := s.users.insert(func(id int64) []byte {
		u.ID = id
		return encode(u)
	})
	s.idx.Lock()
	s.emails[key] = id
	s.idx.Unlock()
	return reply{status: http.StatusOK, body: s.userView(u)}
}

// userClient reads the optional client member of a user body.
func (s *Server) userClient(body object, errs *errList) (*clientDoc, *appInput) {
	raw, ok := body.given("client")
	if !ok {
		return nil, nil
	}
	o, isObj := objectValue(raw)
	if !isObj {
		errs.add("client", "InvalidClient", "client must be an object")
		return nil, nil
	}
	var c clientDoc
	app := s.applyClientFields(o, &c, true, true, "client.", errs)
	return &c, app
}

func (s *Server) userTarget(p principal, arg string, allowMe bool) (*document, *reply) {
	var id int64
	var ok bool
	if allowMe && arg == "me" {
		id, ok = p.userID, true
	} else {
		id, ok = parseID(arg)
	}
	if s.is(fMissingUserAnswers403) && ok && id != p.userID {
		rep := forbidden("this user may not be viewed or modified by the caller")
		return nil, &rep
	}
	var d *document
	if ok {
		d = s.users.get(id)
	}
	if d == nil {
		rep := notFound("no such user")
		return nil, &rep
	}
	if id != p.userID {
		msg := "this user may not be viewed or modified by the caller"
		if s.is(fForbiddenUserEchoesEmail) {
			var other userDoc
			d.read(&other)
			msg = fmt.Sprintf("user %d (%s) belongs to another account", other.ID, other.Email)
		}
		rep := forbidden(msg)
		return nil, &rep
	}
	return d, nil
}

func (s *Server) getUser(r *http.Request, p principal, arg string) reply {
	d, fail := s.userTarget(p, arg, true)
	if fail != nil {
		return *fail
	}
	var u userDoc
	d.read(&u)
	return reply{status: http.StatusOK, body: s.userView(u)}
}

func (s *Server) putUser(r *http.Request, p principal, arg string) reply {
	d, body, fail := s.targetBody(r, func() (*document, *reply) { return s.userTarget(p, arg, false) })
	if fail != nil {
		return *fail
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var u userDoc
	decode(d.data, &u)
	if s.is(fUserUpdateLostUpdate) {
		// A store without transactions: the document is read, then written
		// back later from the copy read.
		d.mu.Unlock()
		raceWindow()
		d.mu.Lock()
	}
	old := u

	var errs errList
	password := s.applyUserFields(body, &u, false, &errs)
	client, app := s.userClient(body, &errs)
	oldKey, newKey := emailKey(old.Email), emailKey(u.Email)
	if newKey != oldKey {
		if owner, taken := s.emailOwner(newKey); taken && owner != u.ID {
			msg := "the email address is already in use"
			if s.is(fDuplicateEmailRevealsOwner) {
				msg = fmt.Sprintf("the email address is already used by user %d", owner)
			}
			errs.add("email", "InvalidEmail", msg)
		}
	}
	if client != nil && (len(u.ClientIDs) >= maxClientsPerUser || s.clients.size() >= maxClients) {
		return limitReached("this user may not join more clients")
	}
	if len(errs) > 0 {
		if s.is(fRefusedUserUpdatePartiallyApplied) {
			partial := u
			partial.Email = old.Email
			d.data = encode(partial)
		}
		return s.badRequest(errs)
	}
	if newKey != oldKey && !s.moveEmail(oldKey, newKey, u.ID) {
		return s.badRequest(errList{{FieldName: "email", Error: "InvalidEmail", Message: "the email address is already in use"}})
	}
	if client != nil {
		u.ClientIDs = append(u.ClientIDs, s.createClient(*client, app))
	}
	if password != nil {
		s.setPassword(&u, *password)
		if s.is(fPasswordChangeEndsOtherSessions) {
			s.endOtherSessions(&u, p.sessionID)
		}
	}
	d.data = encode(u)
	return reply{status: http.StatusOK, body: s.userView(u)}
}
