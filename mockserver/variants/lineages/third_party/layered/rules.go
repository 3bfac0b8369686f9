package layered

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

type kind int

const (
	kString kind = iota
	kBool
	kNumber
	kObject
	kStringOrNull
	kNumberOrNull
	kAbsent // the member must not be given at all
)

// rule is one row of a declarative validation table.
type rule struct {
	Path     string // dotted path inside the body object
	Kind     kind
	Required bool
	Max      int // characters, 0 = no limit
	Min      int // characters
	Code     string
	Check    func(s *Server, v any) bool // extra format check on a non-null value
	Sub      *schema                     // for objects validated as a whole (client, app)
}

type schema struct {
	rules []rule
	cross func(s *Server, canon map[string]any, prefix string) []FieldError
}

var (
	hexAnchored   = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
	hexUnanchored = regexp.MustCompile(`[0-9a-fA-F]{40}`)
	timezoneRe    = regexp.MustCompile(`^[A-Za-z]+(?:[_-][A-Za-z]+)*(?:/[A-Za-z0-9_+\-]+)+$`)
	extensionRe   = regexp.MustCompile(`^[0-9]{1,10}$`)
)

func checkEmail(_ *Server, v any) bool {
	str := v.(string)
	a, err := mail.ParseAddress(str)
	if err != nil || a.Name != "" || a.Address != str {
		return false
	}
	at := strings.LastIndexByte(str, '@')
	return at > 0 && strings.Contains(str[at+1:], ".")
}

func checkTimezone(_ *Server, v any) bool { return timezoneRe.MatchString(v.(string)) }

func checkExtension(_ *Server, v any) bool { return extensionRe.MatchString(v.(string)) }

func checkHash(s *Server, v any) bool {
	str := v.(string)
	if str == "" { // an empty hash counts as "not given"
		return true
	}
	if s.has("marketapp-hash-regex-unanchored") {
		return hexUnanchored.MatchString(str)
	}
	return hexAnchored.MatchString(str)
}

func checkTerms(s *Server, v any) bool {
	if s.has("terms-case-insensitive") {
		return strings.EqualFold(v.(string), "I agree")
	}
	return v.(string) == "I agree"
}

func checkNonBlank(_ *Server, v any) bool { return strings.TrimSpace(v.(string)) != "" }

var appSchema = &schema{
	rules: []rule{
		{Path: "marketapp", Kind: kObject, Code: "InvalidMarketapp"},
		{Path: "marketapp.hash", Kind: kString, Code: "InvalidMarketappHash", Check: checkHash},
		{Path: "name", Kind: kStringOrNull, Max: 255, Code: "InvalidName"},
		{Path: "platform", Kind: kObject, Code: "InvalidPlatformId"},
		{Path: "platform.id", Kind: kNumberOrNull, Code: "InvalidPlatformId"},
		{Path: "nextplan", Kind: kObject, Required: true, Code: "InvalidPlanId"},
		{Path: "nextplan.id", Kind: kNumber, Required: true, Code: "InvalidPlanId"},
	},
	cross: func(s *Server, canon map[string]any, prefix string) []FieldError {
		if h, _ := lookup(canon, "marketapp.hash"); h != nil && h.(string) != "" {
			return nil
		}
		var errs []FieldError
		if n, _ := lookup(canon, "name"); n == nil || strings.TrimSpace(n.(string)) == "" {
			errs = append(errs, FieldError{prefix + "name", "InvalidName", "No app name was provided"})
		}
		if p, _ := lookup(canon, "platform.id"); p == nil {
			errs = append(errs, FieldError{prefix + "platform.id", "InvalidPlatformId", "A platform id is required when no marketapp hash is given"})
		}
		return errs
	},
}

