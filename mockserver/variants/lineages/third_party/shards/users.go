package shards

import (
	"net/http"
	"net/mail"
	"regexp"
	"strings"
	"time"
)

var subKeys = [4]string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"}

var (
	tzRe  = regexp.MustCompile(`^[A-Za-z]+(/[A-Za-z0-9_+\-]+)+$`)
	extRe = regexp.MustCompile(`^[0-9]{1,10}$`)
)

type phoneInput struct {
	country int64 // 0: keep
	number  *string
	extSet  bool
	ext     *string
}

type userInput struct {
	email, first, last, timezone string
	subs                         [4]bool
	password                     *string // nil keeps the password
	phone                        phoneInput
	client                       *clientInput
}

// parseUser validates a PUT /users (signup false) or POST /users body.
func (s *Server) parseUser(f fields, signup bool) userInput {
	var in userInput
	in.email = f.reqString("email", "InvalidEmail")
	if in.email != "" && !validEmail(in.email) {
		f.fail("email", "InvalidEmail", "the email address is invalid")
	}
	in.first = f.reqString("firstName", "InvalidFirstName")
	in.last = f.reqString("lastName", "InvalidLastName")
	for i, k := range subKeys {
		in.subs[i] = f.reqBool(k, "Invalid"+strings.ToUpper(k[:1])+k[1:])
	}
	in.timezone = f.reqString("timezone", "InvalidTimezone")
	if in.timezone != "" && !tzRe.MatchString(in.timezone) {
		f.fail("timezone", "InvalidTimezone", "timezone must be an Area/City name")
	}
	in.password = s.parsePassword(f, signup)
	in.phone = s.parsePhone(f, signup)
	in.client = s.parseNestedClient(f)
	return in
}

