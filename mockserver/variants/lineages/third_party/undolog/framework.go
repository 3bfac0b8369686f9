package undolog

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

const maxBody = 1 << 20

// raceWindow is the pause used only by the concurrency faults.
const raceWindow = 15 * time.Millisecond

type apiError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

type Caller struct {
	UserID   int64
	ClientID int64 // primary client, 0 if none
}

// Ctx is the per-request context. Errors are collected into errs and
// rendered once by writeErrors.
type Ctx struct {
	s      *Server
	w      http.ResponseWriter
	r      *http.Request
	params map[string]string
	caller *Caller
	status int
	errs   []apiError

	raw     []byte
	bodyErr *apiError
	bodySt  int
}

func (c *Ctx) fail(status int, field, code, msg string) {
	if c.status == 0 || (c.status == http.StatusBadRequest && status != http.StatusBadRequest) {
		c.status = status
	}
	c.errs = append(c.errs, apiError{FieldName: field, Error: code, Message: msg})
}

func (c *Ctx) invalid(field, code, msg string) { c.fail(http.StatusBadRequest, field, code, msg) }

func (c *Ctx) failed() bool { return c.status != 0 }

// ---------- responses ----------

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`[{"fieldName":"","error":"InternalError","message":"encoding failed"}]`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b)
	w.Write([]byte("\n"))
}

// writeErrors is the one place errors are rendered.
func (s *Server) writeErrors(w http.ResponseWriter, status int, errs []apiError) {
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if len(errs) == 0 {
		errs = []apiError{{Error: http.StatusText(status), Message: http.StatusText(status)}}
	}
	if status == http.StatusBadRequest && s.is("validation-status-422") {
		status = http.StatusUnprocessableEntity
	}
	if status == http.StatusBadRequest && len(errs) == 1 && s.is("single-error-not-array") {
		writeJSON(w, status, errs[0])
		return
	}
	writeJSON(w, status, errs)
}

// ---------- request body ----------

// readBody reads the raw body before any lock is taken; problems are kept
// and reported after authentication, lookup and permission checks.
func (c *Ctx) readBody() {
	ct := c.r.Header.Get("Content-Type")
	if ct != "" {
		okCT := false
		if c.s.is("content-type-params-rejected") {
			okCT = ct == "application/json"
		} else if mt, _, err := mime.ParseMediaType(ct); err == nil && mt == "application/json" {
			okCT = true
		}
		if !okCT {
			c.bodySt = http.StatusUnsupportedMediaType
			c.bodyErr = &apiError{Error: "UnsupportedMediaType", Message: "request bodies must be application/json"}
			return
		}
	}
	var rd io.Reader = c.r.Body
	if rd == nil || (c.s.is("chunked-body-ignored") && c.r.ContentLength <= 0) {
		rd = strings.NewReader("")
	}
	b, err := io.ReadAll(io.LimitReader(rd, maxBody+1))
	if err != nil {
		c.bodySt = http.StatusBadRequest
		c.bodyErr = &apiError{Error: "InvalidBody", Message: "the request body could not be read"}
		return
	}
	if len(b) > maxBody {
		c.bodySt = http.StatusRequestEntityTooLarge
		c.bodyErr = &apiError{Error: "BodyTooLarge", Message: "the request body is larger than 1 MiB"}
		return
	}
	c.raw = b
}

type fields = map[string]json.RawMessage

// fields decodes the body into one raw message per member.
func (c *Ctx) fields() (fields, bool) {
	if c.bodyErr != nil {
		c.fail(c.bodySt, c.bodyErr.FieldName, c.bodyErr.Error, c.bodyErr.Message)
		return nil, false
	}
	b := bytes.TrimSpace(c.raw)
	if len(b) == 0 {
		c.invalid("", "InvalidBody", "a JSON object body is required")
		return nil, false
	}
	var m fields
	err := json.Unmarshal(b, &m)
	if err != nil {
		if c.s.is("malformed-json-500") {
			c.fail(http.StatusInternalServerError, "", "InternalError", err.Error())
			return nil, false
		}
	}
	if err != nil || b[0] != '{' {
		c.invalid("", "InvalidBody", "the body must be a JSON object")
		return nil, false
	}
	return m, true
}

