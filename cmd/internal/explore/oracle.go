package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// seqState is one sequence: the reference's store and what maps its
// entities to the target's.
type seqState struct {
	n        int
	ref      *pricing.Store
	refTok   map[string]string // the reference's session token of each account
	tok      map[string]string // the target's latest session token of each account
	tokStep  map[string]int    // the step whose answer gave it (-1: before the sequence)
	password map[string]string
	ids      map[string]map[int64]int64 // kind: reference id -> target id
	rids     map[string]map[int64]int64 // kind: target id -> reference id
	idStep   map[string]int             // kind:target id -> the step whose answer showed it first
	dateStep map[string]int             // learned key -> the step whose answer showed it first
	acctIDs  map[string][2]int64        // each account's user and client id (the same on both sides)
	apiKey   map[string]string
	posted   map[string][]posted // the clients each account made with POST /clients
	steps    []step
	status   []int
	cur      int // the step being judged
}

func (s *seqState) user(actor string) pricing.User {
	u, _ := s.ref.User(s.uid(actor))
	return u
}

func (s *seqState) uid(actor string) int64 { return s.acctIDs[actor][0] }

// clientOf is the client a PUT /clients step names by its own path: the
// actor's, or the last one it created.
func (s *seqState) clientOf(st step) pricing.Client {
	id := s.acctIDs[st.actor][1]
	if p := s.posted[st.actor]; st.path == "created" && len(p) > 0 {
		id = p[len(p)-1].ref
	}
	c, _ := s.ref.Client(id)
	return c
}

// verdict is the reference's answer to a step: the statuses the spec
// allows, what a 400 must name, and what a 200 does.
type verdict struct {
	statuses []int
	any4xx   bool
	fields   []string // a 400's offending fields, where the spec names them
	codes    []string // field=code pairs a 400 must carry
	// extra are the fields a 400 may name beside fields: those of a
	// refusal the spec leaves to the server (a field and what is below
	// it); anyNames: a 400 about no field of the body, whose names are
	// the server's.
	extra    []string
	anyNames bool
	noField  bool // a 400 that is about no field of the body (a path id, credentials): fieldName may be empty
	// accept applies the step to the reference when the target answered
	// 200, and returns what the answer must show.
	accept func() (*want, error)
	rule   string
}

func (v verdict) allows(status int) bool {
	return slices.Contains(v.statuses, status) || (v.any4xx && status >= 400 && status < 500 && status != 401)
}

// want is what a 200 answer must show.
type want struct {
	kind   string // user, client, app, session, platforms
	user   pricing.User
	client pricing.Client
	app    pricing.App
	sess   pricing.Session
	fresh  bool // the entity is new: its id is bound now
}

// decodeBody decodes a step's body as the mock does (numbers exact).
func decodeBody(raw string) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
	dec.UseNumber()
	var b map[string]any
	if err := dec.Decode(&b); err != nil || b == nil {
		return nil, false
	}
	return b, true
}

// verdictOf is what the spec answers to a step, in the order its rules
// apply: the version (9), authentication (5, before anything about the
// resource or the body), the resource (7.2), the body (7.1, 7.3, 8).
func (e *explorer) verdictOf(s *seqState, st step) verdict {
	if st.version != "" && !e.servesVersion(st.version) {
		v := verdict{statuses: []int{404}, rule: "9: one version is available; " + st.version + " is none of it"}
		if _, ok := s.caller(st); !ok && st.op != opLogin {
			// Whether a server looks at the credentials or at the path
			// first is not shown: both answers are correct.
			v.statuses = []int{401, 404}
		}
		return v
	}
	if st.op == opLogin {
		return e.loginVerdict(s, st)
	}
	caller, ok := s.caller(st)
	if st.op == opPlatforms {
		if !ok {
			// Whether the platforms collection needs authentication is
			// not shown (4.5).
			return verdict{statuses: []int{200, 401}, accept: func() (*want, error) { return &want{kind: "platforms"}, nil }}
		}
		return verdict{statuses: []int{200}, accept: func() (*want, error) { return &want{kind: "platforms"}, nil }, rule: "4.5"}
	}
	if !ok {
		return verdict{statuses: []int{401}, rule: "5: a request not authenticated correctly is answered 401"}
	}
	var clientID int64
	switch st.op {
	case opPutUser, opPutClient:
		switch st.path {
		case "unknown":
			return verdict{statuses: []int{403, 404}, rule: "7.2: an id that names nothing"}
		case "malformed":
			return verdict{statuses: []int{400, 403, 404}, anyNames: true, noField: true, rule: "7.2: an id that is no id"}
		case "other":
			return verdict{statuses: []int{403}, rule: "5: the caller may not view or modify the resource: 403"}
		}
		if st.op == opPutClient {
			clientID = s.clientOf(st).ID
		}
	}
	if st.raw != nil {
		return verdict{any4xx: true, rule: "7.2: a body that is no JSON object is a client's mistake"}
	}
	body, ok := decodeBody(st.jsonBody())
	if !ok {
		return verdict{any4xx: true}
	}
	delete(body, "contractPadding")
	delete(body, "contractExtra")
	val := s.ref.Validator()
	var errs []pricing.FieldError
	var accept func() (*want, error)
	switch st.op {
	case opPutUser:
		in, fe := val.UserUpdate(body, caller)
		errs = fe
		accept = func() (*want, error) {
			u, err := s.ref.UpdateUser(caller, in)
			if err == nil && in.Password != nil {
				s.password[st.actor] = *in.Password
			}
			return &want{kind: "user", user: u}, err
		}
	case opPutClient:
		in, fe := val.ClientUpdate(body)
		errs = fe
		accept = func() (*want, error) {
			c, err := s.ref.UpdateClient(clientID, in)
			return &want{kind: "client", client: c}, err
		}
	case opPostClient:
		in, fe := val.ClientCreate(body)
		errs = fe
		accept = func() (*want, error) {
			c, err := s.ref.CreateClient(caller, in)
			if err == nil {
				s.posted[st.actor] = append(s.posted[st.actor], posted{ref: c.ID, at: s.cur})
			}
			return &want{kind: "client", client: c, fresh: true}, err
		}
	case opPostApp:
		in, fe := val.App(body)
		errs = fe
		accept = func() (*want, error) {
			u, _ := s.ref.User(caller)
			a, err := s.ref.CreateApp(u.PrimaryClientID, in)
			return &want{kind: "app", app: a, fresh: true}, err
		}
	}
	v := verdict{rule: "7.1, 7.3, 8", extra: st.looseFields}
	if st.unnamed {
		v.extra = append(v.extra, "contractExtra")
	}
	if st.pad > 0 {
		// A body over the server's limit may be refused as a whole.
		v.extra, v.noField = append(v.extra, "contractPadding", ""), true
	}
	if len(errs) == 0 {
		v.statuses, v.accept = []int{200}, accept
		if st.unnamed || st.loose || st.pad > 0 {
			// A field the spec does not name, or a choice it leaves to the
			// server: refusing the body is a correct answer too.
			v.any4xx = true
		}
		return v
	}
	v.statuses = []int{400}
	if st.loose || st.unnamed || st.pad > 0 {
		v.any4xx = true
	}
	for _, fe := range errs {
		if !v.mayName(fe.FieldName) {
			v.fields = append(v.fields, fe.FieldName)
		}
	}
	for _, c := range st.codes {
		f, _, _ := strings.Cut(c, "=")
		if slices.Contains(v.fields, f) {
			v.codes = append(v.codes, c)
		}
	}
	slices.Sort(v.fields)
	v.fields = slices.Compact(v.fields)
	return v
}

