package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"mime"
	"net/http"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

type obj = map[string]any

// readBody reads and decodes a JSON object body.
func (s *Server) readBody(r *http.Request, allowed []string) (obj, *apiError) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if s.is("charset-415") {
			if ct != "application/json" {
				return nil, &apiError{status: 415, code: "UnsupportedMediaType", msg: "Content-Type must be application/json"}
			}
		} else {
			mt, _, err := mime.ParseMediaType(ct)
			if err != nil || !(mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))) {
				return nil, &apiError{status: 415, code: "UnsupportedMediaType", msg: "Content-Type must be application/json"}
			}
		}
	}
	var raw []byte
	if !(s.is("chunked-empty") && r.ContentLength < 0) && r.Body != nil {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, &apiError{status: 413, code: "PayloadTooLarge", msg: "request body too large"}
			}
			return nil, errField("", "InvalidJSON", "the request body could not be read")
		}
		if len(b) > maxBody {
			return nil, &apiError{status: 413, code: "PayloadTooLarge", msg: "request body is larger than 65536 bytes"}
		}
		raw = b
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errField("", "InvalidJSON", "a JSON object body is required")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, errField("", "InvalidJSON", "the body is not valid JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errField("", "InvalidJSON", "unexpected data after the JSON value")
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, errField("", "InvalidBody", "the body must be a JSON object")
	}
	if s.is("reject-unknown-fields") && allowed != nil {
		var fe []fieldError
		for k := range o {
			known := false
			for _, a := range allowed {
				if a == k {
					known = true
				}
			}
			if !known {
				fe = append(fe, fieldError{k, "UnknownField", "this field is not accepted"})
			}
		}
		if len(fe) > 0 {
			sortFieldErrors(fe)
			return nil, errFields(fe)
		}
	}
	return o, nil
}

func sortFieldErrors(fe []fieldError) {
	for i := 1; i < len(fe); i++ {
		for j := i; j > 0 && fe[j].FieldName < fe[j-1].FieldName; j-- {
			fe[j], fe[j-1] = fe[j-1], fe[j]
		}
	}
}

var (
	userFields = []string{"email", "firstName", "lastName", "subscribeWelcome", "subscribeBlog", "subscribeHowto",
		"subscribeOnboarding", "timezone", "password", "client", "phoneCountry", "phoneCountryId", "phoneNumber",
		"phoneExtension", "id", "created", "passwordLastChanged"}
	clientFields = []string{"name", "addressLine1", "addressLine2", "addressCity", "addressPostcode", "addressCountry",
		"vat", "currency", "terms", "app", "id", "createdDate"}
	appFields     = []string{"marketapp", "name", "platform", "nextplan", "id", "created", "writeKey", "plan"}
	sessionFields = []string{"email", "password", "clientId"}
)

// vctx collects validation errors.
type vctx struct {
	s      *Server
	prefix string
	errs   []fieldError
}

func (c *vctx) add(field, code, msg string) {
	c.errs = append(c.errs, fieldError{c.prefix + field, code, msg})
}

func (s *Server) strLen(v string) int {
	if s.is("len-bytes") {
		return len(v)
	}
	return utf8.RuneCountInString(v)
}

// str validates a ..255 string field. Blank values are refused when
// !allowBlank. It returns the value and whether a valid value was given.
func (c *vctx) str(o obj, key, code string, required, allowBlank bool) (string, bool) {
	v, present := o[key]
	if !present {
		if required {
			c.add(key, code, key+" is required")
		}
		return "", false
	}
	sv, ok := v.(string)
	if !ok {
		c.add(key, code, key+" must be a string")
		return "", false
	}
	if !allowBlank && strings.TrimSpace(sv) == "" {
		c.add(key, code, key+" must not be empty")
		return "", false
	}
	if c.s.strLen(sv) > 255 {
		c.add(key, code, key+" must be at most 255 characters long")
		return "", false
	}
	return sv, true
}

// optStr validates an optional ..255 string; null means absent. set reports
// whether the key is present at all.
func (c *vctx) optStr(o obj, key, code string) (val *string, set bool) {
	v, present := o[key]
	if !present {
		return nil, false
	}
	if v == nil {
		return nil, true
	}
	sv, ok := v.(string)
	if !ok {
		c.add(key, code, key+" must be a string")
		return nil, true
	}
	if !c.s.is("optional-unbounded") && c.s.strLen(sv) > 255 {
		c.add(key, code, key+" must be at most 255 characters long")
		return nil, true
	}
	return &sv, true
}

