package pricing

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"
)

// storedCatalogues are the valid values of each id of a body, from the
// store's catalogues: a new Number field needs its own here.
var storedCatalogues = map[string]func(s *Store) []int64{
	"phoneCountry.id": func(s *Store) []int64 {
		return catalogueIDs(s.PhoneCountries(), func(c PhoneCountry) int64 { return c.ID })
	},
	"currency.id": func(s *Store) []int64 { return catalogueIDs(s.Currencies(), func(c Currency) int64 { return c.ID }) },
	"platform.id": func(s *Store) []int64 { return catalogueIDs(s.Platforms(), func(p Platform) int64 { return p.ID }) },
	"nextplan.id": func(s *Store) []int64 { return catalogueIDs(s.Plans(), func(p Plan) int64 { return p.ID }) },
}

func catalogueIDs[T any](items []T, id func(T) int64) []int64 {
	out := make([]int64, 0, len(items))
	for _, it := range items {
		out = append(out, id(it))
	}
	return out
}

// storedStateNames are the members of the state document (state.go) that
// hold a body field whose name there is not its path run together
// ("phoneCountry.id": "phoneCountryId").
var storedStateNames = map[string]string{
	"nextplan.id": "planId", // the plan the app is on (4.2)
}

// stateName is the member of the state document that holds the body field.
func stateName(path string) string {
	if n, ok := storedStateNames[path]; ok {
		return n
	}
	parts := strings.Split(path, ".")
	for i := 1; i < len(parts); i++ {
		r := []rune(parts[i])
		r[0] = unicode.ToUpper(r[0])
		parts[i] = string(r)
	}
	return strings.Join(parts, "")
}

// storedValue is a valid value of the field, a different one in each
// round: at the limit in round 0, within it in round 1. ok is false when
// the test knows no valid value of the field.
func storedValue(s *Store, f Field, round int) (v any, ok bool) {
	switch f.Type {
	case TypeBoolean:
		return round == 0, true
	case TypeNumber:
		ids := storedCatalogues[f.Path]
		if ids == nil || len(ids(s)) < 2 {
			return nil, false
		}
		return json.Number(fmt.Sprint(ids(s)[round])), true
	case TypeString:
	default:
		return nil, false
	}
	switch {
	case f.Form == FormHex:
		apps := s.Marketapps()
		if len(apps) < 2 {
			return nil, false
		}
		return apps[round].Hash, true
	case f.Max > 0:
		return sample(f, f.Max-round), true
	case f.Min > 0:
		return sample(f, f.Min+round), true
	case f.Form == FormUnstated:
		return strings.Repeat("7", 3+round), true // digits: the form of a phone's extension
	}
	return sample(f, 10+round), true
}

// storedCase is one request whose body a test fills from a table: the
// fields it leaves out (those another field stands for), how it is
// validated and applied, and the state it is read back from.
type storedCase struct {
	endpoint string
	table    *Table
	leaveOut []string
	// apply validates and applies body to s and returns the state's member
	// of the resource, or the errors.
	apply func(s *Store, b Body) (map[string]any, error)
}

// stateOf is the resource of the state document with the id, as JSON.
func stateOf[T any](items []T, id func(T) int64, want int64) (map[string]any, error) {
	for _, it := range items {
		if id(it) == want {
			raw, err := json.Marshal(it)
			if err != nil {
				return nil, err
			}
			var m map[string]any
			d := json.NewDecoder(strings.NewReader(string(raw)))
			d.UseNumber()
			return m, d.Decode(&m)
		}
	}
	return nil, fmt.Errorf("the state has no resource %d", want)
}

func invalid(errs []FieldError) error {
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("refused: %v", codes(errs))
}

// applied is a case's apply: body validated by validate and, when valid,
// written by write; read is the state's member of what write made.
func applied[In, R any](validate func(Validator, Body) (In, []FieldError), write func(*Store, In) (R, error), read func(*Store, R) (map[string]any, error)) func(*Store, Body) (map[string]any, error) {
	return func(s *Store, b Body) (map[string]any, error) {
		in, errs := validate(s.Validator(), b)
		if errs != nil {
			return nil, invalid(errs)
		}
		r, err := write(s, in)
		if err != nil {
			return nil, err
		}
		return read(s, r)
	}
}

func storedUser(s *Store, u User) (map[string]any, error) {
	return stateOf(s.Export().Users, func(u StateUser) int64 { return u.ID }, u.ID)
}

func storedClient(s *Store, c Client) (map[string]any, error) {
	return stateOf(s.Export().Clients, func(c StateClient) int64 { return c.ID }, c.ID)
}

func storedApp(s *Store, a App) (map[string]any, error) {
	return stateOf(s.Export().Apps, func(a StateApp) int64 { return a.ID }, a.ID)
}

var storedCases = []storedCase{
	{"PUT /users/:userId", UserBody, nil, applied(
		func(v Validator, b Body) (UserInput, []FieldError) { return v.UserUpdate(b, 1) },
		func(s *Store, in UserInput) (User, error) { return s.UpdateUser(1, in) }, storedUser)},
	{"POST /users", UserBody, nil, applied(Validator.UserCreate, (*Store).CreateUser, storedUser)},
	{"POST /clients", ClientBody, nil, applied(Validator.ClientCreate,
		func(s *Store, in ClientInput) (Client, error) { return s.CreateClient(1, in) }, storedClient)},
	{"PUT /clients/:clientId", ClientBody, nil, applied(Validator.ClientUpdate,
		func(s *Store, in ClientInput) (Client, error) { return s.UpdateClient(1, in) }, storedClient)},
	// 4.2: with a marketplace app's hash the app takes the marketplace
	// app's name and platform, so that each way is a body of its own.
	{"POST /apps (a hash)", AppBody, []string{"name", "platform"}, applyApp},
	{"POST /apps (a name and a platform)", AppBody, []string{"marketapp"}, applyApp},
}

