package steps

import (
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
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

// idParams names the path parameter after a collection segment.
var idParams = map[string]string{"users": ":userId", "clients": ":clientId", "apps": ":appId"}

var numericSegment = regexp.MustCompile(`^[0-9]+$`)

type coverageKey struct {
	endpoint string
	status   int
}

type coverageCounter struct {
	mu     *sync.Mutex
	counts map[coverageKey]int
}

func newCoverageCounter() coverageCounter {
	return coverageCounter{mu: &sync.Mutex{}, counts: map[coverageKey]int{}}
}

func (c coverageCounter) add(k coverageKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts[k]++
}

// endpointTemplate turns a sent request into its endpoint: the method and
// the path after the base URL's path and version, with the segment after
// users, clients and apps and any other number replaced by a parameter.
// A request sent under another version of the same API (v1.0 for a base
// URL ending in v1, or the reverse) counts for the endpoint itself; under any
// other version it keeps that version in front ("GET /v2/platforms"), so
// that it does not count for the endpoint.
func (s *Suite) endpointTemplate(out outgoing) string {
	p := out.url
	if u, err := url.Parse(out.url); err == nil {
		p = u.EscapedPath()
	}
	base := s.profile.BaseURL
	if u, err := url.Parse(base); err == nil {
		base = u.EscapedPath()
	}
	prefix, baseVersion := path.Split(strings.TrimRight(base, "/"))
	rest := strings.TrimPrefix(p, strings.TrimRight(prefix, "/"))
	rest = strings.TrimPrefix(rest, "/")
	version, rest, _ := strings.Cut(rest, "/")
	segs := strings.Split(rest, "/")
	for i, seg := range segs {
		switch {
		case i > 0 && idParams[segs[i-1]] != "":
			segs[i] = idParams[segs[i-1]]
		case numericSegment.MatchString(seg):
			segs[i] = ":id"
		}
	}
	t := "/" + strings.Join(segs, "/")
	if out.version != "" && !sameVersion(version, baseVersion) {
		t = "/" + version + t
	}
	return out.method + " " + t
}

// sameVersion tells whether two version segments name one version: equal
// after dropping trailing ".0" components, as semantic versioning reads
// them (v1, v1.0 and v1.0.0 are one version; v1.1 and v2 are others).
func sameVersion(a, b string) bool {
	return trimZeroComponents(a) == trimZeroComponents(b)
}

func trimZeroComponents(v string) string {
	for {
		t, ok := strings.CutSuffix(v, ".0")
		if !ok || t == "" {
			return v
		}
		v = t
	}
}

// Coverage returns the counts so far.
func (s *Suite) Coverage() Coverage {
	s.cov.mu.Lock()
	defer s.cov.mu.Unlock()
	byEndpoint := map[string]map[string]int{}
	for e, statuses := range specStatuses {
		byEndpoint[e] = map[string]int{}
		for _, st := range statuses {
			byEndpoint[e][strconv.Itoa(st)] = 0
		}
	}
	for k, n := range s.cov.counts {
		if byEndpoint[k.endpoint] == nil {
			byEndpoint[k.endpoint] = map[string]int{}
		}
		byEndpoint[k.endpoint][strconv.Itoa(k.status)] += n
	}
	var c Coverage
	for e, st := range byEndpoint {
		c.Endpoints = append(c.Endpoints, EndpointCoverage{Endpoint: e, Statuses: st})
	}
	sort.Slice(c.Endpoints, func(i, j int) bool {
		mi, pi, _ := strings.Cut(c.Endpoints[i].Endpoint, " ")
		mj, pj, _ := strings.Cut(c.Endpoints[j].Endpoint, " ")
		if pi != pj {
			return pi < pj
		}
		return mi < mj
	})
	return c
}

// WriteText writes the coverage as a table: one line per endpoint, one
// column per status, the number of scenarios in each; "-" where the status
// is neither named by the spec for the endpoint nor seen. A status the spec
// names that no scenario received shows "0 !"; endpoints the spec does not
// name are marked "(not in the spec)".
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
				row = append(row, "0 !")
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
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "Scenarios per endpoint and status; 0 ! marks a status the spec names that no scenario received.")
	return err
}
