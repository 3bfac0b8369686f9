package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The first stage: a sequence is data. A Step holds everything of one
// request (the operation, the account, the credential, the path, the body
// before and after the operators, its wire form), so that the target, the
// reference and the reproducer all read the same request, and shrinking can
// drop a step or an operator and send the rest again.

// Op is an operation of the spec.
type Op string

// The operations a sequence draws from.
const (
	OpPutUser    Op = "PUT /users/:userId"
	OpPutClient  Op = "PUT /clients/:clientId"
	OpPostClient Op = "POST /clients"
	OpPostApp    Op = "POST /apps"
	OpLogin      Op = "POST /sessions"
	OpPlatforms  Op = "GET platforms"
)

// Ops are the operations, in the order of the reports.
var Ops = []Op{OpPutUser, OpPutClient, OpPostClient, OpPostApp, OpLogin, OpPlatforms}

func (op Op) Method() string {
	switch op {
	case OpPutUser, OpPutClient:
		return "PUT"
	case OpPlatforms:
		return "GET"
	}
	return "POST"
}

func (op Op) HasBody() bool { return op != OpPlatforms }

// Authenticated: the operation needs credentials (5).
func (op Op) Authenticated() bool { return op != OpLogin && op != OpPlatforms }

// Mutation is one operator applied to one field of a body.
type Mutation struct {
	Field  string // the body path: client.app.name
	Op     string // the operator's name
	Value  any    // the value set
	Remove bool   // the field taken out
	// Alt is the value a lenient reading of Value takes (1.0 read as 1),
	// which a correct server may store instead of refusing Value; nil:
	// none.
	Alt any
	// Shape is the kind of input the value is: its JSON with the run's
	// unique words blanked, so that two draws of one operator that differ
	// only by them are the same kind (a held choice's key).
	Shape string
}

// Cred is how a request authenticates: a scheme of section 5 (api-key,
// session-token, session-query) or none, and the operator applied to it
// ("" the scheme as the spec writes it).
type Cred struct {
	Scheme string
	Op     string
}

// Step is one request of a sequence.
type Step struct {
	Op    Op
	Actor string // A or B
	Cred  Cred
	// Path is the path operator of a PUT (own, other, unknown, ...), and
	// PathID the id it sends where it is a literal ("" none).
	Path, PathID string
	Version      string // the version segment; "" the base URL's
	// Base is the body before the operators: the reference's entity, a
	// new entity's body, or the login's credentials.
	Base map[string]any
	Muts []Mutation
	// Wire is the body's wire operator ("" compact JSON), ContentType its
	// Content-Type ("" application/json), Accept the Accept header (""
	// none), Chunked: the body sent with no Content-Length (RFC 9112 7.1).
	Wire, ContentType, Accept string
	Chunked                   bool
	// Login: the email and password of POST /sessions as templates, the
	// accounts' values written {{A.email}}, {{A.password}}, so that the
	// reproducer names them as the suite does.
	Login [2]string
	// Note says what was drawn, for the reason line.
	Note string
	// Recorded names the recorded request the step replays
	// (pricing-contract replay: "recorded request 7, PUT /v1/users/1"); ""
	// for a step the explorer drew. It labels the clients the step makes,
	// which a later step's path names by it (Path "created", PathID the
	// label), and the reason line and the reproducer name it.
	Recorded string
	// Cells are the cells of the catalogue the step exercises, as drawn.
	Cells []Cell
	// Filled in when sent: the path as sent (below the base URL) and as
	// the reproducer writes it, and the reproducer's variables of the
	// session tokens of the actor and of the other account.
	Sent              string
	GherkinPath       Text
	Token, OtherToken Var
}

// Body is the step's body as a value: Base with the mutations.
func (s Step) Body() map[string]any {
	if s.Base == nil {
		return nil
	}
	b := DeepCopy(s.Base).(map[string]any)
	for _, m := range s.Muts {
		SetPath(b, m.Field, m.Value, m.Remove)
	}
	return b
}

// AltBody is the body as a lenient server reads it: each mutation with an
// Alt takes it. ok is false when no mutation has one.
func (s Step) AltBody() (map[string]any, bool) {
	b, alt := DeepCopy(s.Base).(map[string]any), false
	for _, m := range s.Muts {
		if m.Alt != nil {
			SetPath(b, m.Field, m.Alt, false)
			alt = true
			continue
		}
		SetPath(b, m.Field, m.Value, m.Remove)
	}
	return b, alt
}

// Mutated reports whether the step's operators touch field (or a field
// above or below it).
func (s Step) Mutated(path string) bool {
	for _, m := range s.Muts {
		if m.Field == path || strings.HasPrefix(path, m.Field+".") || strings.HasPrefix(m.Field, path+".") {
			return true
		}
	}
	return false
}