// ---------- per-field decoding ----------

type presence int

const (
	absent presence = iota
	null
	given
)

type fieldReader struct {
	c      *Ctx
	f      fields
	prefix string
}

func (fr fieldReader) get(name string) (json.RawMessage, presence) {
	raw, ok := fr.f[name]
	if !ok {
		return nil, absent
	}
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return raw, null
	}
	return raw, given
}

func (fr fieldReader) bad(name, code, msg string) { fr.c.invalid(fr.prefix+name, code, msg) }

func (fr fieldReader) sub(name string, f fields) fieldReader {
	return fieldReader{c: fr.c, f: f, prefix: fr.prefix + name + "."}
}

func (c *Ctx) asString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	if c.s.is("string-escapes-not-decoded") {
		return strings.TrimSuffix(strings.TrimPrefix(string(raw), `"`), `"`), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func (c *Ctx) asBool(raw json.RawMessage) (bool, bool) {
	switch string(raw) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	if c.s.is("booleans-accept-strings") {
		switch string(raw) {
		case `"true"`:
			return true, true
		case `"false"`:
			return false, true
		}
	}
	return false, false
}

// asInt accepts any JSON number with an integral value (2, 2.0, 2e0).
func (c *Ctx) asInt(raw json.RawMessage) (int64, bool) {
	if len(raw) == 0 || !(raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
		return 0, false
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return n, true
	}
	if c.s.is("integral-float-ids-rejected") {
		return 0, false
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

func (c *Ctx) asObject(raw json.RawMessage) (fields, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var m fields
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	return m, true
}

// tooLong applies the ..255 limit of section 8.
func (c *Ctx) tooLong(s string) bool {
	n := utf8.RuneCountInString(s)
	if c.s.is("length-counted-in-bytes") {
		n = len(s)
	}
	if c.s.is("max-length-off-by-one") {
		return n > 256
	}
	return n > 255
}

// text reads a required, non-blank string of at most 255 characters.
func (fr fieldReader) text(name, code string) (string, bool) {
	raw, p := fr.get(name)
	if p == absent {
		fr.bad(name, code, name+" is required")
		return "", false
	}
	s, ok := fr.c.asString(raw)
	switch {
	case p == null || !ok:
		fr.bad(name, code, name+" must be a string")
	case strings.TrimSpace(s) == "":
		fr.bad(name, code, name+" must not be empty")
	case fr.c.tooLong(s):
		fr.bad(name, code, name+" must be at most 255 characters")
	default:
		return s, true
	}
	return "", false
}

// optText reads an optional string (..255); absent and null both give nil.
func (fr fieldReader) optText(name, code string) (val *string, p presence, ok bool) {
	raw, p := fr.get(name)
	if p != given {
		return nil, p, true
	}
	s, isStr := fr.c.asString(raw)
	if !isStr {
		fr.bad(name, code, name+" must be a string or be omitted")
		return nil, p, false
	}
	if fr.c.tooLong(s) {
		fr.bad(name, code, name+" must be at most 255 characters")
		return nil, p, false
	}
	return &s, p, true
}

func (fr fieldReader) boolean(name, code string) (bool, bool) {
	raw, p := fr.get(name)
	if p == absent {
		fr.bad(name, code, name+" is required")
		return false, false
	}
	v, ok := fr.c.asBool(raw)
	if !ok {
		fr.bad(name, code, name+" must be a boolean")
	}
	return v, ok
}

// refID reads {name: {"id": <Number>}} where the id must satisfy known.
func (fr fieldReader) refID(name, code string, known func(int64) bool) (int64, bool) {
	raw, p := fr.get(name)
	if p != given {
		fr.bad(name, code, name+" is required")
		return 0, false
	}
	obj, ok := fr.c.asObject(raw)
	if !ok {
		fr.bad(name, code, name+" must be an object")
		return 0, false
	}
	sub := fr.sub(name, obj)
	idRaw, ip := sub.get("id")
	id, ok := fr.c.asInt(idRaw)
	if ip != given || !ok || !known(id) {
		sub.bad("id", code, name+".id must be the id of a known "+name)
		return 0, false
	}
	return id, true
}

// ---------- resources ----------

// AuthFunc resolves the caller; on failure it records the error and returns false.
type AuthFunc func(c *Ctx, tx *Tx) bool

// Resource is how every endpoint is declared: hooks over a draft type T.
type Resource[T any] struct {
	Name       string
	Collection string
	Auth       map[string]AuthFunc // by action; "*" is the default

	Find        func(c *Ctx, tx *Tx, id int64) (T, bool)
	Allow       func(c *Ctx, tx *Tx, v *T) bool
	AllowCreate func(c *Ctx, tx *Tx) bool
	List        func(c *Ctx, tx *Tx) []T
	Decode      func(c *Ctx, fr fieldReader, cur *T) T
	Validate    func(c *Ctx, tx *Tx, v *T)
	BeforeWrite func(c *Ctx, v *T)
	Write       func(c *Ctx, tx *Tx, v *T, create bool)
	Render      func(c *Ctx, v *T) any
	SetID       func(v *T, id int64)
	NextID      func(tx *Tx) int64

	// switches used by faults
	validateOutsideTx bool
	loadOutsideTx     bool
	allowAfterWrite   bool
	allocOutsideTx    bool
}

type endpoint interface {
	serve(c *Ctx, action string)
}

func (res *Resource[T]) authFor(action string) AuthFunc {
	if f, ok := res.Auth[action]; ok {
		return f
	}
	return res.Auth["*"]
}

func (res *Resource[T]) serve(c *Ctx, action string) {
	if auth := res.authFor(action); auth != nil {
		rtx := c.s.store.Read()
		ok := auth(c, rtx)
		rtx.Commit()
		if !ok {
			return
		}
	}
	switch action {
	case "list":
		tx := c.s.store.Read()
		items := res.List(c, tx)
		out := make([]any, 0, len(items))
		for i := range items {
			out = append(out, res.Render(c, &items[i]))
		}
		tx.Commit()
		writeJSON(c.w, http.StatusOK, map[string]any{res.Collection: out})
	case "get":
		id, ok := c.idParam()
		if !ok {
			c.fail(http.StatusNotFound, "", "NotFound", res.Name+" not found")
			return
		}
		tx := c.s.store.Read()
		defer tx.Commit()
		v, ok := res.find(c, tx, id)
		if !ok || !res.allow(c, tx, &v) {
			return
		}
		writeJSON(c.w, http.StatusOK, res.Render(c, &v))
	case "create", "update":
		res.change(c, action == "create")
	}
}

func (c *Ctx) idParam() (int64, bool) {
	var s string
	for _, v := range c.params {
		s = v
	}
	if s == "" || s[0] < '1' || s[0] > '9' || len(s) > 18 {
		return 0, false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

func (res *Resource[T]) find(c *Ctx, tx *Tx, id int64) (T, bool) {
	v, ok := res.Find(c, tx, id)
	if !ok && !c.failed() {
		c.fail(http.StatusNotFound, "", "NotFound", res.Name+" not found")
	}
	return v, ok && !c.failed()
}

func (res *Resource[T]) allow(c *Ctx, tx *Tx, v *T) bool {
	if res.Allow(c, tx, v) {
		return true
	}
	if c.s.is("foreign-resource-404") {
		c.fail(http.StatusNotFound, "", "NotFound", res.Name+" not found")
	} else {
		c.fail(http.StatusForbidden, "", "Forbidden", "you may not view or modify this "+res.Name)
	}
	return false
}

// change runs create and update: find, allow, decode, validate, beforeWrite, write.
func (res *Resource[T]) change(c *Ctx, create bool) {
	c.readBody()
	var id int64
	if !create {
		var ok bool
		if id, ok = c.idParam(); !ok {
			c.fail(http.StatusNotFound, "", "NotFound", res.Name+" not found")
			return
		}
	}
	var in T
	load := func(tx *Tx) bool {
		var cur *T
		if create {
			if res.AllowCreate != nil && !res.AllowCreate(c, tx) {
				c.fail(http.StatusForbidden, "", "Forbidden", "you may not create this "+res.Name)
				return false
			}
		} else {
			v, ok := res.find(c, tx, id)
			if !ok {
				return false
			}
			if !res.allowAfterWrite && !res.allow(c, tx, &v) {
				return false
			}
			cur = &v
		}
		f, ok := c.fields()
		if !ok {
			return false
		}
		in = res.Decode(c, fieldReader{c: c, f: f}, cur)
		return !c.failed()
	}
	validate := func(tx *Tx) bool {
		if res.Validate != nil {
			res.Validate(c, tx, &in)
		}
		return !c.failed()
	}
	write := func(tx *Tx) bool {
		if res.BeforeWrite != nil {
			res.BeforeWrite(c, &in)
		}
		res.Write(c, tx, &in, create)
		return !c.failed()
	}
	finish := func(tx *Tx, ok bool) {
		if !ok {
			tx.Rollback()
			return
		}
		tx.Commit()
		if res.allowAfterWrite && !create {
			rtx := c.s.store.Read()
			allowed := res.allow(c, rtx, &in)
			rtx.Commit()
			if !allowed {
				return
			}
		}
		writeJSON(c.w, http.StatusOK, res.Render(c, &in))
	}

	switch {
	case res.loadOutsideTx:
		rtx := c.s.store.Read()
		ok := load(rtx)
		rtx.Commit()
		if !ok {
			return
		}
		time.Sleep(raceWindow)
		tx := c.s.store.Begin()
		finish(tx, validate(tx) && write(tx))
	case res.validateOutsideTx:
		rtx := c.s.store.Read()
		ok := load(rtx) && validate(rtx)
		rtx.Commit()
		if !ok {
			return
		}
		time.Sleep(raceWindow)
		tx := c.s.store.Begin()
		finish(tx, write(tx))
	case res.allocOutsideTx && create:
		rtx := c.s.store.Read()
		next := res.NextID(rtx)
		rtx.Commit()
		time.Sleep(raceWindow)
		tx := c.s.store.Begin()
		ok := load(tx) && validate(tx)
		if ok {
			res.SetID(&in, next)
		}
		finish(tx, ok && write(tx))
	default:
		tx := c.s.store.Begin()
		finish(tx, load(tx) && validate(tx) && write(tx))
	}
}

// createIn runs the create hooks of res inside an open transaction, for a
// nested body (client inside a user, app inside a client).
func createIn[T any](res *Resource[T], c *Ctx, tx *Tx, f fields, prefix string, init func(*T)) bool {
	in := res.Decode(c, fieldReader{c: c, f: f, prefix: prefix}, nil)
	if init != nil {
		init(&in)
	}
	if c.failed() {
		return false
	}
	if res.Validate != nil {
		res.Validate(c, tx, &in)
		if c.failed() {
			return false
		}
	}
	if res.BeforeWrite != nil {
		res.BeforeWrite(c, &in)
	}
	res.Write(c, tx, &in, true)
	return !c.failed()
}

// ---------- routing ----------

type route struct {
	method  string
	pattern string
	res     endpoint
	action  string
}

func matchPattern(pattern, path string) (map[string]string, bool) {
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(ps) != len(xs) {
		return nil, false
	}
	params := map[string]string{}
	for i, p := range ps {
		if strings.HasPrefix(p, ":") {
			if xs[i] == "" {
				return nil, false
			}
			params[p[1:]] = xs[i]
			continue
		}
		if p != xs[i] {
			return nil, false
		}
	}
	return params, true
}
