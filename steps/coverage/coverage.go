// Package coverage is what a run of the contract suite covered: for each
// endpoint, how many scenarios received each status, which statuses the
// spec names, and for each one no scenario received, why; as JSON and as
// the text table the pricing-contract command prints.
package coverage

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Coverage counts, for each endpoint, how many scenarios received each
// status from it. Endpoints are sorted by path, then method.
type Coverage struct {
	Endpoints []EndpointCoverage `json:"endpoints"`
}

// EndpointCoverage is one endpoint, e.g. "PUT /users/:userId", and the number
// of scenarios per status, e.g. {"200": 12, "400": 30}. Every status the
// spec names for the endpoint is listed, with zero when no scenario saw it.
type EndpointCoverage struct {
	Endpoint string         `json:"endpoint"`
	Statuses map[string]int `json:"statuses"`
	// Asked counts, per status, the scenarios whose status assertion
	// named it for this endpoint: a status asked for and never received
	// is the target's failure, not a gap of the suite.
	Asked map[string]int `json:"asked,omitempty"`
	// Gaps say, for each status the spec names that no scenario received,
	// why: "unreachable", "not received" (asked for, answered otherwise)
	// or "not selected" (no scenario of this run asked for it).
	Gaps map[string]string `json:"gaps,omitempty"`
}

// specStatuses are the statuses the spec names per endpoint: 200 and the
// errors of section 4 (7.2), POST /sessions from section 5 (its body is not
// shown, so no 400 is named) and GET /platforms from 2.5. POST /users has no
// specified errors.
var specStatuses = map[string][]int{
	"PUT /users/:userId":     {200, 400, 401, 403, 404},
	"POST /apps":             {200, 400, 401, 403, 404},
	"POST /clients":          {200, 400, 401, 403, 404},
	"PUT /clients/:clientId": {200, 400, 401, 403, 404},
	"POST /users":            {200},
	"POST /sessions":         {200, 401},
	"GET /platforms":         {200},
}

// unreachable explains, for the statuses the spec names for an endpoint
// without stating a condition that would cause them on every correct
// server, why no spec scenario can ask for them. Any other status the spec
// names and no scenario received is a gap of the suite (or of the scenarios
// selected).
var unreachable = map[string]string{
	"POST /apps 403": "the spec states no case where a caller may not create an app: POST /apps works on the caller's own client " +
		"(the mock answers 403 NoClient to a user without a client, checked by an @reference scenario, run with --reference)",
	"POST /apps 404": "POST /apps has no id in its path, and the spec states no case that must answer 404 " +
		"(the mock answers an unknown platform.id or nextplan.id in the body with 400)",
	"POST /users 200": "the spec names POST /users but shows neither its body nor its answer (4.5), so only the @reference scenarios, " +
		"run with --reference, create users",
	"POST /clients 403": "the spec states no case where a caller may not create a client: POST /clients creates one for the caller",
	"POST /clients 404": "POST /clients has no id in its path and creates a new client, and the spec states no case that must answer 404",
}

// Gap is a status the spec names for an endpoint that no scenario
// received, and why.
type Gap struct {
	Endpoint, Status, Why string
	kind                  string // gapUnreachable, gapNotReceived or gapNotSelected
	// Reachable: the spec gives a condition a scenario could cause.
	Reachable bool
}

// The kinds of a zero in the table.
const (
	gapUnreachable = "unreachable"  // no scenario can cause it on every correct server
	gapNotReceived = "not received" // scenarios asked for it; the target answered otherwise
	gapNotSelected = "not selected" // no scenario of this run asked for it
)

func GapFor(endpoint, status string, asked int) Gap {
	if why, ok := unreachable[endpoint+" "+status]; ok {
		return Gap{Endpoint: endpoint, Status: status, Why: why, kind: gapUnreachable}
	}
	if asked > 0 {
		return Gap{Endpoint: endpoint, Status: status, Reachable: true, kind: gapNotReceived,
			Why: fmt.Sprintf("%d %s of this run asked for it and the target answered otherwise: see their failures", asked, plural(asked, "scenario", "scenarios"))}
	}
	return Gap{Endpoint: endpoint, Status: status, Reachable: true, kind: gapNotSelected,
		Why: "the spec gives a condition a scenario could cause, and no scenario of this run asked for it: its scenarios were not selected, or a gap in the suite"}
}

// gapLooks is how each kind of zero shows: its cell of the text table (Mark)
// and its class in the HTML report (Class).
var gapLooks = map[string]struct{ mark, class string }{
	gapNotSelected: {"0 !", "gap"},
	gapNotReceived: {"0 x", "missed"},
	gapUnreachable: {"0 ~", "unreachable"},
}