// formOnly reports whether the step's one change of path sends the value
// the body held in another form: every character a \u escape (RFC 8259
// 7), or the account's own email in capitals (the same mailbox, which 4.1
// lets a user set): still the target's own where it took it before.
func (s Step) formOnly(path string) bool {
	for _, m := range s.Muts {
		if m.Field != path {
			continue
		}
		base, ok := GetPath(s.Base, path)
		text, isText := PlainValue(base).(string)
		switch v := m.Value.(type) {
		case Escaped:
			return ok && isText && text == string(v)
		case string:
			return ok && isText && m.Op == opOwnEmailInCapitals && strings.EqualFold(text, v)
		}
		return false
	}
	return false
}

// CopyBody is a deep copy of a JSON object as encoding/json decodes it.
func CopyBody(b map[string]any) map[string]any { return DeepCopy(b).(map[string]any) }

func DeepCopy(v any) any { return copiedWith(v, func(leaf any) any { return leaf }) }

// copiedWith is v with its objects and arrays copied, each other value as
// leaf makes it.
func copiedWith(v any, leaf func(any) any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = copiedWith(e, leaf)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copiedWith(e, leaf)
		}
		return out
	}
	return leaf(v)
}

// SetPath sets (or removes) the value at a dotted path, making the objects
// on the way; a path through a value that is no object is left alone.
func SetPath(b map[string]any, path string, v any, remove bool) {
	head, rest, nested := strings.Cut(path, ".")
	if !nested {
		if remove {
			delete(b, head)
		} else {
			b[head] = DeepCopy(v)
		}
		return
	}
	next, ok := b[head].(map[string]any)
	if !ok {
		if _, there := b[head]; there && b[head] != nil || remove {
			return
		}
		next = map[string]any{}
		b[head] = next
	}
	SetPath(next, rest, v, remove)
}

// GetPath is the value at a dotted path.
func GetPath(b map[string]any, path string) (any, bool) {
	head, rest, nested := strings.Cut(path, ".")
	v, ok := b[head]
	if !ok || !nested {
		return v, ok
	}
	next, isObj := v.(map[string]any)
	if !isObj {
		return nil, false
	}
	return GetPath(next, rest)
}

// opOwnEmailInCapitals is the operator of the caller's own email in
// capital letters.
const opOwnEmailInCapitals = "email-own-in-capitals"

// Escaped is a string a body writes with every character as a \u escape
// (RFC 8259 7): the same value on the wire in another form.
type Escaped string

// The wire operators of a whole body.
const (
	WirePretty    = "pretty"          // whitespace between every token and around the value (RFC 8259 2)
	WireReordered = "reordered"       // the members in another order (RFC 8259 4)
	WireEscapes   = "escaped-unicode" // non-ASCII characters and some letters as \u escapes (RFC 8259 7)
	WireSolidus   = "escaped-solidus" // every / as \/ (RFC 8259 7)
	WireDuplicate = "duplicate-key"   // a member written twice with the same value
	WireUnnamed   = "unnamed-field"   // a member the spec does not name
	WireNotJSON   = "not-json"
	WireArray     = "array"
	WireScalar    = "scalar"
	WireNull      = "null-body" // the JSON text null: no object, and nothing to read fields from
	WireEmpty     = "empty-body"
	WireDeep      = "deep-nesting" // 5000 nested arrays, under 64 KiB
	WireLarge     = "large-body"   // a member the spec does not name, of 1 MiB
)

// LargePad is the size of the WireLarge member.
const LargePad = 1 << 20

// RawWire reports whether a wire operator replaces the body by text that
// is no JSON object.
func RawWire(w string) bool {
	switch w {
	case WireNotJSON, WireArray, WireScalar, WireNull, WireEmpty, WireDeep:
		return true
	}
	return false
}

// Encode is the step's body as sent.
func (s Step) Encode() string {
	b := s.Body()
	switch s.Wire {
	case WireNotJSON:
		return `{"` + FirstKey(b) + `": `
	case WireArray:
		return `["not", "an", "object"]`
	case WireScalar:
		return `"an object was expected"`
	case WireNull:
		return "null"
	case WireEmpty:
		return ""
	case WireDeep:
		return `{"` + FirstKey(b) + `": ` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}"
	}
	if b == nil {
		return ""
	}
	e := encoder{reorder: s.Wire == WireReordered, pretty: s.Wire == WirePretty, escapeAll: s.Wire == WireEscapes, solidus: s.Wire == WireSolidus}
	if s.Wire == WireDuplicate {
		e.duplicate = FirstKey(b)
	}
	e.value(b, 0)
	out := e.String()
	switch s.Wire {
	case WirePretty:
		// Before and after the value too (RFC 8259 2: ws value ws): a
		// reader that wants the first byte to be { takes no JSON text.
		out = "\n" + out + "\n"
	case WireUnnamed:
		out = strings.TrimSuffix(out, "}") + `,"contractExtra":"x"}`
	case WireLarge:
		out = strings.TrimSuffix(out, "}") + `,"contractPadding":"` + strings.Repeat("x", LargePad) + `"}`
	}
	return out
}

// FirstKey is the first member of a body in key order.
func FirstKey(b map[string]any) string {
	keys := make([]string, 0, len(b))
	for k := range b {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "firstName"
	}
	return keys[0]
}

