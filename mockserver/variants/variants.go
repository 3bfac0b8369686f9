// Package variants is what every server that is not the spec is made of:
// wrong servers (each breaks one rule of the spec; the contract suite must
// fail them) and correct servers that chose otherwise where the spec is
// silent (the suite must pass them), whoever wrote them: the built-in
// defects of pricing-mock --fault, the blind audits, the legal variants.
//
// A Server is made from the reference mock from outside it, so that no
// handler grows a branch per server and a request to the plain mock runs
// no code of this tree:
//   - a rewrite of the request before the mock reads it (Request);
//   - a rewrite of the answer after the mock wrote it (Answer);
//   - a field of pricing.Deviations, the one value through which the
//     domain departs from the spec, for what no rewrite can express: a
//     limit, a permission, the password check (Deviate);
//   - a middleware in front of all that, for a server that answers by
//     itself or asks the mock more than once (Wrap).
//
// This package holds the Server type and the one library of helpers the
// servers are written with, on top of mockserver/rewrite. The servers
// themselves live in one package per area of the spec below this one
// (auth, users, clients, apps, sessions, representation), as plain slices;
// mockserver/variants/catalogue is the only package that lists the areas,
// finds a server by name and serves it.
//
// They are not the fault rules of the admin API (/__admin/faults): those
// rehearse a bad day of a correct server, these make another server.
package variants

import (
	"net/http"
	"slices"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
)

// Area is the part of the spec a server differs in; each area is a package
// of this tree.
type Area string

// The areas, in the order the catalogue lists them.
const (
	Auth           Area = "auth"           // credentials and permissions (5, 7.2)
	Users          Area = "users"          // PUT /users/:userId and the user object (2.1, 4.1)
	Clients        Area = "clients"        // the client endpoints and object (2.2, 4.3, 4.4)
	Apps           Area = "apps"           // POST /apps, the app object, the catalogues (2.3, 4.2, 4.5)
	Sessions       Area = "sessions"       // POST /sessions and the session object (2.4, 5)
	Representation Area = "representation" // what every answer looks like: JSON, errors, dates, ids, statuses, paths (1, 2, 2.5, 7, 9)
)

// Areas lists every Area.
var Areas = []Area{Auth, Users, Clients, Apps, Sessions, Representation}

// InArea is the servers of an area's package, in order, each with its Area
// set: a server does not repeat the area its package is.
func InArea(area Area, servers ...[]Server) []Server {
	out := slices.Concat(servers...)
	for i := range out {
		out[i].Area = area
	}
	return out
}

// Author is who wrote a server.
type Author string

const (
	// Team: the project's own developers, who had read the features.
	Team Author = "team"
	// Blind: a helper with only the spec and the mock's code (README,
	// "Blind audits"), whose figure is the honest measure of the gate.
	Blind Author = "blind"
	// Independent: the author of an implementation written independently
	// of the mock, from the spec alone, and of its faults.
	Independent Author = "lineage"
)

// Origin is where a server came from, as data rather than in a file name.
type Origin struct {
	// Round of work that produced it: "built-in" (the first defects and
	// legal variants), "fault-classes" (2026-11-23: behaviour over time,
	// rules with a second half, unusual input), "gate-3" (2026-11-24),
	// "blind-1" and "blind-2" (the blind audits of 2026-11-26),
	// "lineages-1" (the other lineages and their faults, 2026-11-26).
	Round string
	// Date of the round, YYYY-MM-DD; "" where the history does not tie the
	// server to one.
	Date   string
	Author Author
	// Before is, for a server of an audit, what the suite made of it before
	// the fixes the audit led to: "caught" or "missed" for a wrong one,
	// "passed" or "failed" for a correct one; "" for the others, which were
	// written with the scenarios that answer them.
	Before string
}

