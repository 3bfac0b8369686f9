package explore

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
)

// The second stage: generation. A generator draws the steps of a sequence
// from the reference's state and the operator catalogue: each step aims at
// a cell (an operation, an input position, an operator), the least
// exercised first, so that a run covers every cell early; other operators
// ride along at random, so that they meet in one body.

// cells are every cell of the catalogue that the target's profile makes
// meaningful (no POST /clients where a user holds one client, no hash where
// a marketplace app has one app).
func (wd *world) cells() []Cell {
	var out []Cell
	for _, op := range Ops {
		if op == OpPostClient && !wd.several {
			continue
		}
		for _, f := range bodyFields(op) {
			if !wd.fieldFits(op, f) {
				continue
			}
			if op == OpLogin {
				for _, o := range loginOps[f.path] {
					out = append(out, Cell{op, posLogin + f.path, o.Name})
				}
				continue
			}
			for _, o := range bodyOps {
				if o.On(f) {
					out = append(out, Cell{op, f.path, o.Name})
				}
			}
		}
		if op.Authenticated() || op == OpPlatforms {
			for _, scheme := range credSchemes {
				for _, o := range credOps {
					// Another account's credential beside the caller's
					// where either account's answer is one the reference
					// can hold: no create, which would be the other's.
					if credOpFits(scheme, o.Name) && (o.Name != credBesideOther || op != OpPostClient && op != OpPostApp) {
						out = append(out, Cell{op, posCredential + scheme, o.Name})
					}
				}
			}
			out = append(out, Cell{op, "credential", noCred.Name})
		}
		if op == OpLogin {
			for _, scheme := range credSchemes {
				out = append(out, Cell{op, posCredential + scheme, credAtLogin.Name})
			}
		}
		if op == OpPutUser || op == OpPutClient {
			for _, o := range pathOps {
				// The client after the caller's may be one the caller made
				// in an earlier sequence: the next id is a user's only.
				if o.Name == "created" && op == OpPutClient || o.Name == "neighbour" && op == OpPutUser ||
					o.Name != "created" && o.Name != "neighbour" {
					out = append(out, Cell{op, posPath, o.Name})
				}
			}
		}
		for _, o := range versionOps {
			if o.Name != "other-served-form" || len(wd.forms) > 1 {
				out = append(out, Cell{op, posVersion, o.Name})
			}
		}
		if op.HasBody() && op != OpLogin {
			for _, o := range typeOps {
				out = append(out, Cell{op, posContentType, o.Name})
			}
		}
		for _, o := range acceptOps {
			out = append(out, Cell{op, posAccept, o.Name})
		}
		if op.HasBody() {
			for _, o := range transferOps {
				out = append(out, Cell{op, posTransfer, o.Name})
			}
		}
		if op.HasBody() {
			for _, o := range wireOps {
				if wireFits(op, o.Name, wd.form) {
					out = append(out, Cell{op, posBody, o.Name})
				}
			}
		}
	}
	return out
}

// fieldFits: a field the profile's choices let the explorer send.
func (wd *world) fieldFits(op Op, f bodyField) bool {
	if strings.Contains("."+f.path+".", ".marketapp.") && !wd.byHash {
		return false
	}
	if strings.HasPrefix(f.path, "client") && !wd.several {
		return false
	}
	return true
}

// generator draws the steps of one pair's sequences.
type generator struct {
	wd       *world
	r        *rand.Rand
	coverage *coverage
	cells    []Cell
	counter  *atomic.Int64 // the run's unique words
	// mint records a unique word the generator made (knowledge.minted).
	mint    func(string)
	pending *Cell // a cell whose setup step came first
	// only is the one account of a lane's sequences ("" both): it draws
	// no cell that reaches the other account's resources (crossCell).
	only       string
	crossCells []Cell
}

// crossCell reports whether a cell reaches the other account's resources:
// its user or client in the path, its credentials at a login, its email.
func crossCell(c Cell) bool {
	switch c.Operator {
	case "other", "neighbour", "login-email-other-account", "login-password-other-account", "email-taken":
		return true
	}
	return false
}

// laneCells are the cells a lane of one account draws from.
func laneCells(cells []Cell) []Cell {
	var out []Cell
	for _, c := range cells {
		if !crossCell(c) {
			out = append(out, c)
		}
	}
	return out
}