func validEmail(e string) bool {
	if strings.ContainsAny(e, " \t\r\n") {
		return false
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e {
		return false
	}
	domain := e[strings.LastIndexByte(e, '@')+1:]
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

func (s *Server) parsePassword(f fields, signup bool) *string {
	v, ok := f.m["password"]
	if ok && v == nil && !signup && !s.is(faultPasswordNullRejected) {
		return nil
	}
	str, isStr := v.(string)
	switch {
	case !ok || v == nil:
		f.fail("password", "InvalidPassword", "password must be given: a string of at least 6 characters, or null to keep it")
	case !isStr:
		f.fail("password", "InvalidPassword", "password must be a string or null")
	case len([]rune(str)) < 6:
		f.fail("password", "InvalidPassword", "the password is too short (at least 6 characters)")
	default:
		return &str
	}
	return nil
}

// parsePhone reads phoneCountry.id, phoneNumber and phoneExtension;
// optional on PUT (omitted keeps), the first two required on signup.
func (s *Server) parsePhone(f fields, required bool) phoneInput {
	var p phoneInput
	if f.present("phoneCountry") || required {
		id, ok := f.objectID("phoneCountry", "InvalidPhoneCountryId")
		if ok && findPhoneCountry(id) == nil {
			f.fail("phoneCountry.id", "InvalidPhoneCountryId", "unknown phone country id")
		}
		p.country = id
	}
	if v, ok := f.m["phoneNumber"]; ok || required {
		str, isStr := v.(string)
		if !isStr || strings.TrimSpace(str) == "" || s.tooLong(str) {
			f.fail("phoneNumber", "InvalidPhoneNumber", "no phone number was provided")
		} else {
			p.number = &str
		}
	}
	if v, ok := f.m["phoneExtension"]; ok {
		p.extSet = true
		str, isStr := v.(string)
		switch {
		case v == nil:
		case isStr && extRe.MatchString(str):
			p.ext = &str
		default:
			f.fail("phoneExtension", "InvalidPhoneExtension", "phoneExtension must be null or 1 to 10 digits")
		}
	}
	return p
}

func (s *Server) parseNestedClient(f fields) *clientInput {
	v, ok := f.m["client"]
	if !ok || v == nil {
		return nil
	}
	m, isObj := v.(map[string]any)
	if !isObj {
		f.fail("client", "InvalidClient", "client must be an object")
		return nil
	}
	in := s.parseClient(f.sub(m, "client"), false)
	return &in
}

// readUser decodes and validates a user body. On a validation failure
// the faulty non-atomic server still stores the user part.
func (s *Server) readUser(w http.ResponseWriter, r *http.Request, u *userRec) (userInput, bool) {
	m, ok := s.readBody(w, r)
	if !ok {
		return userInput{}, false
	}
	f := s.newFields(m)
	in := s.parseUser(f, u == nil)
	if len(*f.errs) == 0 {
		return in, true
	}
	if u != nil && s.is(faultPutUserNotAtomic) && onlyPrefixed(*f.errs, "client") {
		in.client = nil
		_, _ = s.updateUser(u, in)
	}
	s.validation(w, *f.errs)
	return userInput{}, false
}

func onlyPrefixed(errs errList, p string) bool {
	for _, e := range errs {
		if e.FieldName != p && !strings.HasPrefix(e.FieldName, p+".") {
			return false
		}
	}
	return true
}

func (s *Server) userFromPath(w http.ResponseWriter, r *http.Request) *userRec {
	var u *userRec
	if id, ok := pathID(r.PathValue("userId")); ok {
		u = s.st.user(id)
	}
	if u == nil {
		s.fail(w, http.StatusNotFound, "NotFound", "no such user")
	}
	return u
}

type leakedForbidden struct {
	apiError
	User userJSON `json:"user"`
}

func (s *Server) mayEditUser(w http.ResponseWriter, c caller, u *userRec) bool {
	if c.uid == u.id || s.is(faultPutUserAnyUser) {
		return true
	}
	if s.is(faultForbiddenLeaksUser) {
		e := apiError{Error: "Forbidden", Message: "you may only update your own user"}
		s.writeJSON(w, http.StatusForbidden, []leakedForbidden{{e, u.view(s)}})
		return false
	}
	s.fail(w, http.StatusForbidden, "Forbidden", "you may only update your own user")
	return false
}

// putUser handles PUT /users/:userId.
func (s *Server) putUser(w http.ResponseWriter, r *http.Request) {
	if s.is(faultNotFoundBeforeAuth) && s.userFromPath(w, r) == nil {
		return
	}
	c, ok := s.requireAuth(w, r)
	if !ok {
		return
	}
	u := s.userFromPath(w, r)
	if u == nil {
		return
	}
	var in userInput
	early := s.is(faultValidationBeforePerm)
	if early {
		if in, ok = s.readUser(w, r, u); !ok {
			return
		}
	}
	if !s.mayEditUser(w, c, u) {
		return
	}
	if !early {
		if in, ok = s.readUser(w, r, u); !ok {
			return
		}
	}
	s.finishPutUser(w, u, in)
}

func (s *Server) finishPutUser(w http.ResponseWriter, u *userRec, in userInput) {
	var ma *marketApp
	if in.client != nil {
		var ok bool
		if ma, ok = s.resolveApp(w, in.client.app); !ok || !s.canCreateClient(w, u) {
			return
		}
	}
	view, e := s.updateUser(u, in)
	if e != nil {
		s.validation(w, errList{*e})
		return
	}
	if in.client != nil {
		s.createClientWithApp(u, *in.client, ma)
	}
	s.writeJSON(w, http.StatusOK, view)
}

// updateUser applies a validated body under the user's lock.
func (s *Server) updateUser(u *userRec, in userInput) (userJSON, *apiError) {
	if s.is(faultLostUpdatePassword) {
		return s.updateUserFromCopy(u, in)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if e := s.moveEmail(u, in.email); e != nil {
		return userJSON{}, e
	}
	s.applyUserInput(&u.d, in, time.Now())
	return s.userView(u.id, &u.d), nil
}

// updateUserFromCopy is the faulty read-copy-write-back variant.
func (s *Server) updateUserFromCopy(u *userRec, in userInput) (userJSON, *apiError) {
	u.mu.Lock()
	snap := u.d
	u.mu.Unlock()
	time.Sleep(s.window)
	s.applyUserInput(&snap, in, time.Now())
	u.mu.Lock()
	defer u.mu.Unlock()
	if e := s.moveEmail(u, in.email); e != nil {
		return userJSON{}, e
	}
	snap.email = u.d.email
	u.d = snap
	return s.userView(u.id, &u.d), nil
}

func (s *Server) applyUserInput(d *userData, in userInput, now time.Time) {
	d.first, d.last, d.timezone, d.subs = in.first, in.last, in.timezone, in.subs
	if in.password != nil {
		pw := *in.password
		if s.is(faultPasswordTrimmed) {
			pw = strings.TrimSpace(pw)
		}
		d.salt, d.hash = hashPassword(pw)
		d.pwVersion++
		if !s.is(faultPasswordChangedStale) {
			d.pwChanged = now
		}
	}
	if in.phone.country != 0 {
		d.phoneCountry = in.phone.country
	}
	if in.phone.number != nil {
		d.phoneNumber = *in.phone.number
	}
	if in.phone.extSet {
		d.phoneExt = in.phone.ext
	}
}

func (s *Server) indexKey(email string) string {
	if s.is(faultMixedCaseEmailLogin) {
		return email
	}
	return emailKey(email)
}

func emailTaken() *apiError {
	return &apiError{FieldName: "email", Error: "InvalidEmail", Message: "the email address is already in use"}
}

// moveEmail re-indexes u under a new email; the caller holds u.mu.
func (s *Server) moveEmail(u *userRec, email string) *apiError {
	st := s.st
	key, old := s.indexKey(email), emailKey(u.d.email)
	racy := s.is(faultDuplicateEmailRace)
	if racy {
		st.emailMu.RLock()
		id, taken := st.byEmail[key]
		st.emailMu.RUnlock()
		if taken && id != u.id {
			return emailTaken()
		}
		time.Sleep(s.window)
	}
	st.emailMu.Lock()
	defer st.emailMu.Unlock()
	if id, taken := st.byEmail[key]; !racy && taken && id != u.id {
		return emailTaken()
	}
	if old != key && !s.is(faultOldEmailIndexed) {
		delete(st.byEmail, old)
	}
	st.byEmail[key] = u.id
	u.d.email = email
	return nil
}

// postUser handles POST /users: an unauthenticated sign-up.
func (s *Server) postUser(w http.ResponseWriter, r *http.Request) {
	in, ok := s.readUser(w, r, nil)
	if !ok {
		return
	}
	var ma *marketApp
	if in.client != nil {
		if ma, ok = s.resolveApp(w, in.client.app); !ok {
			return
		}
		if s.st.clientCount() >= maxClients {
			s.fail(w, http.StatusForbidden, "LimitExceeded", "too many clients")
			return
		}
	}
	if s.st.signups.Add(1) > maxSignups {
		s.st.signups.Add(-1)
		s.fail(w, http.StatusForbidden, "LimitExceeded", "too many users")
		return
	}
	u := s.newUser(in)
	if e := s.registerEmail(u, in.email); e != nil {
		s.st.dropUser(u.id)
		s.st.signups.Add(-1)
		s.validation(w, errList{*e})
		return
	}
	if in.client != nil {
		s.createClientWithApp(u, *in.client, ma)
	}
	s.writeJSON(w, http.StatusOK, u.view(s))
}

func (s *Server) newUser(in userInput) *userRec {
	now := time.Now()
	u := &userRec{id: s.st.userSeq.Add(1), apiKey: "ak_" + randHex(16)}
	u.d = userData{created: now, pwChanged: now, email: in.email}
	s.applyUserInput(&u.d, in, now)
	s.st.putUser(u)
	s.st.putKey(u.apiKey, u.id)
	return u
}

// registerEmail indexes a new user's email, refusing one in use.
func (s *Server) registerEmail(u *userRec, email string) *apiError {
	key := s.indexKey(email)
	s.st.emailMu.Lock()
	defer s.st.emailMu.Unlock()
	if _, taken := s.st.byEmail[key]; taken {
		return emailTaken()
	}
	s.st.byEmail[key] = u.id
	return nil
}