// Server is one server that is not the spec, made from the mock.
type Server struct {
	Name string // what pricing-mock --fault takes for a wrong one
	Area Area   // the package of its area sets it (InArea)
	// Legal is a correct server that chose otherwise where the spec is
	// silent; false is a wrong server.
	Legal bool
	// Rule is the section(s) of the spec: the rule a wrong server breaks, or
	// the silence a legal one reads.
	Rule string
	// Why is, for a wrong server, what it does wrong; for a legal one, the
	// sentence of the spec that allows it.
	Why    string
	Origin Origin

	// What it does: any of these, applied from the inside out (Deviate to
	// the domain, Answer, Request, then Wrap outermost).
	Request func(*http.Request)
	Answer  func(*rewrite.Answer)
	Deviate func(*pricing.Deviations)
	// Wrap puts the server in front of next. It calls hit for every
	// request or answer it acts on (rewrites, refuses or, for a check,
	// vets), so that a test can tell a server the run never reached from
	// one it passed.
	Wrap func(next http.Handler, hit func()) http.Handler

	// Profile is what a correct target profile says about this server:
	// profile-file keys of the suite (clients_per_user, login_encoding,
	// ...) and their values; nil: the default profile. A base_url that is a
	// path ("/v1.0") is that path on the server's own origin.
	Profile map[string]string

	// Lineage, when set, makes this a whole server of another lineage
	// (mockserver/variants/lineages), not the mock: Serve refuses it, and
	// the catalogue lists it apart (catalogue.Lineages). Every other field
	// but Request, Answer, Deviate and Wrap says what it says of a server
	// made from the mock.
	Lineage *Lineage
}

// Around puts the server's rewrites and its Wrap around next, the mock
// that already deviates as Deviate says. Without any it is next.
func (s Server) Around(next http.Handler, hit func()) http.Handler {
	h := next
	if s.Answer != nil {
		h = rewrite.Answers(h, s.Answer)
	}
	if s.Request != nil {
		h = rewrite.Requests(h, s.Request)
	}
	if s.Wrap != nil {
		if hit == nil {
			hit = func() {}
		}
		h = s.Wrap(h, hit)
	}
	return h
}

// Acts reports whether the server does anything at all.
func (s Server) Acts() bool {
	return s.Request != nil || s.Answer != nil || s.Deviate != nil || s.Wrap != nil || s.Lineage != nil
}

// Lineage is an implementation of the API written independently of the
// mock, with its own store, ids and choices, served with one of its own
// faults or none.
type Lineage struct {
	Name  string // the implementation: its package under mockserver/variants/lineages
	Fault string // one of its own faults; "" for the correct server
	// Known are the profile values its documentation gives that no answer
	// of it shows (a marketplace hash, the kinds of its plans), profile-file
	// keys and values: what a QA engineer knows of the target.
	Known map[string]string
	// New serves it with pairs pairs of accounts and the fault: its handler,
	// the path of its base URL, and the pairs (A, B).
	New func(pairs int, fault string) (handler http.Handler, basePath string, accounts [][2]Account, err error)
}

// Account is one login of a lineage's seed.
type Account struct{ Email, Password, APIKey string }

// The rounds of work so far, as the Origin of their servers.
var (
	// BuiltIn: the first defects and legal variants (2026-11-22).
	BuiltIn = Origin{Round: "built-in", Date: "2026-11-22", Author: Team}
	// FaultClasses: behaviour over time, rules with a second half, valid but
	// unusual input, the error arrays of 7.1 and the robustness floor
	// (README, "Fault classes"), with the legal readings those checks must
	// accept (2026-11-23).
	FaultClasses = Origin{Round: "fault-classes", Date: "2026-11-23", Author: Team}
	// Gate3: the rules that wrong servers written from the spec alone broke
	// and the suite did not see (2026-11-24).
	Gate3 = Origin{Round: "gate-3", Date: "2026-11-24", Author: Team}
)

// Invariants: the team's servers of the round of the oracles that need no
// named bug (2026-11-28): a class of bug only an invariant sees, such as
// an answer that requests at once show is no serial order's.
var Invariants = Origin{Round: "invariants", Date: "2026-11-28", Author: Team}

// Lineages1Team is the Origin of the team's servers of the round of the
// other lineages (2026-11-26).
var Lineages1Team = Origin{Round: "lineages-1", Date: "2026-11-26", Author: Team}