// cross are the generator's cells that reach the other account.
func (g *generator) cross() []Cell {
	if g.crossCells == nil {
		for _, c := range g.cells {
			if crossCell(c) {
				g.crossCells = append(g.crossCells, c)
			}
		}
	}
	if len(g.crossCells) == 0 {
		return g.cells
	}
	return g.crossCells
}

// actor is the account of a step: the lane's, or either.
func (g *generator) actor() string {
	if g.only != "" {
		return g.only
	}
	return []string{"A", "B"}[g.r.IntN(2)]
}

// unique is a word no other draw of the run makes: four letters and a
// counter, so that two pairs never ask for one new email at once.
func (g *generator) unique() string {
	var b strings.Builder
	for i := 0; i < 4; i++ {
		b.WriteByte(byte('a' + g.r.IntN(26)))
	}
	b.WriteString(strconv.FormatInt(g.counter.Add(1), 36))
	if g.mint != nil {
		g.mint(b.String())
	}
	return b.String()
}

// next draws the next step of a sequence.
func (g *generator) next(s *seqState) Step {
	var c Cell
	switch {
	case g.pending != nil:
		c, g.pending = *g.pending, nil
	case g.only == "" && g.r.IntN(2) == 0:
		// A sequence of both accounts aims at what only it reaches (another
		// account's id, email or credentials) half the time: lanes never do.
		c = g.coverage.leastExercised(g.cross(), g.r)
	case g.r.IntN(4) < 3:
		c = g.coverage.leastExercised(g.cells, g.r)
	default:
		c = g.cells[g.r.IntN(len(g.cells))]
	}
	if setup, ok := g.setupFor(s, c); ok {
		g.pending = &c
		return setup
	}
	st := g.base(s, c)
	applied := g.apply(s, &st, c)
	if st.Op != OpLogin && st.Op != OpPlatforms && !RawWire(st.Wire) {
		k := g.r.IntN(6)
		if strings.HasPrefix(c.Position, "credential") && k < 2 && g.r.IntN(2) == 0 {
			k = 2 // more changes than refusals behind a refused credential: it must change nothing
		}
		switch {
		case !g.bodyCell(c) && k < 2:
			// A refusal for the credential, the path or the version meets
			// a body the spec refuses too: the order of the checks.
			g.refusal(s, &st)
		case !g.bodyCell(c) && k < 5:
			// A request that must change nothing carries changes: a server
			// that applies it before refusing it shows so.
			g.extras(s, &st, c, true)
		case g.bodyCell(c) && k > 1:
			g.extras(s, &st, c, false)
		}
		if (st.Op == OpPutUser || st.Op == OpPutClient) && g.r.IntN(3) == 0 {
			g.crossed(s, &st, c)
		}
	}
	st.Cells = cellsOf(st, c, applied)
	return st
}

// cellsOf are the cells a step exercises: the one it aims at, the operators
// that ride along, and the forms of its other positions as the spec writes
// them (a valid credential, the caller's own id).
func cellsOf(st Step, aim Cell, applied bool) []Cell {
	var out []Cell
	if applied {
		out = append(out, aim)
	}
	add := func(c Cell) {
		for _, x := range out {
			if x == c {
				return
			}
		}
		out = append(out, c)
	}
	for _, m := range st.Muts {
		add(Cell{st.Op, m.Field, m.Op})
	}
	switch {
	case st.Op == OpLogin:
		if aim.Position != posLogin+"email" {
			add(Cell{st.Op, posLogin + "email", "as-specified"})
		}
	case st.Cred.Scheme == "none":
		add(Cell{st.Op, "credential", noCred.Name})
	default:
		add(Cell{st.Op, posCredential + st.Cred.Scheme, st.Cred.Op})
	}
	if st.Path != "" {
		add(Cell{st.Op, posPath, st.Path})
	}
	return out
}

// base is a step of the cell's operation, every position as the spec
// writes it: the account's own resource, a valid credential, the body the
// reference holds (or a new entity's), under the base URL's version.
func (g *generator) base(s *seqState, c Cell) Step {
	st := Step{Op: c.Op, Actor: g.actor()}
	if c.Op != OpLogin {
		st.Cred = Cred{Scheme: credSchemes[g.r.IntN(len(credSchemes))], Op: "as-specified"}
	}
	switch c.Op {
	case OpPutUser:
		st.Path = "own"
		st.Base = userBody(s.user(st.Actor))
		if strings.HasPrefix(c.Position, "client") {
			st.Base["client"] = g.newClientBody(strings.HasPrefix(c.Position, "client.app"))
		}
	case OpPutClient:
		st.Path = "own"
		if c.Position == posPath && c.Operator == "created" {
			st.Path = "created"
		}
		cl, _ := s.ref.Client(s.clientOf(st))
		st.Base = clientBody(cl)
	case OpPostClient:
		st.Base = g.newClientBody(strings.HasPrefix(c.Position, "app"))
	case OpPostApp:
		byHash := g.wd.byHash && (strings.HasPrefix(c.Position, "marketapp") || g.r.IntN(2) == 0)
		st.Base = g.newAppBody(byHash)
	case OpLogin:
		st.Login = [2]string{g.emailTemplate(s, st.Actor), g.passwordTemplate(s, st.Actor)}
	}
	return st
}