func clientRules(withApp bool) []rule {
	r := []rule{
		{Path: "name", Kind: kString, Required: true, Max: 255, Code: "InvalidName", Check: checkNonBlank},
		{Path: "addressLine1", Kind: kString, Required: true, Max: 255, Min: 1, Code: "InvalidAddressLine1"},
		{Path: "addressLine2", Kind: kString, Max: 255, Code: "InvalidAddressLine2"},
		{Path: "addressCity", Kind: kString, Required: true, Max: 255, Min: 1, Code: "InvalidAddressCity"},
		{Path: "addressPostcode", Kind: kString, Required: true, Max: 255, Min: 1, Code: "InvalidAddressPostcode"},
		{Path: "addressCountry", Kind: kString, Required: true, Max: 255, Min: 1, Code: "InvalidAddressCountry"},
		{Path: "vat", Kind: kString, Max: 255, Code: "InvalidVat"},
		{Path: "currency", Kind: kObject, Required: true, Code: "InvalidCurrencyId"},
		{Path: "currency.id", Kind: kNumber, Required: true, Code: "InvalidCurrencyId"},
		{Path: "terms", Kind: kString, Required: true, Max: 255, Code: "InvalidTerms", Check: checkTerms},
	}
	if withApp {
		r = append(r, rule{Path: "app", Kind: kObject, Code: "InvalidApp", Sub: appSchema})
	} else {
		r = append(r, rule{Path: "app", Kind: kAbsent, Code: "InvalidApp"})
	}
	return r
}

var (
	clientCreateSchema = &schema{rules: clientRules(true)}
	clientUpdateSchema = &schema{rules: clientRules(false)}
)

func userRules(create bool) []rule {
	pw := rule{Path: "password", Kind: kStringOrNull, Required: true, Min: 6, Code: "InvalidPassword"}
	if create {
		pw.Kind = kString
	}
	return []rule{
		{Path: "email", Kind: kString, Required: true, Max: 255, Code: "InvalidEmail", Check: checkEmail},
		{Path: "firstName", Kind: kString, Required: true, Max: 255, Code: "InvalidFirstName", Check: checkNonBlank},
		{Path: "lastName", Kind: kString, Required: true, Max: 255, Code: "InvalidLastName", Check: checkNonBlank},
		{Path: "subscribeWelcome", Kind: kBool, Required: true, Code: "InvalidSubscribeWelcome"},
		{Path: "subscribeBlog", Kind: kBool, Required: true, Code: "InvalidSubscribeBlog"},
		{Path: "subscribeHowto", Kind: kBool, Required: true, Code: "InvalidSubscribeHowto"},
		{Path: "subscribeOnboarding", Kind: kBool, Required: true, Code: "InvalidSubscribeOnboarding"},
		{Path: "timezone", Kind: kString, Required: true, Max: 255, Code: "InvalidTimezone", Check: checkTimezone},
		pw,
		{Path: "phoneCountry", Kind: kObject, Code: "InvalidPhoneCountryId"},
		{Path: "phoneCountry.id", Kind: kNumber, Required: true, Code: "InvalidPhoneCountryId"},
		{Path: "phoneNumber", Kind: kString, Max: 255, Min: 1, Code: "InvalidPhoneNumber", Check: checkNonBlank},
		{Path: "phoneExtension", Kind: kStringOrNull, Code: "InvalidPhoneExtension", Check: checkExtension},
		{Path: "client", Kind: kObject, Code: "InvalidClient", Sub: clientCreateSchema},
	}
}

var (
	userUpdateSchema = &schema{rules: userRules(false)}
	userCreateSchema = &schema{rules: userRules(true)}
	sessionSchema    = &schema{rules: []rule{
		{Path: "email", Kind: kString, Required: true, Code: "InvalidEmail"},
		{Path: "password", Kind: kString, Required: true, Code: "InvalidPassword"},
	}}
)

// ruleSet adapts the rules table to the faults that edit one of its rows.
func (s *Server) ruleSet(sc *schema) []rule {
	if !s.has("subscribe-absent-defaults-false") && !s.has("lastname-row-wrong-code") && !s.has("escaped-app-key-skips-check") {
		return sc.rules
	}
	out := make([]rule, len(sc.rules))
	copy(out, sc.rules)
	for i := range out {
		if s.has("subscribe-absent-defaults-false") && strings.HasPrefix(out[i].Path, "subscribe") {
			out[i].Required = false
		}
		if s.has("lastname-row-wrong-code") && out[i].Path == "lastName" {
			out[i].Code = "InvalidFirstName"
		}
	}
	if s.has("escaped-app-key-skips-check") {
		kept := out[:0]
		for _, r := range out {
			if r.Kind != kAbsent {
				kept = append(kept, r)
			}
		}
		out = kept
	}
	return out
}

