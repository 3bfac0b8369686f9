package pricing

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
)

// StateLimitError is a state document refused as it is read: it holds more
// than a namespace keeps. Field is the error to answer (CodeLimitReached).
type StateLimitError struct{ Field FieldError }

func (e *StateLimitError) Error() string { return e.Field.Message }

func stateLimit(field, format string, args ...any) *StateLimitError {
	return &StateLimitError{FieldError{FieldName: field, Error: CodeLimitReached, Message: fmt.Sprintf(format, args...)}}
}

// ReadState decodes a state document from r as it arrives, as strictly as
// ParseState, within the store's limits: a list longer than a namespace
// keeps (users, clients, apps, sessions), an entry with a list longer than
// that (a user's clientIds, its API keys), or more data than the Pool
// holds is refused with a *StateLimitError as soon as it is read, before
// the rest is decoded. The document is decoded entry by entry, never held
// whole, so that what an import costs is bounded by what the namespace may
// keep, whatever the document's shape: 30 MB of empty entries costs no
// more than the entries a namespace keeps.
//
// Unlike Import, which drops the oldest sessions past Limits.Sessions (a
// state file is loaded so), ReadState refuses a document with more.
func (s *Store) ReadState(r io.Reader) (State, error) {
	return readState(r, s.lim)
}

// stateFields are the members of a state document, as encoding/json
// matches them (in any case).
var stateFields = []string{"secretId", "users", "clients", "apps", "sessions", "next", "generation"}

func readState(r io.Reader, lim Limits) (State, error) {
	var st State
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	invalid := func(err error) error {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.ErrUnexpectedEOF
		}
		// %w: the reader's own error (a body past its size) stays visible.
		return fmt.Errorf("the document is not a valid state: %w", err)
	}
	tok, err := dec.Token()
	switch {
	case errors.Is(err, io.EOF):
		return st, errors.New("the document is empty, not a JSON state object")
	case err != nil:
		return st, invalid(err)
	case tok != json.Delim('{'):
		return st, invalid(fmt.Errorf("it is %s, not a JSON object", describeToken(tok)))
	}
	rd := stateReader{dec: dec, lim: lim}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return st, invalid(err)
		}
		key, _ := tok.(string)
		name := ""
		for _, f := range stateFields {
			if strings.EqualFold(key, f) {
				name = f
			}
		}
		switch name {
		case "secretId":
			err = dec.Decode(&st.SecretID)
		case "next":
			err = dec.Decode(&st.Next)
		case "generation":
			err = dec.Decode(&st.Generation)
		case "users":
			st.Users, err = readList(&rd, "users", lim.Users, rd.user)
		case "clients":
			st.Clients, err = readList(&rd, "clients", lim.Clients, func(_ int, c StateClient) error { return rd.add(c.bytes()) })
		case "apps":
			st.Apps, err = readList(&rd, "apps", lim.Apps, func(_ int, a StateApp) error { return rd.add(a.bytes()) })
		case "sessions":
			st.Sessions, err = readList(&rd, "sessions", lim.Sessions, func(_ int, ss StateSession) error { return rd.add(ss.bytes()) })
		default:
			err = fmt.Errorf("json: unknown field %q", key)
		}
		var le *StateLimitError
		if errors.As(err, &le) {
			return st, err
		}
		if err != nil {
			return st, invalid(err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return st, invalid(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			var syntax *json.SyntaxError
			if !errors.As(err, &syntax) {
				return st, fmt.Errorf("the document could not be read: %w", err)
			}
		}
		return st, errors.New("the document holds more than one JSON value")
	}
	return st, nil
}

// describeToken names a JSON token for a message.
func describeToken(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		if tok == json.Delim('[') {
			return "an array"
		}
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}

// stateReader is a state document being read: its decoder, the limits and
// what the entries read so far hold.
type stateReader struct {
	dec   *json.Decoder
	lim   Limits
	bytes int64 // the estimated size of the entries read, as the Pool counts it
	// links are the users' client ids, keys their API keys (plain or
	// hashed), so far.
	links, keys int
}