// encoder writes JSON with the wire operators' forms.
type encoder struct {
	bytes.Buffer
	reorder, pretty, escapeAll, solidus bool
	duplicate                           string // a top-level member written twice
}

func (e *encoder) newline(depth int) {
	if e.pretty {
		e.WriteString("\n" + strings.Repeat("\t", depth))
	}
}

func (e *encoder) value(v any, depth int) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if e.reorder {
			for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
		if depth == 0 && e.duplicate != "" {
			if _, ok := x[e.duplicate]; ok {
				keys = append([]string{e.duplicate}, keys...)
			}
		}
		e.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				e.WriteByte(',')
			}
			e.newline(depth + 1)
			e.str(k, e.escapeAll)
			e.WriteByte(':')
			if e.pretty {
				e.WriteByte(' ')
			}
			e.value(x[k], depth+1)
		}
		if len(keys) > 0 {
			e.newline(depth)
		}
		e.WriteByte('}')
	case []any:
		e.WriteByte('[')
		for i, el := range x {
			if i > 0 {
				e.WriteByte(',')
			}
			e.value(el, depth+1)
		}
		e.WriteByte(']')
	case Escaped:
		e.str(string(x), true)
	case string:
		e.str(x, e.escapeAll)
	case json.Number:
		e.WriteString(string(x))
	case bool:
		e.WriteString(strconv.FormatBool(x))
	case nil:
		e.WriteString("null")
	case int:
		e.WriteString(strconv.Itoa(x))
	case int64:
		e.WriteString(strconv.FormatInt(x, 10))
	default:
		b, _ := json.Marshal(x)
		e.Write(b)
	}
}

// str writes a JSON string: the characters JSON must escape escaped, the
// rest as UTF-8, or with all (every non-ASCII character and the letters a
// to e, a sample of ASCII) as \u escapes, astral ones as surrogate pairs.
func (e *encoder) str(s string, all bool) {
	e.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			e.WriteString(`\"`)
		case r == '\\':
			e.WriteString(`\\`)
		case r == '/' && e.solidus:
			e.WriteString(`\/`)
		case r < 0x20:
			fmt.Fprintf(e, `\u%04x`, r)
		case all && (r >= 0x80 || r >= 'a' && r <= 'e'):
			if r > 0xFFFF {
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(e, `\u%04x\u%04x`, r1, r2)
			} else {
				fmt.Fprintf(e, `\u%04x`, r)
			}
		default:
			var b [utf8.UTFMax]byte
			e.Write(b[:utf8.EncodeRune(b[:], r)])
		}
	}
	e.WriteByte('"')
}

// PlainValue is a body value as the reference reads it: escaped strings
// are strings.
func PlainValue(v any) any {
	return copiedWith(v, func(leaf any) any {
		if e, ok := leaf.(Escaped); ok {
			return string(e)
		}
		return leaf
	})
}

// Describe is the step in words: the first half of a reason line.
func (s Step) Describe() string {
	var b strings.Builder
	b.WriteString(string(s.Op))
	if s.Path != "" {
		fmt.Fprintf(&b, " (%s id)", s.Path)
	}
	if s.Version != "" {
		b.WriteString(" under " + s.Version)
	}
	if s.Op != OpLogin {
		fmt.Fprintf(&b, " by account %s with %s", s.Actor, s.Cred.describe())
	}
	var what []string
	for _, m := range s.Muts {
		what = append(what, m.Field+": "+m.Op)
	}
	if s.Wire != "" {
		what = append(what, "body: "+s.Wire)
	}
	if s.ContentType != "" {
		what = append(what, "Content-Type "+s.ContentType)
	}
	if s.Accept != "" {
		what = append(what, "Accept "+s.Accept)
	}
	if s.Chunked {
		what = append(what, "body in chunks")
	}
	if s.Note != "" {
		what = append(what, s.Note)
	}
	if s.Recorded != "" {
		what = append(what, s.Recorded)
	}
	if len(what) > 0 {
		b.WriteString(", " + strings.Join(what, "; "))
	}
	return b.String()
}

func (c Cred) describe() string {
	if c.Op == "" {
		return c.Scheme
	}
	return c.Scheme + " (" + c.Op + ")"
}

// Cell is one (operation, input position, operator) of the catalogue.
type Cell struct {
	Op       Op
	Position string // a body field's path, "credential <scheme>", "login email", "path", "version", "content-type", "body"
	Operator string
}

func (c Cell) String() string { return string(c.Op) + " | " + c.Position + " | " + c.Operator }

// Positions of what is not a body field.
const (
	posCredential  = "credential "
	posLogin       = "login "
	posPath        = "path"
	posVersion     = "version"
	posContentType = "content-type"
	posAccept      = "accept"
	posTransfer    = "transfer"
	posBody        = "body"
)

func jsonOf(v any) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case nil:
		return "null"
	case string:
		b, _ := json.Marshal(x)
		return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(b))
	}
	return fmt.Sprint(v)
}
