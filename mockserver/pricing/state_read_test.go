package pricing

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// ReadState decodes what ParseState does: the export of a store, with
// members in any case, null lists and the state file's generation.
func TestReadStateAsParseState(t *testing.T) {
	s := newTestStore(t, seedOf(1))
	st := s.Export()
	st.Generation = 4
	b, _ := json.Marshal(st)
	doc := strings.Replace(string(b), `"users":`, `"Users":`, 1)
	for _, d := range []string{doc, `{"users":null,"clients":[],"apps":[],"sessions":[]}`} {
		want, err := ParseState([]byte(d))
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.ReadState(strings.NewReader(d))
		if err != nil {
			t.Fatalf("ReadState: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ReadState and ParseState differ on %.100s:\n%+v\n%+v", d, got, want)
		}
	}
	for name, d := range map[string]string{
		"empty": ``, "an array": `[]`, "unknown field": `{"userz":[]}`, "two values": `{} {}`,
		"cut": `{"users":[{"id":1}`, "unknown field of an entry": `{"users":[{"idd":1}]}`, "a list that is not": `{"users":{}}`,
	} {
		if _, err := s.ReadState(strings.NewReader(d)); err == nil {
			t.Errorf("%s: ReadState took %q", name, d)
		} else if _, perr := ParseState([]byte(d)); perr == nil {
			t.Errorf("%s: ParseState took %q that ReadState refuses (%v)", name, d, err)
		}
	}
}

// Finding "an import of many small objects takes gigabytes before it is
// refused": 30 MB of empty users took 6.2 GiB. ReadState refuses a list
// past the store's count as it reads the entry past it, an entry with a
// list longer than a namespace's clients before decoding it, and data past
// the Pool as soon as the entries read pass it, whatever follows.
func TestReadStateBounded(t *testing.T) {
	s := limitedStore(t, Limits{Users: 3, Clients: 3, Apps: 3, Sessions: 3, Pool: NewPool(64 << 10)})
	// What follows the refusal is never read: a reader that fails there.
	after := func(doc string) *failingReader { return &failingReader{doc: doc} }
	for _, tc := range []struct{ name, doc, field string }{
		{"users", `{"users":[{},{},{},{}`, "users"},
		{"clients", `{"clients":[{},{},{},{}`, "clients"},
		{"apps", `{"apps":[{},{},{},{}`, "apps"},
		{"sessions", `{"sessions":[{},{},{},{}`, "sessions"},
		{"a user's client ids", `{"users":[{"clientIds":[` + strings.Repeat("1,", 100) + `1]}`, "users[0]"},
		{"the users' client ids", `{"users":[{"clientIds":[1,2,3,4]},{"clientIds":[1,2,3]}`, "users[1].clientIds"},
		{"the users' api keys", `{"users":[{"apiKeys":["a","b","c"]},{"apiKeys":["d"],"apiKeyHashes":["e","f","g"]}`, "users[1].apiKeys"},
		{"data", `{"clients":[{"name":"` + strings.Repeat("x", 70<<10) + `"}`, ""},
	} {
		_, err := s.ReadState(after(tc.doc))
		var le *StateLimitError
		if !errors.As(err, &le) || le.Field.FieldName != tc.field || le.Field.Error != CodeLimitReached {
			t.Errorf("%s: %v, want a LimitReached on %q", tc.name, err, tc.field)
		}
	}
	// At the bounds, read.
	if _, err := s.ReadState(strings.NewReader(`{"users":[{},{},{}],"sessions":[{},{},{}]}`)); err != nil {
		t.Errorf("three of each: %v", err)
	}
}

// failingReader gives doc, then fails: ReadState must have stopped
// before it asks for more.
type failingReader struct{ doc string }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.doc == "" {
		return 0, errors.New("read past the refusal")
	}
	n := copy(p, r.doc)
	r.doc = r.doc[n:]
	return n, nil
}
