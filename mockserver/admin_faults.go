package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// faultRule is a runtime fault of POST /__admin/faults: the next Times
// requests (all of them while Times is 0) whose method and path match are
// delayed by Delay and, when Status is set, answered Status with Body
// instead of reaching the API. Unlike the wrong servers of --fault
// (mockserver/variants), which break the spec for mutation testing, rules
// rehearse what a correct server does on a bad day: a 500, a 401 after a
// token expired, a slow network.
type faultRule struct {
	ID int64 `json:"id"`
	// Method is an HTTP method, or "*" (or "" in a new rule) for any.
	Method string `json:"method"`
	// Path is a glob over the request path: * matches within one segment,
	// ** across segments, ? one character; "/v1*/users/*" matches
	// /v1/users/1 and /v1.0/users/1 but not /v1/users/1/clients.
	Path   string          `json:"path"`
	Status int             `json:"status,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"`
	Delay  string          `json:"delay,omitempty"`
	// Times is how many requests the rule applies to; 0: until removed.
	Times int `json:"times,omitempty"`
	// Remaining counts down from Times; absent while Times is 0.
	Remaining *int `json:"remaining,omitempty"`
	// Matched counts the requests the rule has applied to.
	Matched int `json:"matched"`

	re    *regexp.Regexp
	delay time.Duration
}

var methodRE = regexp.MustCompile(`^[A-Z]+$`)

// The bounds of one rule: with its compiled pattern (about 17 KiB at the
// longest path) a rule keeps at most about 32 KiB.
const (
	maxRulePath = 128
	maxRuleBody = 8 << 10
)

// ruleCount counts the rules of every namespace of a Server, up to max.
type ruleCount struct {
	n   atomic.Int64
	max int
}

// faultRules is the rule list of a namespace; safe for concurrent use.
type faultRules struct {
	all *ruleCount
	max int // rules of this namespace
	// count is len(rules), read without the lock by every request: most
	// namespaces have no rule.
	count atomic.Int64

	mu    sync.Mutex
	rules []faultRule // oldest first: the first that matches applies
	next  int64
}

// parseRule reads and checks the body of POST /__admin/faults.
func parseRule(b []byte) (faultRule, []pricing.FieldError) {
	var r faultRule
	switch err := jsonio.Decode(b, &r); {
	case errors.Is(err, jsonio.ErrTrailingData):
		return r, []pricing.FieldError{{Error: pricing.CodeInvalidBody, Message: "The request body holds more than one JSON value."}}
	case err != nil:
		return r, []pricing.FieldError{{Error: pricing.CodeInvalidBody, Message: "The rule is not a valid JSON object of method, path, status, body, delay and times: " + err.Error() + "."}}
	}
	var errs []pricing.FieldError
	bad := func(field, msg string) {
		errs = append(errs, pricing.FieldError{FieldName: field, Error: pricing.CodeInvalidRule, Message: msg})
	}
	r.Method = strings.ToUpper(strings.TrimSpace(r.Method))
	if r.Method == "" {
		r.Method = "*"
	}
	if r.Method != "*" && !methodRE.MatchString(r.Method) {
		bad("method", "method is an HTTP method such as GET or PUT, or * for any.")
	}
	switch {
	case !strings.HasPrefix(r.Path, "/"):
		bad("path", `path is a pattern starting with "/", such as /v1/users/* (* within a segment, ** across).`)
	case len(r.Path) > maxRulePath:
		bad("path", fmt.Sprintf("path is at most %d bytes long.", maxRulePath))
	default:
		r.re = globRE(r.Path)
	}
	if r.Status != 0 && (r.Status < 200 || r.Status > 599) {
		bad("status", "status is an HTTP status from 200 to 599.")
	}
	if len(r.Body) > 0 && r.Status == 0 {
		bad("body", "a body needs a status to be answered with.")
	}
	if len(r.Body) > 0 {
		var buf bytes.Buffer
		if json.Compact(&buf, r.Body) == nil {
			r.Body = append(buf.Bytes(), '\n')
		}
		if len(r.Body) > maxRuleBody {
			bad("body", fmt.Sprintf("body is at most %d KiB of JSON.", maxRuleBody>>10))
		}
	}
	if r.Delay != "" {
		d, err := parseDelay(r.Delay)
		if err != nil {
			bad("delay", "delay: "+err.Error()+".")
		}
		r.delay = d
	}
	if r.Status == 0 && r.delay == 0 {
		bad("status", "a rule needs a status to answer or a delay to add (or both).")
	}
	if r.Times < 0 {
		bad("times", "times is how many requests the rule applies to, 0 (the default) for all until it is removed.")
	}
	r.Matched, r.Remaining = 0, nil
	if r.Times > 0 {
		r.Remaining = new(r.Times)
	}
	return r, errs
}

// globRE turns a path glob into an anchored regular expression.
func globRE(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(glob); i++ {
		switch {
		case strings.HasPrefix(glob[i:], "**"):
			b.WriteString(".*")
			i++
		case glob[i] == '*':
			b.WriteString("[^/]*")
		case glob[i] == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

func (f *faultRules) add(r faultRule) (faultRule, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.rules) >= f.max {
		return faultRule{}, fmt.Errorf("this namespace already has %d rules, the most it keeps", f.max)
	}
	if f.all.n.Add(1) > int64(f.all.max) {
		f.all.n.Add(-1)
		return faultRule{}, fmt.Errorf("the namespaces of this mock already have %d rules together, the most it keeps", f.all.max)
	}
	f.next++
	r.ID = f.next
	f.rules = append(f.rules, r)
	f.count.Add(1)
	return r.view(), nil
}

// dropLocked removes the rule at i; the caller holds the lock.
func (f *faultRules) dropLocked(i int) {
	f.rules = append(f.rules[:i], f.rules[i+1:]...)
	f.count.Add(-1)
	f.all.n.Add(-1)
}

// len is the number of rules.
func (f *faultRules) len() int { return int(f.count.Load()) }

// view is a copy safe to hand out.
func (r faultRule) view() faultRule {
	if r.Remaining != nil {
		r.Remaining = new(*r.Remaining)
	}
	return r
}

// match applies the first rule that matches a request, counting it down
// (and removing it at zero).
func (f *faultRules) match(method, path string) (faultRule, bool) {
	if f.count.Load() == 0 {
		return faultRule{}, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.rules {
		r := &f.rules[i]
		if (r.Method != "*" && r.Method != method) || !r.re.MatchString(path) {
			continue
		}
		r.Matched++
		if r.Remaining != nil {
			*r.Remaining--
			if *r.Remaining == 0 {
				out := r.view()
				f.dropLocked(i)
				return out, true
			}
		}
		return r.view(), true
	}
	return faultRule{}, false
}

func (f *faultRules) list() []faultRule {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]faultRule, 0, len(f.rules))
	for _, r := range f.rules {
		out = append(out, r.view())
	}
	return out
}

func (f *faultRules) remove(id int64) (faultRule, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.rules {
		if r.ID == id {
			f.dropLocked(i)
			return r.view(), true
		}
	}
	return faultRule{}, false
}

func (f *faultRules) clear() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(f.rules)
	f.rules = nil
	f.count.Add(-int64(n))
	f.all.n.Add(-int64(n))
	return n
}
