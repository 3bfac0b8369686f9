// Package snapshots is a pricing-service API server whose state is an
// immutable snapshot swapped atomically by a single writer.
package snapshots

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineage"
)

// Account is one login of the seed: a user with its own client.
type Account = lineage.Account

// Options configures New. Pairs is how many pairs of accounts to seed: 0
// means 1; at most 1000. Fault must be empty: this lineage has no faults.
type Options = lineage.Options

// basePath serves only the "v1.0" spelling of the one available version.
const basePath = "/pricing/v1.0"

// Server is the API. It is safe for concurrent use.
type Server struct {
	cat      *catalog
	cur      atomic.Pointer[state]
	mu       sync.Mutex // serialises writers; readers never take it
	accounts [][2]Account
	clock    func() time.Time
}

// New seeds a server with opts.Pairs pairs of accounts.
func New(opts Options) (*Server, error) {
	if opts.Fault != "" {
		return nil, fmt.Errorf("snapshots: unknown fault %q (this lineage has none)", opts.Fault)
	}
	if opts.Pairs < 0 || opts.Pairs > 1000 {
		return nil, fmt.Errorf("snapshots: Pairs must be between 0 and 1000, got %d", opts.Pairs)
	}
	pairs := opts.Pairs
	if pairs == 0 {
		pairs = 1
	}
	cat, st, accts := seed(pairs)
	s := &Server{cat: cat, accounts: accts, clock: time.Now}
	s.cur.Store(st)
	return s, nil
}

// BasePath is the path part of the API's base URL, version segment included.
func (s *Server) BasePath() string { return basePath }

// Accounts returns the seeded pairs.
func (s *Server) Accounts() [][2]Account { return slices.Clone(s.accounts) }

// write runs fn on a private copy of the current state while holding the
// writer lock, and publishes the copy only if fn succeeds. A refused
// request therefore changes nothing, and every write sees every earlier one.
func (s *Server) write(fn func(st *state, now time.Time) (any, *failure)) (any, *failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := *s.cur.Load()
	out, f := fn(&next, stamp(s.clock()))
	if f != nil {
		return nil, f
	}
	s.cur.Store(&next)
	return out, nil
}

type handlerFunc func(w http.ResponseWriter, r *http.Request, param string)

// route returns the handlers of the path below the base path, by method.
func (s *Server) route(rest string) (map[string]handlerFunc, string, bool) {
	if rest == "" || rest == "/" {
		return map[string]handlerFunc{http.MethodGet: s.handleIndex}, "", true
	}
	raw := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	segs := make([]string, len(raw))
	for i, r := range raw {
		u, err := url.PathUnescape(r)
		if err != nil || u == "" {
			return nil, "", false
		}
		segs[i] = u
	}
	if len(segs) == 1 {
		switch segs[0] {
		case "sessions":
			return map[string]handlerFunc{http.MethodPost: s.handleLogin}, "", true
		case "users":
			return map[string]handlerFunc{http.MethodPost: s.handleCreateUser}, "", true
		case "clients":
			return map[string]handlerFunc{http.MethodGet: s.handleListClients, http.MethodPost: s.handleCreateClient}, "", true
		case "apps":
			return map[string]handlerFunc{http.MethodGet: s.handleListApps, http.MethodPost: s.handleCreateApp}, "", true
		case "platforms":
			return map[string]handlerFunc{http.MethodGet: s.handlePlatforms}, "", true
		case "currencies":
			return map[string]handlerFunc{http.MethodGet: s.handleCurrencies}, "", true
		case "subscription-plans":
			return map[string]handlerFunc{http.MethodGet: s.handlePlans}, "", true
		case "phone-countries":
			return map[string]handlerFunc{http.MethodGet: s.handlePhoneCountries}, "", true
		}
	}
	if len(segs) == 2 {
		switch segs[0] {
		case "users":
			return map[string]handlerFunc{http.MethodPut: s.handleUpdateUser}, segs[1], true
		case "clients":
			return map[string]handlerFunc{http.MethodPut: s.handleUpdateClient}, segs[1], true
		}
	}
	return nil, "", false
}

func allowHeader(h map[string]handlerFunc) string {
	var ms []string
	for m := range h {
		ms = append(ms, m)
	}
	if h[http.MethodGet] != nil {
		ms = append(ms, http.MethodHead)
	}
	ms = append(ms, http.MethodOptions)
	slices.Sort(ms)
	return strings.Join(ms, ", ")
}

// ServeHTTP routes a request. Checks run in a fixed order: path (404),
// method (405), Accept (406), then the endpoint's own checks.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			// Last resort only: no client input is meant to get here.
			writeBare(w, http.StatusInternalServerError)
		}
	}()
	w.Header().Set("Cache-Control", "no-store")
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), basePath)
	if !ok || (rest != "" && rest[0] != '/') {
		writeBare(w, http.StatusNotFound)
		return
	}
	handlers, param, ok := s.route(rest)
	if !ok {
		writeBare(w, http.StatusNotFound)
		return
	}
	method := r.Method
	if method == http.MethodOptions {
		w.Header().Set("Allow", allowHeader(handlers))
		writeBare(w, http.StatusNoContent)
		return
	}
	if method == http.MethodHead && handlers[http.MethodGet] != nil {
		method = http.MethodGet
	}
	h := handlers[method]
	if h == nil {
		w.Header().Set("Allow", allowHeader(handlers))
		writeBare(w, http.StatusMethodNotAllowed)
		return
	}
	if !acceptsJSON(r.Header.Values("Accept")) {
		writeBare(w, http.StatusNotAcceptable)
		return
	}
	h(w, r, param)
}

// acceptsJSON reports whether the Accept headers admit application/json.
// No Accept header admits anything.
func acceptsJSON(vals []string) bool {
	seen := false
	for _, v := range vals {
		for _, part := range strings.Split(v, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			seen = true
			mt, params, err := mime.ParseMediaType(part)
			if err != nil {
				continue
			}
			if q, ok := params["q"]; ok && strings.Trim(q, "0.") == "" {
				continue
			}
			switch mt {
			case "*/*", "application/*", "application/json":
				return true
			}
		}
	}
	return !seen
}

// jsonContentType requires application/json, in UTF-8 if a charset is named.
func jsonContentType(vals []string) bool {
	if len(vals) != 1 {
		return false
	}
	mt, params, err := mime.ParseMediaType(vals[0])
	if err != nil || mt != "application/json" {
		return false
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return false
	}
	return true
}

// readObject reads and parses a JSON object body: 415 for another media
// type, 413 beyond the size limit, 400 for anything that is not an object.
func readObject(w http.ResponseWriter, r *http.Request) (map[string]any, *failure) {
	if !jsonContentType(r.Header.Values("Content-Type")) {
		return nil, fail(http.StatusUnsupportedMediaType)
	}
	body := http.MaxBytesReader(w, r.Body, maxBodyBytes)
	buf, err := io.ReadAll(body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, fail(http.StatusRequestEntityTooLarge)
		}
		return nil, badRequest("", "InvalidJson", "the body could not be read")
	}
	v, err := decodeJSON(buf)
	if err != nil {
		return nil, badRequest("", "InvalidJson", err.Error())
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, badRequest("", "InvalidBody", "the body must be a JSON object")
	}
	return o, nil
}