// lookup finds a dotted path in a decoded tree. present reports whether the last member exists.
func lookup(tree map[string]any, path string) (v any, present bool) {
	cur := tree
	segs := strings.Split(path, ".")
	for i, seg := range segs {
		val, ok := cur[seg]
		if !ok {
			return nil, false
		}
		if i == len(segs)-1 {
			return val, true
		}
		m, ok := val.(map[string]any)
		if !ok {
			return nil, false
		}
		cur = m
	}
	return nil, false
}

// member reads one member; with the json-keys-case-insensitive fault it folds case like encoding/json does.
func (s *Server) member(obj map[string]any, key string) (any, bool) {
	if v, ok := obj[key]; ok {
		return v, true
	}
	if s.has("json-keys-case-insensitive") {
		for k, v := range obj {
			if strings.EqualFold(k, key) {
				return v, true
			}
		}
	}
	return nil, false
}

func setPath(tree map[string]any, path string, v any) {
	segs := strings.Split(path, ".")
	cur := tree
	for _, seg := range segs[:len(segs)-1] {
		next, ok := cur[seg].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[seg] = next
		}
		cur = next
	}
	cur[segs[len(segs)-1]] = v
}

func (s *Server) strLen(str string) int {
	if s.has("max-length-counted-in-bytes") {
		return len(str)
	}
	return utf8.RuneCountInString(str)
}