var applyApp = applied(Validator.App, func(s *Store, in AppInput) (App, error) { return s.CreateApp(1, in) }, storedApp)

// leftOut reports whether the case leaves the field out.
func (c storedCase) leftOut(f Field) bool {
	for _, p := range c.leaveOut {
		if f.Path == p || strings.HasPrefix(f.Path, p+".") {
			return true
		}
	}
	// A body of its own (the client of PUT /users, the app of POST
	// /clients) is a resource of its own; a literal (the terms) carries
	// nothing to store.
	return f.Sub != nil || f.Form == FormLiteral
}

// storedNames and storedWhere name each body table and where its fields
// are stored, for the messages.
var (
	storedNames = map[*Table]string{UserBody: "UserBody", ClientBody: "ClientBody", AppBody: "AppBody"}
	storedWhere = map[*Table]string{
		UserBody:   "UserDetails in store_users.go (with its clone and bytes) and applyInput",
		ClientBody: "Client in store_clients.go (with its copy, bytes and apply) and StateClient in state.go",
		AppBody:    "App and AppInput in store_apps.go and StateApp in state.go",
	}
)

// brief shows a value sent or stored, a long one by its length.
func brief(v any) string {
	if v == nil {
		return "null"
	}
	if r := []rune(fmt.Sprint(v)); len(r) > 24 {
		return fmt.Sprintf("%d characters %q…", len(r), string(r[:12]))
	}
	return fmt.Sprintf("%q", fmt.Sprint(v))
}

// TestBodyFieldsAreStored: for each row of each body table of fields.go,
// a request whose body has a valid value of it (at the limit, then within
// it) stores that value: the store's state document (state.go) reads it
// back unchanged, and a password logs in. A field that validation checks
// and the store then drops (one missing from UserDetails, Client or App,
// their copies, or applyInput) fails here, not only in a scenario.
func TestBodyFieldsAreStored(t *testing.T) {
	n := 0
	defer func() {
		if n < 80 {
			t.Errorf("%d values checked; the test lost its tables", n)
		}
	}()
	for _, c := range storedCases {
		s := newTestStore(t, seedOf(1))
		for round := range 2 {
			body, checked := storedBody(t, s, c, round)
			if body == nil {
				continue
			}
			where := storedNames[c.table] + " (" + c.table.Name + ")"
			got, err := c.apply(s, body)
			if err != nil {
				t.Errorf("%s, %s, round %d: %v: the values of storedValue in mockserver/pricing/stored_test.go are not valid", where, c.endpoint, round, err)
				continue
			}
			for _, f := range checked {
				n++
				want := mustGet(body, f.Path)
				if f.Path == "password" {
					if _, err := s.Authenticate(fmt.Sprint(got["email"]), fmt.Sprint(want)); err != nil {
						t.Errorf("%s, field password: the password %s sent does not log in (%v): it was validated, not stored: see %s",
							where, c.endpoint, err, storedWhere[c.table])
					}
					continue
				}
				name := stateName(f.Path)
				v, ok := got[name]
				switch {
				case !ok:
					t.Errorf("%s, field %s: the state document has no member %s after %s: the value is validated, then dropped: store it in %s",
						where, f.Path, name, c.endpoint, storedWhere[c.table])
				case fmt.Sprint(v) != fmt.Sprint(want):
					t.Errorf("%s, field %s: %s sent %s (round %d), the state document has %s (member %s): the value is validated, then not stored as sent: see %s",
						where, f.Path, c.endpoint, brief(want), round, brief(v), name, storedWhere[c.table])
				}
			}
		}
	}
}

// storedBody is the case's body of the round and the fields it checks.
func storedBody(t *testing.T, s *Store, c storedCase, round int) (Body, []Field) {
	t.Helper()
	b := Body{}
	var checked []Field
	for _, f := range c.table.Fields {
		if c.leftOut(f) && f.Form != FormLiteral {
			continue
		}
		keys := strings.Split(f.Path, ".")
		m := b
		for _, k := range keys[:len(keys)-1] {
			m = m[k].(map[string]any)
		}
		if f.Type == TypeObject {
			m[keys[len(keys)-1]] = map[string]any{}
			continue
		}
		if f.Form == FormLiteral {
			m[keys[len(keys)-1]] = "I agree" // 4.3: the terms' one value
			continue
		}
		v, ok := storedValue(s, f, round)
		if !ok {
			t.Errorf("%s (%s), field %s: the test knows no two valid values of it for %s: add them to storedValue or storedCatalogues in mockserver/pricing/stored_test.go",
				storedNames[c.table], c.table.Name, f.Path, c.endpoint)
			return nil, nil
		}
		m[keys[len(keys)-1]] = v
		checked = append(checked, f)
	}
	return b, checked
}

// mustGet is the value at the dotted path of b.
func mustGet(b Body, path string) any {
	var v any = map[string]any(b)
	for _, k := range strings.Split(path, ".") {
		v = v.(map[string]any)[k]
	}
	return v
}