// mayName reports whether a 400 may name f beside the offending fields:
// f is, or is below, a field of a refusal the spec leaves open.
func (v verdict) mayName(f string) bool {
	for _, x := range v.extra {
		if f == x || x != "" && strings.HasPrefix(f, x+".") {
			return true
		}
	}
	return false
}

func (e *explorer) servesVersion(v string) bool {
	return slices.Contains(e.forms, v) || (v == "v1" || v == "v1.0") && len(e.forms) == 0
}

// caller is the reference's user of a step's credentials.
func (s *seqState) caller(st step) (int64, bool) {
	a := st.actor
	switch st.cred {
	case "api-key":
		return s.ref.UserIDForAPIKey(s.apiKey[a])
	case "session-token", "session-query":
		return s.ref.UserIDForToken(s.refTok[a])
	}
	return 0, false
}

// loginVerdict: the credentials of an account open a session for it;
// any others are refused (the status of a refused login is not shown: 400
// or 401).
func (e *explorer) loginVerdict(s *seqState, st step) verdict {
	u, err := s.ref.Authenticate(st.login[0], st.login[1])
	if err != nil {
		return verdict{statuses: []int{400, 401}, anyNames: true, noField: true, rule: "5: only an account's credentials open a session"}
	}
	return verdict{statuses: []int{200}, rule: "5: an account's credentials open a session", accept: func() (*want, error) {
		sess, err := s.ref.CreateSession(u.ID)
		if err == nil {
			for name, id := range s.acctIDs {
				if id[0] == u.ID {
					s.refTok[name] = sess.Token
				}
			}
		}
		return &want{kind: "session", sess: sess, fresh: true}, err
	}}
}

// errorsOf reads a 400's array: its field names (nested names in either
// dotted or bracket form) and field=code pairs.
func errorsOf(body []byte, noField bool) (fields, codes []string, why string) {
	var arr []map[string]any
	if err := json.Unmarshal(body, &arr); err != nil {
		return nil, nil, "a 400 body that is not a JSON array of objects (7.1)"
	}
	if len(arr) == 0 {
		return nil, nil, "a 400 with an empty error array (7.1: each element names an offending field)"
	}
	for i, o := range arr {
		for _, k := range []string{"fieldName", "error", "message"} {
			s, ok := o[k].(string)
			empty := s == "" && !(k == "fieldName" && noField)
			if !ok || empty || (k == "message" && strings.TrimSpace(s) == "") {
				return nil, nil, fmt.Sprintf("element %d of the errors has the %s %v, not a non-empty string (7.1)", i, k, o[k])
			}
		}
		f := normField(o["fieldName"].(string))
		fields = append(fields, f)
		codes = append(codes, f+"="+o["error"].(string))
	}
	slices.Sort(fields)
	return slices.Compact(fields), codes, ""
}

// normField writes app[marketapp][hash] as app.marketapp.hash.
func normField(f string) string {
	f = strings.ReplaceAll(f, "][", ".")
	f = strings.ReplaceAll(f, "[", ".")
	return strings.TrimSuffix(f, "]")
}