// emailTemplate and passwordTemplate are an account's credentials now, as
// a login writes them: the profile's as its placeholders.
func (g *generator) emailTemplate(s *seqState, actor string) string {
	if e := s.user(actor).Email; e != g.wd.acct[actor].email {
		return e
	}
	return "{{" + actor + ".email}}"
}

func (g *generator) passwordTemplate(s *seqState, actor string) string {
	if pw := s.password[actor]; pw != g.wd.acct[actor].password {
		return pw
	}
	return "{{" + actor + ".password}}"
}

// setupFor is the step a cell needs first in this sequence: a client made
// before it is updated, an email or a password changed before a login
// tries the old one or a prefix of the new one.
func (g *generator) setupFor(s *seqState, c Cell) (Step, bool) {
	actor := g.actor()
	put := func(field, op string) Step {
		st := Step{Op: OpPutUser, Actor: actor, Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Path: "own", Base: userBody(s.user(actor))}
		f, _ := fieldOf(OpPutUser, field)
		o, _ := bodyOp(op)
		m, _ := g.make(o, g.draw(s, &st, f))
		m.Field, m.Op = field, op
		st.Muts = []Mutation{m}
		return st
	}
	switch {
	case c.Op == OpPutClient && c.Position == posPath && c.Operator == "created" && !g.madeClient(s):
		return Step{Op: OpPostClient, Actor: actor, Cred: Cred{Scheme: "api-key", Op: "as-specified"}, Base: g.newClientBody(false)}, g.wd.several
	case c.Op == OpLogin && (c.Operator == "login-email-before-change" || c.Operator == "login-email-after-change") && !g.emailChanged(s):
		return put("email", []string{"email-new", "email-plus", "email-dots", "email-subdomain"}[g.r.IntN(4)]), true
	case c.Op == OpLogin && c.Operator == "login-password-72-byte-prefix" && !g.longPassword(s):
		return put("password", "password-long"), true
	case c.Op == OpLogin && (c.Operator == "login-password-new" || c.Operator == "login-password-before-change") && !g.passwordChanged(s):
		return put("password", "password-6"), true
	}
	return Step{}, false
}

// accounts are the accounts a generator's steps act as.
func (g *generator) accounts() []string {
	if g.only != "" {
		return []string{g.only}
	}
	return []string{"A", "B"}
}

// any reports whether one of the generator's accounts holds.
func (g *generator) any(f func(string) bool) bool {
	for _, a := range g.accounts() {
		if f(a) {
			return true
		}
	}
	return false
}

func (g *generator) madeClient(s *seqState) bool {
	return g.any(func(a string) bool { _, ok := s.created(a); return ok })
}

func (g *generator) emailChanged(s *seqState) bool {
	return g.any(func(a string) bool { return s.user(a).Email != g.wd.acct[a].email })
}

func (g *generator) longPassword(s *seqState) bool {
	return g.any(func(a string) bool { return len(s.password[a]) > 72 })
}

func (g *generator) passwordChanged(s *seqState) bool {
	return g.any(func(a string) bool { return s.password[a] != g.wd.acct[a].password })
}

// changedActor is an account whose email (or password) a setup changed.
func (g *generator) changedActor(s *seqState, changed func(string) bool, fallback string) string {
	for _, a := range g.accounts() {
		if changed(a) {
			return a
		}
	}
	return fallback
}

// draw is what an operator draws from, for a field of a step's body.
func (g *generator) draw(s *seqState, st *Step, f bodyField) draw {
	cur, _ := GetPath(st.Body(), f.path)
	return draw{
		r: g.r, f: f, current: cur, domain: g.wd.domain,
		ownEmail: s.user(st.Actor).Email, taken: s.user(g.wd.other(st.Actor)).Email,
		hash: g.wd.cat.hash, ids: g.wd.cat.ids(), unique: g.unique,
		newObject: func(path string) map[string]any {
			switch {
			case path == "client":
				return g.newClientBody(false)
			case strings.HasSuffix("."+path, ".app"):
				return g.newAppBody(g.wd.byHash && g.r.IntN(2) == 0)
			}
			return nil
		},
	}
}