// judged is the Origin of a server of a round whose servers were judged by
// the suite before the fixes the round led to, with that verdict (Before).
func judged(round, date string, author Author) func(before string) Origin {
	return func(before string) Origin {
		return Origin{Round: round, Date: date, Author: author, Before: before}
	}
}

// Lineages1 is the Origin of a fault of an implementation of another
// lineage, written by its author from the spec alone (2026-11-26), with
// what the suite made of it before the fixes it led to.
var Lineages1 = judged("lineages-1", "2026-11-26", Independent)

// Lineages2 is the Origin of the correct server of the second round of
// other lineages (2026-11-28), written from the spec alone by an author
// told to take the least common legal reading wherever the spec allows
// one, with what the suite made of it at first contact, before the fixes
// it led to.
var Lineages2 = judged("lineages-2", "2026-11-28", Independent)

// BlindAudit4 is the Origin of a server of the fourth blind audit
// (2026-11-29, a whole implementation written by a helper with the spec
// alone: the ledger lineage), with what the suite and the explorer made
// of it before the fixes the audit led to.
var BlindAudit4 = judged("blind-4", "2026-11-29", Blind)

// BlindAudit5 is the Origin of a server of the fifth blind audit
// (2026-11-29, a whole implementation written by a helper with the spec
// alone: the shards lineage), with what the suite and the explorer made
// of it before the fixes the audit led to.
var BlindAudit5 = judged("blind-5", "2026-11-29", Blind)

// BlindAudit6 is the Origin of a server of the sixth blind audit
// (2026-11-29, a whole implementation written by a helper with the spec
// alone: the tags lineage), with what the suite and the explorer made of
// it before the fixes the audit led to.
var BlindAudit6 = judged("blind-6", "2026-11-29", Blind)

// BlindAudit7 is the Origin of a server of the seventh blind audit
// (2026-11-29, a whole implementation written by a helper with the spec
// alone: the typed lineage), with what the suite and the explorer made of
// it before the fixes the audit led to.
var BlindAudit7 = judged("blind-7", "2026-11-29", Blind)

// BlindAudit8 is the Origin of a server of the eighth blind audit
// (2026-11-29, a whole implementation written by a helper with the spec
// alone: the actor lineage), with what the suite and the explorer made of
// it before the fixes the audit led to.
var BlindAudit8 = judged("blind-8", "2026-11-29", Blind)

// BlindAudit9 is the Origin of a server of the ninth blind audit
// (2026-11-29, a whole implementation written by a helper with the spec
// alone: the layered lineage), with what the suite and the explorer made
// of it before the fixes the audit led to.
var BlindAudit9 = judged("blind-9", "2026-11-29", Blind)

// BlindAudit11 is the Origin of a server of the eleventh blind audit
// (2026-11-29, a whole implementation written by a helper with the spec
// alone: the reducer lineage), with what the suite and the explorer made
// of it before the fixes the audit led to.
var BlindAudit11 = judged("blind-11", "2026-11-29", Blind)

// BlindAudit10 is the Origin of a server of the tenth blind audit
// (2026-11-29, a whole implementation written by a helper with the spec
// alone: the undolog lineage), with what the suite and the explorer made
// of it before the fixes the audit led to.
var BlindAudit10 = judged("blind-10", "2026-11-29", Blind)

// BlindAudit3 is the Origin of a server of the third blind audit
// (2026-11-28, a whole implementation written by a helper with the spec
// alone, its faults switchable: the documents lineage), with what the
// suite and the explorer made of it before the fixes the audit led to.
var BlindAudit3 = judged("blind-3", "2026-11-28", Blind)

// BlindAudit2 is the Origin of a server of the second blind audit
// (2026-11-26, written by a helper with only the spec and the mock's code,
// after the suite, the explorer and the replay had grown), with what the
// suite made of it before the fixes the audit led to.
var BlindAudit2 = judged("blind-2", "2026-11-26", Blind)

// BlindAudit1 is the Origin of a server of the first blind audit
// (2026-11-26), with what the suite made of it before the fixes the audit
// led to.
var BlindAudit1 = judged("blind-1", "2026-11-26", Blind)
