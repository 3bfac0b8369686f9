package documents

import (
	"crypto/sha1"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// appInput is a validated app body.
type appInput struct {
	name       string
	platformID int64
	hash       string
	planID     int64
}

func (s *Server) validHash(h string) bool {
	if len(h) != 40 {
		return false
	}
	if s.is(fMarketappHashHexUnchecked) {
		return true
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

// StoreAppHashes are the hashes of the marketplace apps the stores hold:
// SHA-1 of "documents store app N", N from 1 to 8 (1: an app of no store
// cannot be made through the API).
func StoreAppHashes() []string {
	var out []string
	for n := 1; n <= 8; n++ {
		sum := sha1.Sum([]byte("documents store app " + strconv.Itoa(n)))
		out = append(out, hex.EncodeToString(sum[:]))
	}
	return out
}

var storeApps = func() map[string]bool {
	m := map[string]bool{}
	for _, h := range StoreAppHashes() {
		m[h] = true
	}
	return m
}()

// inStore reports whether a well-formed hash names a store's app; with
// the fault that checks a hash's length only, any hash that is no
// hexadecimal does too.
func (s *Server) inStore(h string) bool {
	if _, err := hex.DecodeString(h); err != nil && s.is(fMarketappHashHexUnchecked) {
		return true
	}
	return storeApps[strings.ToLower(h)]
}

// parseApp validates an app body (POST /apps, or the app member of a client
// body). A hash, a name, a platform id and a plan id that are null or
// absent count as not given.
func (s *Server) parseApp(body object, prefix string, errs *errList) *appInput {
	in := &appInput{planID: planLite}
	hashGiven, nameBad, platformBad := false, false, false

	if raw, ok := body.given("marketapp"); ok {
		m, isObj := objectValue(raw)
		if !isObj {
			errs.add(prefix+"marketapp", "InvalidMarketappHash", "marketapp must be an object with a hash")
			hashGiven = true
		} else if hraw, ok := m.given("hash"); ok {
			h, isStr := stringValue(hraw)
			switch {
			case isStr && h == "":
			case !isStr || !s.validHash(h):
				hashGiven = true
				errs.add(prefix+"marketapp.hash", "InvalidMarketappHash", "the marketapp hash must be 40 hexadecimal characters")
			case !s.inStore(h):
				hashGiven = true
				errs.add(prefix+"marketapp.hash", "InvalidMarketappHash", "no marketplace app has this hash")
			default:
				hashGiven = true
				in.hash = strings.ToLower(h)
			}
		}
	}

	if raw, ok := body.given("name"); ok {
		v, isStr := stringValue(raw)
		switch {
		case !isStr || !s.fits255(v):
			nameBad = true
			errs.add(prefix+"name", "InvalidName", "the app name must be a string of at most 255 characters")
		case strings.TrimSpace(v) != "":
			in.name = v
		}
	}
	if in.name == "" && !nameBad && (!hashGiven || s.is(fAppNameRequiredWithHash)) {
		errs.add(prefix+"name", "InvalidName", "no app name was provided")
	}

	if raw, ok := body.given("platform"); ok {
		o, isObj := objectValue(raw)
		if !isObj {
			platformBad = true
			errs.add(prefix+"platform", "InvalidPlatformId", "platform must be an object with an id")
		} else if idraw, ok := o.given("id"); ok {
			id, isID := idValue(idraw)
			if _, known := findPlatform(id); !isID || !known {
				platformBad = true
				errs.add(prefix+"platform.id", "InvalidPlatformId", "the platform id does not match a platform")
			} else {
				in.platformID = id
			}
		}
	}
	if in.platformID == 0 && !platformBad && !hashGiven {
		errs.add(prefix+"platform.id", "InvalidPlatformId", "a platform id is required when no marketapp hash is given")
	}

	if raw, ok := body.given("nextplan"); ok {
		o, isObj := objectValue(raw)
		if !isObj {
			errs.add(prefix+"nextplan", "InvalidPlanId", "nextplan must be an object with an id")
		} else if idraw, ok := o.given("id"); ok {
			id, isID := idValue(idraw)
			if !isID || !findPlan(id) {
				errs.add(prefix+"nextplan.id", "InvalidPlanId", "the plan id does not match a subscription plan")
			} else {
				in.planID = id
			}
		}
	}
	return in
}

// resolve fills what the marketplace app supplies: a store's app's platform
// follows from its hash and its name is derived from it. An app made from a
// name and a platform gets the hash of the store entry those identify.
func (in *appInput) resolve() {
	if in.hash != "" {
		// 4.2: the name and the platform id are "used when
		// marketapp.hash is not given": with a hash, the store's own
		// (changed after measuring: the body's won before).
		in.platformID = platformAndroid
		if strings.IndexByte("89abcdef", in.hash[0]) >= 0 {
			in.platformID = platformIOS
		}
		in.name = "Marketplace app " + in.hash[:8]
		return
	}
	p, _ := findPlatform(in.platformID)
	sum := sha1.Sum([]byte(strings.ToLower(p.Name) + "\n" + in.name))
	in.hash = hex.EncodeToString(sum[:])
}

func (s *Server) newWriteKey() string {
	k := randomHex(16)
	if s.is(fWriteKeyUpperCase) {
		k = strings.ToUpper(k)
	}
	return k
}

// insertApp stores the app; the caller links it into its client.
func (s *Server) insertApp(clientID int64, in *appInput) appDoc {
	return s.storeApp(clientID, in, s.is(fAppIDCollision))
}

func (s *Server) storeApp(clientID int64, in *appInput, racy bool) appDoc {
	in.resolve()
	a := appDoc{Created: now(), Name: in.name, PlatformID: in.platformID, WriteKey: s.newWriteKey(), PlanID: in.planID, Hash: in.hash, ClientID: clientID}
	build := func(id int64) []byte {
		a.ID = id
		return encode(a)
	}
	if racy {
		s.apps.insertRacy(build)
	} else {
		s.apps.insert(build)
	}
	return a
}

type planFlags struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type planFlagsOmitting struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling,omitempty"`
}

type marketappView struct {
	Hash string `json:"hash"`
}

// appView is the app object of section 2.3.
type appView struct {
	ID        int64         `json:"id"`
	Created   string        `json:"created"`
	Name      string        `json:"name"`
	Platform  platformItem  `json:"platform"`
	WriteKey  string        `json:"writeKey"`
	Plan      any           `json:"plan"`
	Marketapp marketappView `json:"marketapp"`
}

func (s *Server) appView(a appDoc) appView {
	p, _ := findPlatform(a.PlatformID)
	if s.is(fPlatformNameLowercase) {
		p.Name = strings.ToLower(p.Name)
	}
	// Billing details are needed by every paid plan.
	flags := planFlags{IsLite: a.PlanID == planLite, IsPro: a.PlanID == planPro, IsDynamic: a.PlanID == planDynamic, NeedBilling: a.PlanID != planLite}
	var plan any = flags
	if s.is(fPlanNeedBillingOmitted) {
		plan = planFlagsOmitting(flags)
	}
	return appView{ID: a.ID, Created: a.Created, Name: a.Name, Platform: p, WriteKey: a.WriteKey, Plan: plan, Marketapp: marketappView{Hash: a.Hash}}
}

func (s *Server) postApp(r *http.Request, p principal, _ string) reply {
	u, ok := s.readUser(p.userID)
	if !ok {
		return unauthorized()
	}
	if len(u.ClientIDs) == 0 {
		return forbidden("the caller is not a member of any client")
	}
	body, fail := s.readObject(r)
	if fail != nil {
		return *fail
	}
	var errs errList
	in := s.parseApp(body, "", &errs)
	if len(errs) > 0 {
		return s.badRequest(errs)
	}
	cd := s.clients.get(u.ClientIDs[0])
	if cd == nil {
		return forbidden("the caller is not a member of any client")
	}
	cd.mu.Lock()
	var c clientDoc
	decode(cd.data, &c)
	if len(c.AppIDs) >= maxAppsPerClient || s.apps.size() >= maxApps {
		cd.mu.Unlock()
		return limitReached("this client may not have more apps")
	}
	a := s.insertApp(c.ID, in)
	c.AppIDs = append(c.AppIDs, a.ID)
	cd.data = encode(c)
	cd.mu.Unlock()

	status := http.StatusOK
	if s.is(fCreateApp201) {
		status = http.StatusCreated
	}
	out := encode(s.appView(a))
	if s.is(fAppResponseFromSharedSlot) {
		// The answer is read back from a slot shared by all requests.
		s.lastAppMu.Lock()
		s.lastApp = out
		s.lastAppMu.Unlock()
		raceWindow()
		s.lastAppMu.Lock()
		out = s.lastApp
		s.lastAppMu.Unlock()
	}
	return reply{status: status, body: out}
}

func (s *Server) getApp(r *http.Request, p principal, arg string) reply {
	id, ok := parseID(arg)
	var d *document
	if ok {
		d = s.apps.get(id)
	}
	if d == nil {
		return notFound("no such app")
	}
	var a appDoc
	d.read(&a)
	if !s.isMember(p.userID, a.ClientID) {
		return forbidden("this app may not be viewed by the caller")
	}
	return reply{status: http.StatusOK, body: s.appView(a)}
}

func (s *Server) listApps(r *http.Request, p principal, _ string) reply {
	u, _ := s.readUser(p.userID)
	out := []appView{}
	for _, cid := range u.ClientIDs {
		cd := s.clients.get(cid)
		if cd == nil {
			continue
		}
		var c clientDoc
		cd.read(&c)
		for _, aid := range c.AppIDs {
			if d := s.apps.get(aid); d != nil {
				var a appDoc
				d.read(&a)
				if a.ClientID == cid {
					out = append(out, s.appView(a))
				}
			}
		}
	}
	return reply{status: http.StatusOK, body: s.wrap("apps", out, len(out))}
}