// apply puts the cell's operator at its position, and reports whether it
// could (an operator that finds no value to work on cannot).
func (g *generator) apply(s *seqState, st *Step, c Cell) bool {
	switch {
	case strings.HasPrefix(c.Position, posCredential):
		st.Cred = Cred{Scheme: strings.TrimPrefix(c.Position, posCredential), Op: c.Operator}
	case c.Position == "credential":
		st.Cred = Cred{Scheme: "none"}
	case c.Position == posPath:
		st.Path = c.Operator
		g.pathID(s, st)
		return st.Path == c.Operator
	case c.Position == posVersion:
		st.Version = g.version(c.Operator)
		return st.Version != ""
	case c.Position == posContentType:
		st.ContentType = typeValue[c.Operator]
	case c.Position == posAccept:
		st.Accept = acceptValue[c.Operator]
	case c.Position == posTransfer:
		st.Chunked = true
	case c.Position == posBody:
		st.Wire = c.Operator
	case strings.HasPrefix(c.Position, posLogin):
		g.login(s, st, strings.TrimPrefix(c.Position, posLogin), c.Operator)
	default:
		f, ok := fieldOf(c.Op, c.Position)
		o, known := bodyOp(c.Operator)
		if !ok || !known {
			return false
		}
		if v, there := GetPath(st.Base, f.path); (!there || v == nil) && st.Base != nil {
			// The base has no value there (an app made from its hash has
			// a platform id of null): a valid one first, for the operator
			// to change.
			g.fill(st, f)
		}
		return g.mutate(s, st, f, o)
	}
	return true
}

// mutate applies operator o at field f of a step's body, and reports
// whether the operator found a value to make.
func (g *generator) mutate(s *seqState, st *Step, f bodyField, o BodyOp) bool {
	m, ok := g.make(o, g.draw(s, st, f))
	if !ok {
		return false
	}
	m.Field, m.Op = f.path, o.Name
	if st.Op == OpPutClient && f.path == "terms" && (o.Name == "absent" || o.Name == "null") {
		m.Alt = "I agree" // read as no new acceptance (freedom.PutClientTerms)
	}
	st.Muts = append(st.Muts, m)
	return true
}

// make draws operator o's mutation, with the shape of its value: the unique
// words it drew, blanked.
func (g *generator) make(o BodyOp, d draw) (Mutation, bool) {
	var words []string
	inner := d.unique
	d.unique = func() string {
		w := inner()
		words = append(words, w)
		return w
	}
	m, ok := o.Make(d)
	shape := jsonOf(PlainValue(m.Value))
	if m.Remove {
		shape = "absent"
	}
	for _, w := range words {
		shape = strings.ReplaceAll(shape, w, "~")
	}
	m.Shape = shape
	return m, ok
}

// fill puts a valid value at a field the base body lacks.
func (g *generator) fill(st *Step, f bodyField) {
	switch f.kind {
	case kID:
		if ids := g.wd.cat.ids()[f.catalogue]; len(ids) > 0 {
			SetPath(st.Base, f.path, json.Number(strconv.FormatInt(ids[0], 10)), false)
		}
	case kText, kValue:
		SetPath(st.Base, f.path, "contract-"+g.unique(), false)
	case kHash:
		SetPath(st.Base, f.path, g.wd.cat.hash, false)
	}
}

// crossed meets a refusal of the credential with one of the path, or the
// other way round: a server must refuse the credential first (5).
func (g *generator) crossed(s *seqState, st *Step, aim Cell) {
	switch {
	case strings.HasPrefix(aim.Position, "credential") && st.Path == "own":
		paths := []string{"unknown", "letters", "past-int64", "negative", "other"}
		if g.only != "" {
			paths = paths[:4] // the other account's resources are another lane's
		}
		st.Path = paths[g.r.IntN(len(paths))]
		g.pathID(s, st)
	case aim.Position == posPath:
		st.Cred = Cred{Scheme: credSchemes[g.r.IntN(len(credSchemes))], Op: []string{"wrong-secret", "secret-character-added", "unspecified-place"}[g.r.IntN(3)]}
		if g.r.IntN(3) == 0 {
			st.Cred = Cred{Scheme: "none"}
		}
	}
}