func (c *vctx) boolean(o obj, key, code string, required bool) (bool, bool) {
	v, present := o[key]
	if !present {
		if required {
			c.add(key, code, key+" is required")
		}
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		c.add(key, code, key+" must be a boolean")
		return false, false
	}
	return b, true
}

// intOf reads an integral JSON number (2, 2.0 and 2e0 are the same number).
func (s *Server) intOf(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, true
	}
	if s.is("float-id") {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// objID reads o[key].id. It returns (id, given): given is false when the
// object or its id is absent or null (and nullOK).
func (c *vctx) objID(o obj, key, code string, required bool) (int64, bool) {
	v, present := o[key]
	if !present || v == nil {
		if required {
			c.add(key+".id", code, key+".id is required")
		}
		return 0, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		c.add(key, code, key+" must be an object")
		return 0, false
	}
	idv, present := m["id"]
	if !present || idv == nil {
		if required {
			c.add(key+".id", code, key+".id is required")
		}
		return 0, false
	}
	id, ok := c.s.intOf(idv)
	if !ok {
		c.add(key+".id", code, key+".id must be an integer")
		return 0, false
	}
	return id, true
}

var tzRe = regexp.MustCompile(`^(UTC|[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){1,2})$`)
var extRe = regexp.MustCompile(`^[0-9]{1,10}$`)

func validEmail(e string) bool {
	if strings.ContainsAny(e, " \t\r\n<>") {
		return false
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Name != "" || a.Address != e {
		return false
	}
	at := strings.LastIndexByte(e, '@')
	dom := e[at+1:]
	return at > 0 && strings.Contains(dom, ".") && !strings.HasPrefix(dom, ".") && !strings.HasSuffix(dom, ".")
}

// userInput is a validated user body. nil pointers are "not given".
type userInput struct {
	Email, FirstName, LastName, Timezone *string
	Subs                                 [4]*bool
	Password                             *string
	PhoneCountryID                       *int64
	PhoneNumber                          *string
	PhoneExtSet                          bool
	PhoneExt                             *string
	Client                               *clientInput
}

var subKeys = [4]string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"}
var subCodes = [4]string{"InvalidSubscribeWelcome", "InvalidSubscribeBlog", "InvalidSubscribeHowto", "InvalidSubscribeOnboarding"}

// parseUser validates a user body. create: POST /users (every field
// required, password too); otherwise PUT, where required depends on the
// reading.
func (s *Server) parseUser(o obj, create bool) (*userInput, []fieldError) {
	c := &vctx{s: s}
	in := &userInput{}
	req := create || !s.is("partial-put")
	if v, ok := c.str(o, "email", "InvalidEmail", req, false); ok {
		if !validEmail(v) {
			c.add("email", "InvalidEmail", "email is not a valid email address")
		} else {
			in.Email = &v
		}
	}
	if pv, present := o["password"]; !present || pv == nil {
		if create {
			c.add("password", "InvalidPassword", "password is required")
		}
	} else if ps, ok := pv.(string); !ok {
		c.add("password", "InvalidPassword", "password must be a string or null")
	} else if n := utf8.RuneCountInString(ps); n < 6 {
		c.add("password", "InvalidPassword", "password must be at least 6 characters long")
	} else if n > 1024 {
		c.add("password", "InvalidPassword", "password must be at most 1024 characters long")
	} else {
		in.Password = &ps
	}
	if v, ok := c.str(o, "firstName", "InvalidFirstName", req, false); ok {
		in.FirstName = &v
	}
	if v, ok := c.str(o, "lastName", "InvalidLastName", req, false); ok {
		in.LastName = &v
	}
	c.phone(o, create, in)
	for i, k := range subKeys {
		if b, ok := c.boolean(o, k, subCodes[i], req); ok {
			in.Subs[i] = &b
		}
	}
	if v, ok := c.str(o, "timezone", "InvalidTimezone", req, false); ok {
		if !tzRe.MatchString(v) {
			c.add("timezone", "InvalidTimezone", "timezone must be a name of the form Area/City")
		} else {
			in.Timezone = &v
		}
	}
	if cv, present := o["client"]; present && cv != nil {
		cm, ok := cv.(map[string]any)
		if !ok {
			c.add("client", "InvalidClient", "client must be an object")
		} else {
			ci, errs := s.parseClient(cm, true, "client.", false)
			c.errs = append(c.errs, errs...)
			in.Client = ci
		}
	}
	return in, c.errs
}

// phone validates a user body's phoneCountry {id} (or phoneCountryId),
// phoneNumber and phoneExtension into in.
func (c *vctx) phone(o obj, create bool, in *userInput) {
	pcKey := "phoneCountry"
	if _, ok := o["phoneCountry"]; !ok {
		if _, ok := o["phoneCountryId"]; ok {
			pcKey = "phoneCountryId"
		}
	}
	if pv, present := o[pcKey]; present || create {
		var id int64
		ok := false
		if pcKey == "phoneCountryId" {
			id, ok = c.s.intOf(pv)
			if !ok {
				c.add("phoneCountryId", "InvalidPhoneCountryId", "phoneCountryId must be the id of a phone country")
			}
		} else {
			id, ok = c.objID(o, "phoneCountry", "InvalidPhoneCountryId", true)
		}
		if ok {
			if findPhoneCountry(id) == nil {
				f := "phoneCountry.id"
				if pcKey == "phoneCountryId" {
					f = pcKey
				}
				c.add(f, "InvalidPhoneCountryId", "no phone country has this id")
			} else {
				in.PhoneCountryID = &id
			}
		}
	}
	if v, ok := c.str(o, "phoneNumber", "InvalidPhoneNumber", create, false); ok {
		in.PhoneNumber = &v
	}
	if ev, present := o["phoneExtension"]; present {
		in.PhoneExtSet = true
		if ev != nil {
			es, ok := ev.(string)
			if !ok || !extRe.MatchString(es) {
				c.add("phoneExtension", "InvalidPhoneExtension", "phoneExtension must be null or a string of 1 to 10 digits")
			} else {
				in.PhoneExt = &es
			}
		}
	}
}

// apply writes the given fields into u (a copy).
func (in *userInput) apply(s *Server, u *userRec, create bool, now time.Time) {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&u.Email, in.Email)
	set(&u.FirstName, in.FirstName)
	set(&u.LastName, in.LastName)
	set(&u.Timezone, in.Timezone)
	set(&u.PhoneNumber, in.PhoneNumber)
	subs := [4]*bool{&u.SubWelcome, &u.SubBlog, &u.SubHowto, &u.SubOnboarding}
	for i, p := range in.Subs {
		if p != nil {
			*subs[i] = *p
		}
	}
	if in.PhoneCountryID != nil {
		u.PhoneCountryID = *in.PhoneCountryID
	}
	if in.PhoneExtSet {
		u.PhoneExt = in.PhoneExt
	}
	if in.Password != nil {
		s.setPassword(u, *in.Password, now)
	}
	_ = create
}

// clientInput is a validated client body.
type clientInput struct {
	Name, Line1, City, Postcode, Country string
	Line2, VAT                           *string
	Line2Set, VATSet                     bool
	CurrencyID                           int64
	given                                map[string]bool
	App                                  *appInput
}

// parseClient validates a client body. create: POST /clients (or a nested
// client); otherwise PUT /clients/:id.
func (s *Server) parseClient(o obj, create bool, prefix string, _ bool) (*clientInput, []fieldError) {
	c := &vctx{s: s, prefix: prefix}
	in := &clientInput{given: map[string]bool{}}
	req := create || !s.is("partial-put")
	strs := []struct {
		key, code string
		dst       *string
	}{
		{"name", "InvalidName", &in.Name},
		{"addressLine1", "InvalidAddressLine1", &in.Line1},
	}
	for _, f := range strs {
		if v, ok := c.str(o, f.key, f.code, req, false); ok {
			*f.dst = v
			in.given[f.key] = true
		}
	}
	in.Line2, in.Line2Set = c.optStr(o, "addressLine2", "InvalidAddressLine2")
	strs = []struct {
		key, code string
		dst       *string
	}{
		{"addressCity", "InvalidAddressCity", &in.City},
		{"addressPostcode", "InvalidAddressPostcode", &in.Postcode},
		{"addressCountry", "InvalidAddressCountry", &in.Country},
	}
	for _, f := range strs {
		if v, ok := c.str(o, f.key, f.code, req, false); ok {
			*f.dst = v
			in.given[f.key] = true
		}
	}
	in.VAT, in.VATSet = c.optStr(o, "vat", "InvalidVat")
	if id, ok := c.objID(o, "currency", "InvalidCurrencyId", req); ok {
		if findCurrency(id) == nil {
			c.add("currency.id", "InvalidCurrencyId", "no currency has this id")
		} else {
			in.CurrencyID = id
			in.given["currency"] = true
		}
	}
	if tv, present := o["terms"]; present || req {
		ts, ok := tv.(string)
		agreed := ok && ts == "I agree"
		if ok && s.is("terms-casefold") {
			agreed = strings.EqualFold(strings.TrimSpace(ts), "I agree")
		}
		if !agreed {
			c.add("terms", "InvalidTerms", "terms must equal \"I agree\"")
		}
	}
	if av, present := o["app"]; present {
		if !create {
			c.add("app", "InvalidApp", "app must not be given to this endpoint; use POST /apps")
		} else if av != nil {
			am, ok := av.(map[string]any)
			if !ok {
				c.add("app", "InvalidApp", "app must be an object")
			} else {
				ai, errs := s.parseApp(am, prefix+"app.")
				c.errs = append(c.errs, errs...)
				in.App = ai
			}
		}
	}
	return in, c.errs
}

func (in *clientInput) apply(c *clientRec, partial bool) {
	setS := func(key string, dst *string, v string) {
		if !partial || in.given[key] {
			*dst = v
		}
	}
	setS("name", &c.Name, in.Name)
	setS("addressLine1", &c.AddressLine1, in.Line1)
	setS("addressCity", &c.AddressCity, in.City)
	setS("addressPostcode", &c.AddressPostcode, in.Postcode)
	setS("addressCountry", &c.AddressCountry, in.Country)
	if !partial || in.Line2Set {
		c.AddressLine2 = in.Line2
	}
	if !partial || in.VATSet {
		c.VAT = in.VAT
	}
	if !partial || in.given["currency"] {
		c.CurrencyID = in.CurrencyID
	}
}

// appInput is a validated app body.
type appInput struct {
	Hash       string // canonical lower-case; "" when not given
	Name       string
	PlatformID int64
	PlanID     int64
}

var hexRe = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)