// Mark is the cell of the text table: "0 !" for no scenario selected, "0 x"
// for asked and not received, "0 ~" for a status no scenario can cause.
func (g Gap) Mark() string { return gapLooks[g.kind].mark }

func (g Gap) Class() string { return gapLooks[g.kind].class }

// gaps lists the statuses the spec names for the endpoint that no scenario
// received.
func (e EndpointCoverage) GapsOf() []Gap {
	var out []Gap
	for _, st := range specStatuses[e.Endpoint] {
		code := strconv.Itoa(st)
		if e.Statuses[code] == 0 {
			out = append(out, GapFor(e.Endpoint, code, e.Asked[code]))
		}
	}
	return out
}

// Gaps lists the statuses the spec names that no scenario received, with
// why, in the order of the table.
func (c Coverage) Gaps() []Gap {
	var out []Gap
	for _, e := range c.Endpoints {
		out = append(out, e.GapsOf()...)
	}
	return out
}

// WriteText writes the coverage as a table: one line per endpoint, one
// column per status, the number of scenarios in each; "-" where the status
// is neither named by the spec for the endpoint nor seen. A status the spec
// names that no scenario received shows "0 !" when the spec gives a
// condition a scenario could cause (a gap) and "0 ~" when it does not;
// endpoints the spec does not name are marked "(not in the spec)". A
// legend follows, and one line per zero saying why.
func (c Coverage) WriteText(w io.Writer) error {
	seen := map[string]bool{}
	for _, e := range c.Endpoints {
		for code := range e.Statuses {
			seen[code] = true
		}
	}
	codes := make([]string, 0, len(seen))
	for code := range seen {
		codes = append(codes, code)
	}
	sort.Strings(codes)

	rows := [][]string{append([]string{"ENDPOINT"}, codes...)}
	for _, e := range c.Endpoints {
		named := map[string]bool{}
		for _, s := range specStatuses[e.Endpoint] {
			named[strconv.Itoa(s)] = true
		}
		name := e.Endpoint
		if specStatuses[name] == nil {
			name += " (not in the spec)"
		}
		row := []string{name}
		for _, code := range codes {
			n, ok := e.Statuses[code]
			switch {
			case !ok:
				row = append(row, "-")
			case named[code] && n == 0:
				row = append(row, GapFor(e.Endpoint, code, e.Asked[code]).Mark())
			default:
				row = append(row, strconv.Itoa(n))
			}
		}
		rows = append(rows, row)
	}
	width := make([]int, len(codes)+1)
	for _, row := range rows {
		for i, cell := range row {
			width[i] = max(width[i], len(cell))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		fmt.Fprintf(&b, "%-*s", width[0], row[0]) // names left, numbers right
		for i, cell := range row[1:] {
			fmt.Fprintf(&b, "  %*s", width[i+1], cell)
		}
		b.WriteByte('\n')
	}
	b.WriteString("Scenarios per endpoint and status the spec names. 0 !: a condition the spec gives, that no scenario of this run asked for; " +
		"0 x: asked for, and the target answered otherwise; 0 ~: no condition a scenario could cause on every correct server; -: not named, not received.\n")
	// The statuses no scenario can cause and those asked for in vain, one
	// line each with why; the ones not selected on one line, as a partial
	// run has many.
	var gaps []string
	for _, g := range c.Gaps() {
		if g.kind == gapNotSelected {
			gaps = append(gaps, g.Endpoint+" "+g.Status)
			continue
		}
		fmt.Fprintf(&b, "  %s %s %s: %s\n", g.Mark(), g.Endpoint, g.Status, g.Why)
	}
	if len(gaps) > 0 {
		fmt.Fprintf(&b, "  0 ! no scenario of this run asked for (its scenarios were not selected, or a gap in the suite): %s\n", strings.Join(gaps, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SpecStatuses are the statuses the spec names for an endpoint.
func SpecStatuses(endpoint string) []int { return specStatuses[endpoint] }

// Named reports whether the spec names the endpoint.
func Named(endpoint string) bool { return specStatuses[endpoint] != nil }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Kind is why no scenario received the status: "unreachable", "not
// received" or "not selected".
func (g Gap) Kind() string { return g.kind }

// SpecTable is every endpoint the spec names with its statuses.
func SpecTable() map[string][]int {
	out := make(map[string][]int, len(specStatuses))
	for e, st := range specStatuses {
		out[e] = append([]int(nil), st...)
	}
	return out
}