// extras add one to three more operators at other fields of the body,
// half of them new values a correct server stores (all of them, legal):
// a refused body that stores its valid fields shows only so.
func (g *generator) extras(s *seqState, st *Step, aim Cell, legal bool) {
	fields := bodyFields(st.Op)
	n := 1 + g.r.IntN(3)
	for i := 0; i < n; i++ {
		f := fields[g.r.IntN(len(fields))]
		if f.path == aim.Position || st.Mutated(f.path) || !g.wd.fieldFits(st.Op, f) {
			continue
		}
		if _, there := GetPath(st.Body(), f.path); !there && strings.Contains(f.path, ".") {
			continue // below an object the body does not have
		}
		var fits []BodyOp
		for _, o := range bodyOps {
			if o.On(f) && (o.Kind == LegalVariety) == (i%2 == 0 || legal) && (!legal || o.Reading == strict) && (g.only == "" || !crossCell(Cell{Operator: o.Name})) {
				fits = append(fits, o)
			}
		}
		if len(fits) == 0 {
			continue
		}
		o := fits[g.r.IntN(len(fits))]
		g.mutate(s, st, f, o)
	}
}

// bodyCell reports whether a cell is a position of the body.
func (g *generator) bodyCell(c Cell) bool {
	switch {
	case strings.HasPrefix(c.Position, "credential"), strings.HasPrefix(c.Position, posLogin),
		c.Position == posPath, c.Position == posVersion, c.Position == posContentType, c.Position == posAccept, c.Position == posTransfer, c.Position == posBody:
		return false
	}
	return true
}

// refusal makes the body one the spec refuses for a field 7.3 names a
// code for: left out, or empty.
func (g *generator) refusal(s *seqState, st *Step) {
	var fits []bodyField
	for _, f := range bodyFields(st.Op) {
		if _, ok := f.codes[condMissing]; ok && g.wd.fieldFits(st.Op, f) && !st.Mutated(f.path) {
			if _, there := GetPath(st.Body(), f.path); there {
				fits = append(fits, f)
			}
		}
	}
	if len(fits) == 0 {
		return
	}
	f := fits[g.r.IntN(len(fits))]
	o, _ := bodyOp([]string{"absent", "empty", "null"}[g.r.IntN(3)])
	g.mutate(s, st, f, o)
}

// pathID is the literal id a path operator sends.
func (g *generator) pathID(s *seqState, st *Step) {
	kind, who := "user", st.Actor
	if st.Op == OpPutClient {
		kind = "client"
	}
	own := s.ids[kind][refID(who)]
	switch st.Path {
	case "unknown":
		st.PathID = "999999999"
	case "neighbour":
		st.PathID = addOne(own)
	case "zero":
		st.PathID = "0"
	case "negative":
		st.PathID = "-1"
	case "decimal":
		st.PathID = own + ".5"
	case "letters":
		st.PathID = "abc"
	case "past-int64":
		st.PathID = "99999999999999999999"
	case "leading-zero":
		st.PathID = "0" + own
	case "created":
		if _, ok := s.created(st.Actor); !ok {
			st.Path = "own"
		}
	}
}