// toID reads a JSON number that must be a positive integer. 1, 1.0 and 1e0 are the same number.
func (s *Server) toID(n json.Number) (int64, bool) {
	if s.has("integral-number-forms-rejected") {
		i, err := strconv.ParseInt(string(n), 10, 64)
		return i, err == nil && i > 0
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, i > 0
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || f != math.Trunc(f) || f <= 0 || f > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// validate applies a rules table to a body object. It returns a canonical tree holding only the
// known members, under their exact names, with numbers normalised, ready for DTO decoding.
func (s *Server) validate(sc *schema, body map[string]any, prefix string) (map[string]any, []FieldError) {
	canon := map[string]any{}
	var errs []FieldError
	bad := map[string]bool{} // paths already reported (skip children)
	fail := func(r rule, p string) {
		errs = append(errs, FieldError{Field: prefix + p, Code: r.Code, Message: messageFor(r.Code, prefix+p)})
		bad[p] = true
	}
	rules := s.ruleSet(sc)
	known := map[string]bool{}
	for _, r := range rules {
		known[r.Path] = true
		// locate the parent object
		segs := strings.Split(r.Path, ".")
		parent := body
		parentOK := true
		for i, seg := range segs[:len(segs)-1] {
			if bad[strings.Join(segs[:i+1], ".")] {
				parentOK = false
				break
			}
			v, ok := s.member(parent, seg)
			if !ok || v == nil {
				parent = nil
				break
			}
			m, ok := v.(map[string]any)
			if !ok {
				parentOK = false
				break
			}
			parent = m
		}
		if !parentOK {
			continue
		}
		if parent == nil && len(segs) > 1 {
			continue // absent optional parent: its children are absent too
		}
		v, present := s.member(parent, segs[len(segs)-1])
		if r.Kind == kAbsent {
			if present {
				fail(r, r.Path)
			}
			continue
		}
		if !present || (v == nil && r.Kind != kStringOrNull && r.Kind != kNumberOrNull) {
			if r.Required {
				fail(r, r.Path)
			}
			continue // null on an optional member reads as absent
		}
		if v == nil {
			setPath(canon, r.Path, nil)
			continue
		}
		switch r.Kind {
		case kString, kStringOrNull:
			str, ok := v.(string)
			if !ok || (r.Max > 0 && s.strLen(str) > r.Max) || s.strLen(str) < r.Min || (r.Check != nil && !r.Check(s, str)) {
				fail(r, r.Path)
				continue
			}
			setPath(canon, r.Path, str)
		case kBool:
			b, ok := v.(bool)
			if !ok {
				fail(r, r.Path)
				continue
			}
			setPath(canon, r.Path, b)
		case kNumber, kNumberOrNull:
			n, ok := v.(json.Number)
			if !ok {
				fail(r, r.Path)
				continue
			}
			id, ok := s.toID(n)
			if !ok {
				fail(r, r.Path)
				continue
			}
			setPath(canon, r.Path, id)
		case kObject:
			m, ok := v.(map[string]any)
			if !ok {
				fail(r, r.Path)
				continue
			}
			if r.Sub != nil {
				sub, subErrs := s.validate(r.Sub, m, prefix+r.Path+".")
				errs = append(errs, subErrs...)
				if len(subErrs) > 0 {
					bad[r.Path] = true
				}
				setPath(canon, r.Path, sub)
			} else if _, exists := canon[r.Path]; !exists {
				setPath(canon, r.Path, map[string]any{})
			}
		}
	}
	if sc.cross != nil && len(errs) == 0 {
		errs = append(errs, sc.cross(s, canon, prefix)...)
	}
	if s.has("reject-unknown-fields") {
		errs = append(errs, unknownMembers(sc, body, "", prefix, known)...)
	}
	return canon, errs
}

func unknownMembers(sc *schema, obj map[string]any, path, prefix string, known map[string]bool) []FieldError {
	var errs []FieldError
	for k, v := range obj {
		p := k
		if path != "" {
			p = path + "." + k
		}
		if !known[p] {
			errs = append(errs, FieldError{Field: prefix + p, Code: "UnknownField", Message: messageFor("UnknownField", prefix+p)})
			continue
		}
		if m, ok := v.(map[string]any); ok && !hasSub(sc, p) {
			errs = append(errs, unknownMembers(sc, m, p, prefix, known)...)
		}
	}
	return errs
}

func hasSub(sc *schema, p string) bool {
	for _, r := range sc.rules {
		if r.Path == p && r.Sub != nil {
			return true
		}
	}
	return false
}

const maxBody = 1 << 20

// readBody enforces framing rules and returns the raw bytes.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if s.has("content-type-params-rejected") {
			if ct != "application/json" {
				return nil, &StatusError{Status: http.StatusUnsupportedMediaType, Code: "UnsupportedMediaType"}
			}
		} else {
			mt, _, err := mime.ParseMediaType(ct)
			if err != nil || !(mt == "application/json" || strings.HasSuffix(mt, "+json")) {
				return nil, &StatusError{Status: http.StatusUnsupportedMediaType, Code: "UnsupportedMediaType"}
			}
		}
	}
	if s.has("chunked-body-read-as-empty") {
		if r.ContentLength <= 0 {
			return nil, nil
		}
		if r.ContentLength > maxBody {
			return nil, &StatusError{Status: http.StatusRequestEntityTooLarge, Code: "PayloadTooLarge"}
		}
		buf := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, buf); err != nil {
			return nil, &BodyError{Msg: "could not read body"}
		}
		return buf, nil
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &StatusError{Status: http.StatusRequestEntityTooLarge, Code: "PayloadTooLarge"}
		}
		return nil, &BodyError{Msg: "could not read body"}
	}
	return b, nil
}

// parseObject decodes a body into a generic tree (numbers kept as json.Number).
func parseObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &BodyError{Msg: "the body is not valid JSON"}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &BodyError{Msg: "unexpected data after the JSON value"}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &BodyError{Msg: "the body must be a JSON object"}
	}
	return m, nil
}

// decodeInto reads, validates and decodes a body into a request DTO.
func (s *Server) decodeInto(w http.ResponseWriter, r *http.Request, sc *schema, dto any, extra func(raw []byte, tree map[string]any) []FieldError) error {
	raw, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	tree, err := parseObject(raw)
	if err != nil {
		return err
	}
	canon, errs := s.validate(sc, tree, "")
	if extra != nil {
		errs = append(errs, extra(raw, tree)...)
	}
	if len(errs) > 0 {
		return &ValidationError{Errors: errs}
	}
	b, err := json.Marshal(canon)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(dto)
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

func iso(t time.Time) string { return t.UTC().Format(time.RFC3339) }
