package explore

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The second stage: generation. A generator draws the steps of a sequence
// from the reference's state and the operator catalogue: each step aims at
// a cell (an operation, an input position, an operator), the least
// exercised first, so that a run covers every cell early; other operators
// ride along at random, so that they meet in one body.

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
		case g.bodyCell(c) && k > 1 && g.coverage.sentAlone(c):
			// Once the operator was judged alone (its verdict its own,
			// not widened by another's freedom), others ride along.
			g.extras(s, &st, c, false)
		}
		if (st.Op == OpPutUser || st.Op == OpPutClient) && g.r.IntN(3) == 0 {
			g.crossed(s, &st, c)
		}
		if g.bodyCell(c) && st.Wire == "" && g.r.IntN(6) == 0 && g.coverage.sentAlone(c) {
			// The body's changes in another form of the same JSON text: a
			// server that looks for a member in the raw bytes (an escaped
			// "\u0061pp") or by its order reads them otherwise.
			forms := equivalentWires(st.Op)
			st.Wire = forms[g.r.IntN(len(forms))]
		}
	}
	st.Cells = cellsOf(st, c, applied)
	return st
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
		byHash := (g.wd.byHash || g.wd.hashOnce) && (strings.HasPrefix(c.Position, "marketapp") || g.r.IntN(2) == 0)
		st.Base = g.newAppBody(byHash)
	case OpLogin:
		st.Login = [2]string{g.emailTemplate(s, st.Actor), g.passwordTemplate(s, st.Actor)}
	}
	return st
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
				return g.newAppBody((g.wd.byHash || g.wd.hashOnce) && g.r.IntN(2) == 0)
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
	d := g.draw(s, st, f)
	m, ok := g.make(o, d)
	if !ok {
		return false
	}
	m.Field, m.Op = f.path, o.Name
	if st.Op == OpPutClient && f.path == "terms" && (o.Name == "absent" || o.Name == "null") {
		m.Alt = "I agree" // read as no new acceptance (freedom.PutClientTerms)
	}
	st.Muts = append(st.Muts, m)
	if o.Name == opMemberOtherCase {
		parent := parentOf(f.path)
		other := otherCase(g.r, strings.TrimPrefix(f.path[len(parent):], "."))
		if parent != "" {
			other = parent + "." + other
		}
		st.Muts = append(st.Muts, Mutation{Field: other, Op: opUnnamedField, Value: PlainValue(d.current), Shape: "unnamed"})
	}
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
			if st.Cred.Op == credBesideOther && o.Name == opOwnEmailInCapitals {
				// Whose own email it is, two accounts' credentials leave
				// open: the other's in capitals is a new mailbox or a
				// taken one, as the server compares local parts.
				continue
			}
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