// addOne is a decimal id plus one, exactly, whatever its size.
func addOne(id string) string {
	b := []byte(id)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '0' || b[i] > '9' {
			return id + "1"
		}
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// version is the version segment a version operator sends.
func (g *generator) version(op string) string {
	if op == "unknown-version" {
		return []string{"v2", "v1.1", "v0"}[g.r.IntN(3)]
	}
	own := g.wd.p.BaseURL[strings.LastIndexByte(g.wd.p.BaseURL, '/')+1:]
	for _, f := range g.wd.forms {
		if f != own {
			return f
		}
	}
	return ""
}

// login draws a login's email or password operator.
func (g *generator) login(s *seqState, st *Step, pos, op string) {
	a, other := st.Actor, g.wd.other(st.Actor)
	switch op {
	case "login-email-case":
		st.Login[0] = "{{upper:" + a + ".email}}"
		if e := s.user(a).Email; e != g.wd.acct[a].email {
			st.Login[0] = strings.ToUpper(e)
		}
	case "login-email-plus":
		st.Login[0] = strings.Replace(expandLogin(st.Login[0], g.wd.acct), "@", "+x@", 1)
	case "login-email-extended":
		st.Login[0] += "x"
	case "login-email-other-account":
		st.Login[0] = g.emailTemplate(s, other)
	case "login-email-unknown":
		st.Login[0] = "contract-" + g.unique() + "@" + g.wd.domain
	case "login-email-before-change":
		a = g.changedActor(s, func(x string) bool { return s.user(x).Email != g.wd.acct[x].email }, a)
		st.Actor = a
		st.Login = [2]string{"{{" + a + ".email}}", g.passwordTemplate(s, a)}
	case "login-email-after-change":
		a = g.changedActor(s, func(x string) bool { return s.user(x).Email != g.wd.acct[x].email }, a)
		st.Actor = a
		st.Login = [2]string{g.emailTemplate(s, a), g.passwordTemplate(s, a)}
	case "login-email-empty":
		st.Login[0] = ""
	case "login-password-extended":
		st.Login[1] += "x"
	case "login-password-prefixed":
		st.Login[1] = "x" + st.Login[1]
	case "login-password-upper-case":
		if strings.HasPrefix(st.Login[1], "{{") {
			st.Login[1] = "{{upper:" + a + ".password}}"
		} else {
			st.Login[1] = strings.ToUpper(st.Login[1])
		}
	case "login-password-trailing-space":
		st.Login[1] += " "
	case "login-password-other-account":
		st.Login[1] = g.passwordTemplate(s, other)
	case "login-password-72-byte-prefix":
		a = g.changedActor(s, func(x string) bool { return len(s.password[x]) > 72 }, a)
		st.Actor = a
		pw := s.password[a]
		if len(pw) > 72 {
			pw = pw[:72]
		}
		st.Login = [2]string{g.emailTemplate(s, a), pw + "-other"}
	case "login-password-sql":
		st.Login[1] = "' OR '1'='1"
	case "login-password-empty":
		st.Login[1] = ""
	case "login-password-new":
		a = g.changedActor(s, func(x string) bool { return s.password[x] != g.wd.acct[x].password }, a)
		st.Actor = a
		st.Login = [2]string{g.emailTemplate(s, a), g.passwordTemplate(s, a)}
	case "login-password-before-change":
		a = g.changedActor(s, func(x string) bool { return s.password[x] != g.wd.acct[x].password }, a)
		st.Actor = a
		st.Login = [2]string{g.emailTemplate(s, a), "{{" + a + ".password}}"}
	}
}

// newClientBody is a valid body of POST /clients, with an app or not.
func (g *generator) newClientBody(withApp bool) map[string]any {
	p := g.wd.p
	b := map[string]any{
		"name": "contract-" + g.unique(), "addressLine1": p.MustValue("address_line1"), "addressLine2": p.MustValue("address_line2"),
		"addressCity": p.MustValue("address_city"), "addressPostcode": p.MustValue("address_postcode"),
		"addressCountry": p.MustValue("address_country"), "vat": p.MustValue("vat"),
		"currency": map[string]any{"id": json.Number(strconv.FormatInt(g.wd.cat.currencyID, 10))}, "terms": "I agree",
	}
	if withApp {
		b["app"] = g.newAppBody(g.wd.byHash && g.r.IntN(2) == 0)
	}
	return b
}

// newAppBody is a valid body of POST /apps: from the profile's marketplace
// app, or from a name and a platform.
func (g *generator) newAppBody(byHash bool) map[string]any {
	ids := g.wd.cat.ids()
	pick := func(list []int64) json.Number {
		return json.Number(strconv.FormatInt(list[g.r.IntN(len(list))], 10))
	}
	// Every field of the body table, none being marked optional (2): a
	// server may ask for each. "None" is written as the table allows it:
	// a null name and platform id beside a hash, a marketplace app with no
	// hash beside a name.
	b := map[string]any{"nextplan": map[string]any{"id": pick(ids["plans"])}}
	if byHash {
		b["marketapp"] = map[string]any{"hash": g.wd.cat.hash}
		b["name"], b["platform"] = nil, map[string]any{"id": nil}
		if g.r.IntN(2) == 0 {
			// Name and platform beside the hash: the marketplace app's win
			// (4.2: they are used when no hash is given).
			b["name"] = "contract-app-" + g.unique()
			b["platform"] = map[string]any{"id": pick(ids["platforms"])}
		}
	} else {
		b["marketapp"] = map[string]any{}
		b["name"] = "contract-app-" + g.unique()
		b["platform"] = map[string]any{"id": pick(ids["platforms"])}
	}
	return b
}
