package steps

import (
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pricing-contract/pricing-contract/steps/coverage"
)

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
	asked  map[coverageKey]int
}

func newCoverageCounter() coverageCounter {
	return coverageCounter{mu: &sync.Mutex{}, counts: map[coverageKey]int{}, asked: map[coverageKey]int{}}
}

func (c coverageCounter) ask(k coverageKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked[k]++
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
	version, segs := s.apiPath(out)
	baseVersion, _ := s.apiPath(outgoing{url: s.profile.BaseURL})
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

// apiPath splits a request's escaped path into its version segment (the
// one in place of the base URL's last) and the segments below it.
func (s *Suite) apiPath(out outgoing) (version string, segs []string) {
	p := out.url
	if u, err := url.Parse(out.url); err == nil {
		p = u.EscapedPath()
	}
	base := s.profile.BaseURL
	if u, err := url.Parse(base); err == nil {
		base = u.EscapedPath()
	}
	prefix, _ := path.Split(strings.TrimRight(base, "/"))
	rest := strings.TrimPrefix(p, strings.TrimRight(prefix, "/"))
	rest = strings.TrimPrefix(rest, "/")
	version, rest, _ = strings.Cut(rest, "/")
	return version, strings.Split(rest, "/")
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

// Coverage and EndpointCoverage are what a run covered (package coverage).
type (
	Coverage         = coverage.Coverage
	EndpointCoverage = coverage.EndpointCoverage
)

// Coverage returns the counts so far.
func (s *Suite) Coverage() Coverage {
	s.cov.mu.Lock()
	defer s.cov.mu.Unlock()
	byEndpoint := map[string]map[string]int{}
	for e, statuses := range coverage.SpecTable() {
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
	asked := map[string]map[string]int{}
	for k, n := range s.cov.asked {
		if asked[k.endpoint] == nil {
			asked[k.endpoint] = map[string]int{}
		}
		asked[k.endpoint][strconv.Itoa(k.status)] += n
	}
	var c Coverage
	for e, st := range byEndpoint {
		ec := EndpointCoverage{Endpoint: e, Statuses: st, Asked: asked[e]}
		for _, g := range ec.GapsOf() {
			if ec.Gaps == nil {
				ec.Gaps = map[string]string{}
			}
			ec.Gaps[g.Status] = g.Kind()
		}
		c.Endpoints = append(c.Endpoints, ec)
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