// maxLinks bounds the client ids, and apart the API keys, of all the users
// of a document: a namespace's users and clients together. The API makes
// one member per client it creates and no API key, so a state the mock
// made never comes near; a hand-written one may give a user several of
// either.
func (r *stateReader) maxLinks() int {
	users, clients := r.lim.Users, r.lim.Clients
	if users <= 0 {
		users = DefaultLimits.Users
	}
	if clients <= 0 {
		clients = DefaultLimits.Clients
	}
	return users + clients
}

// user accounts for the i-th user read.
func (r *stateReader) user(i int, u StateUser) error {
	r.links += len(u.ClientIDs)
	r.keys += len(u.APIKeys) + len(u.APIKeyHashes)
	switch max := r.maxLinks(); {
	case r.links > max:
		return stateLimit(fmt.Sprintf("users[%d].clientIds", i), "The users' clientIds add up to more than %d; a state keeps at most %d (a namespace's users and clients together).", max, max)
	case r.keys > max:
		return stateLimit(fmt.Sprintf("users[%d].apiKeys", i), "The users' API keys add up to more than %d; a state keeps at most %d (a namespace's users and clients together).", max, max)
	}
	return r.add(u.bytes())
}

// add accounts for an entry of n estimated bytes.
func (r *stateReader) add(n int64) error {
	r.bytes += n
	if r.lim.Pool != nil && r.bytes > r.lim.Pool.Max() {
		return stateLimit("", "The state holds more than the %d MiB of data the mock keeps.", r.lim.Pool.Max()>>20)
	}
	return nil
}

// entryShape bounds one entry of a state document before it is decoded:
// no list in it longer than a namespace's clients (a user's clientIds) and
// no deeper than a user's lists.
func (r *stateReader) entryShape() jsonio.Shape {
	items := r.lim.Clients
	if items <= 0 {
		items = DefaultLimits.Clients
	}
	items = max(items, 100)
	return jsonio.Shape{Depth: 2, Items: items, Values: 3 * items}
}

// readList reads one list of a state document, entry by entry: at most
// max entries (0: no bound), each within entryShape and then accounted for
// by take, which refuses it past a bound.
func readList[T any](r *stateReader, name string, max int, take func(int, T) error) ([]T, error) {
	tok, err := r.dec.Token()
	if err != nil || tok == nil { // null: no list
		return nil, err
	}
	if tok != json.Delim('[') {
		return nil, fmt.Errorf("%s is %s, not a list", name, describeToken(tok))
	}
	shape := r.entryShape()
	out := []T{}
	for i := 0; r.dec.More(); i++ {
		if max > 0 && i >= max {
			return nil, stateLimit(name, "The state holds more than %d %s; a namespace keeps at most %d.", max, name, max)
		}
		var raw json.RawMessage
		if err := r.dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", name, i, err)
		}
		if err := jsonio.CheckShape(raw, shape); err != nil {
			return nil, stateLimit(fmt.Sprintf("%s[%d]", name, i), "The entry is refused: %s (a namespace keeps at most %d clients).",
				strings.TrimPrefix(err.Error(), jsonio.ErrShape.Error()+": "), shape.Items)
		}
		var v T
		if err := jsonio.Decode(raw, &v); err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", name, i, err)
		}
		if err := take(i, v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if _, err := r.dec.Token(); err != nil { // the closing bracket
		return nil, err
	}
	return out, nil
}

// The estimated sizes of the entries of a state document, as the store
// will count them (limits.go).

func (u StateUser) bytes() int64 {
	return userBytes + 2*strBytes(u.Email) + u.UserDetails.bytes() +
		16*int64(len(u.ClientIDs)) + saltSize + 32 +
		apiKeyBytes*int64(len(u.APIKeys)+len(u.APIKeyHashes))
}

func (c StateClient) bytes() int64 {
	cl := Client(c)
	return cl.bytes()
}

func (a StateApp) bytes() int64 {
	app := App(a)
	if app.WriteKey == "" {
		app.WriteKey = "0123456789abcdef0123456789abcdef" // made on import
	}
	return app.bytes()
}

func (StateSession) bytes() int64 { return sessionBytes }