func (s *Server) parseApp(o obj, prefix string) (*appInput, []fieldError) {
	c := &vctx{s: s, prefix: prefix}
	in := &appInput{}
	hashGiven := false
	if mv, present := o["marketapp"]; present && mv != nil {
		mm, ok := mv.(map[string]any)
		if !ok {
			c.add("marketapp", "InvalidMarketappHash", "marketapp must be an object")
			hashGiven = true
		} else if hv, present := mm["hash"]; present && hv != nil {
			hashGiven = true
			hs, ok := hv.(string)
			if ok && s.is("hash-truncated") && len(hs) > 40 {
				hs = hs[:40]
			}
			if !ok || !hexRe.MatchString(hs) {
				c.add("marketapp.hash", "InvalidMarketappHash", "marketapp.hash must be 40 hexadecimal characters")
			} else {
				in.Hash = strings.ToLower(hs)
			}
		}
	}
	if nv, present := o["name"]; present && nv != nil {
		ns, ok := nv.(string)
		switch {
		case !ok:
			c.add("name", "InvalidName", "name must be a string or null")
		case s.strLen(ns) > 255:
			c.add("name", "InvalidName", "name must be at most 255 characters long")
		case strings.TrimSpace(ns) == "" && !hashGiven:
			c.add("name", "InvalidName", "no app name was provided")
		default:
			in.Name = ns
		}
	} else if !hashGiven {
		c.add("name", "InvalidName", "no app name was provided")
	}
	if pid, ok := c.objID(o, "platform", "InvalidPlatformId", false); ok {
		if findPlatform(pid) == nil {
			c.add("platform.id", "InvalidPlatformId", "no platform has this id")
		} else {
			in.PlatformID = pid
		}
	} else if !hashGiven && in.Name != "" {
		c.add("platform.id", "InvalidPlatformId", "platform.id is required when marketapp.hash is not given")
	}
	if id, ok := c.objID(o, "nextplan", "InvalidNextplanId", true); ok {
		if findPlan(id) == nil {
			c.add("nextplan.id", "InvalidNextplanId", "no subscription plan has this id")
		} else {
			in.PlanID = id
		}
	}
	return in, c.errs
}

// resolve finds the marketplace app the input names, or nil.
func (in *appInput) resolve() *marketApp {
	if in.Hash != "" {
		return findMarketApp(in.Hash)
	}
	return findMarketAppByName(in.Name, in.PlatformID)
}
