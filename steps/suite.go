package steps

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/brianvoe/gofakeit/v6"
	"github.com/cucumber/godog"
	"github.com/go-resty/resty/v2"

	"github.com/pricing-contract/pricing-contract/steps/target"
)

// Options tune how the suite talks to the target.
type Options struct {
	// HTTPClient sends every request; nil: target.NewClient, the one client
	// of the tools (no redirect followed, every answer bounded) with its
	// default timeout. A client without a Transport gets that client's.
	HTTPClient *http.Client
	// Retries is how often a request with an idempotent method (GET, PUT,
	// HEAD, OPTIONS, DELETE) is repeated after a transport error. 0 means the
	// default, 2; a negative value disables retries.
	Retries int
	// FixturesDir, when set, is searched first for shapes/<name>.json and
	// bodies/<name>.json; the embedded fixtures are the fallback.
	FixturesDir string
	// Output receives notices that are not failures (an account restored
	// from the profile rather than from a snapshot, a client that could not
	// be snapshotted). nil: os.Stderr.
	Output io.Writer
}

// Suite is the step library bound to one target. It holds configuration and
// the little state that must outlive a scenario: the pool of account pairs
// with their learned ids, and the coverage counters, each behind its own
// mutex. Everything else lives in the scenario's context.
type Suite struct {
	profile Profile
	opts    Options
	http    *http.Client
	retries int
	backoff time.Duration
	// clockWait bounds the wait for the server's clock to move on a second.
	clockWait time.Duration

	pool *accountPool

	noticeMu sync.Mutex
	noticed  map[string]bool

	cov coverageCounter

	identified bool // Identify ran

	checkMu  sync.Mutex
	verified map[string]bool // "field=value" the preflight saw the target accept

	created createCounts // the creates each account made in the run
}

// NewSuite returns the step library for the target p.
func NewSuite(p Profile, o Options) *Suite {
	hc := o.HTTPClient
	if hc == nil {
		hc = target.NewClient(0)
	}
	// resty fills in a nil Transport on the client it is given; doing it
	// here once keeps the per-scenario copies from racing on it.
	if hc.Transport == nil {
		c := *hc
		c.Transport = target.NewClient(0).Transport
		hc = &c
	}
	retries := o.Retries
	switch {
	case retries == 0:
		retries = 2
	case retries < 0:
		retries = 0
	}
	if p.LoginEncoding == "" {
		p.LoginEncoding = "json"
	}
	if !p.Loaded() { // built by hand: the mock's seed, as documented
		target.FillSeedNames(&p)
	}
	if o.Output == nil {
		o.Output = os.Stderr
	}
	return &Suite{
		profile:   p,
		opts:      o,
		http:      hc,
		retries:   retries,
		backoff:   200 * time.Millisecond,
		clockWait: 3 * time.Second,
		pool:      newAccountPool(profilePairs(p)),
		noticed:   map[string]bool{},
		cov:       newCoverageCounter(),
	}
}

// InitializeTestSuite is the godog suite initializer.
func (s *Suite) InitializeTestSuite(ctx *godog.TestSuiteContext) {}

// InitializeScenario is the godog scenario initializer: it installs the
// hooks that create the scenario state, take the account locks and restore
// mutated accounts, and registers every step family.
func (s *Suite) InitializeScenario(sc *godog.ScenarioContext) {
	sc.Before(s.beforeScenario)
	sc.After(s.afterScenario)
	sc.StepContext().Before(noteStep)
	for _, r := range s.registrars() {
		registerDefs(sc, r.steps())
	}
}

// registrar is one family of steps: its phrases, each registered the same
// way (registerDefs).
type registrar interface {
	steps() []stepDef
}

func (s *Suite) registrars() []registrar {
	return []registrar{
		varSteps{},
		authSteps{},
		requestSteps{},
		concurrentSteps{},
		assertSteps{},
	}
}

// stepDef is one phrase: its expression and its handler.
type stepDef struct {
	expr string
	fn   any
}

// registerDefs registers without a keyword, so that a phrase works after
// Given, When, Then, And and But alike.
func registerDefs(sc *godog.ScenarioContext, defs []stepDef) {
	for _, d := range defs {
		sc.Step(stepRegexp(d.expr), d.fn)
	}
}

// stepRegexps holds each phrase compiled once: godog calls the scenario
// initializer for every scenario, and compiling the whole vocabulary each
// time was a third of a run's CPU.
var stepRegexps sync.Map // expression -> *regexp.Regexp

func stepRegexp(expr string) *regexp.Regexp {
	if re, ok := stepRegexps.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := stepRegexps.LoadOrStore(expr, regexp.MustCompile(expr))
	return re.(*regexp.Regexp)
}

// scenarioState is everything one scenario owns. It is created by the Before
// hook and reached through the context, never through the Suite, so that
// scenarios can run concurrently.
type scenarioState struct {
	suite  *Suite
	pickle *godog.Scenario
	client *resty.Client
	faker  *gofakeit.Faker

	vars map[string]value

	pair    *pair  // the accounts of this scenario; nil when it names none
	need    need   // what it holds of them
	account string // "A", "B" or "" for not authenticated
	scheme  authScheme
	// nearMiss, when set, changes the credential by one character as it
	// says (iAmAccountUsingANearMiss).
	nearMiss string
	// percentEncoded sends the sessionToken query's value with every
	// character percent-encoded: the same URI (RFC 3986 2.1, 6.2.2.2).
	percentEncoded bool
	tokens         map[string]string // account -> session token of this scenario
	secrets        []string          // values masked in failure output

	pending  pendingRequest
	standIns bool // a template's missing catalogue values get stand-ins (theRequestBodyIsTheTemplate)
	last     *exchange
	// prepared are the requests to send at once, answers what they got
	// (concurrentSteps).
	prepared []prepared
	answers  map[string]*exchange
	sent     []*exchange // every request of the steps, for the floor check
	step     string      // the text of the step that runs

	covered   map[coverageKey]bool
	askedKeys map[coverageKey]bool // statuses the scenario's assertions named (askedFor)

	assumed []string // the choices of the profile the scenario relied on (assume)

	mutates     []string        // accounts restored by the After hook
	snapshotted map[string]bool // account and resource ("A users") read before its first change
	snapshots   []snapshot      // what the After hook puts back
	done        bool
}

type stateKey struct{}

func stateToContext(ctx context.Context, st *scenarioState) context.Context {
	return context.WithValue(ctx, stateKey{}, st)
}

// stateFromContext returns the scenario state. A step always runs after the
// Before hook, so a missing state is a programming error and is reported as
// a failure, not a panic.
func stateFromContext(ctx context.Context) (*scenarioState, error) {
	st, ok := ctx.Value(stateKey{}).(*scenarioState)
	if !ok {
		return nil, fmt.Errorf("steps: no scenario state in the context (was InitializeScenario used?)")
	}
	return st, nil
}

func (s *Suite) newState(pickle *godog.Scenario) *scenarioState {
	hc := *s.http // resty adjusts its client; give it a copy of ours
	client := resty.NewWithClient(&hc).
		SetRetryCount(0).
		SetDisableWarn(true).
		// A redirect is an answer of the target, to be asserted, not followed.
		SetRedirectPolicy(resty.RedirectPolicyFunc(func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}))
	st := &scenarioState{
		suite:       s,
		pickle:      pickle,
		client:      client,
		faker:       gofakeit.New(0),
		vars:        map[string]value{},
		tokens:      map[string]string{},
		covered:     map[coverageKey]bool{},
		snapshotted: map[string]bool{},
	}
	for _, pr := range s.pool.pairs {
		for _, a := range pr.accounts {
			st.secrets = append(st.secrets, a.password, a.apiKey)
		}
	}
	return st
}

func (s *Suite) notice(key, format string, args ...any) {
	s.noticeMu.Lock()
	defer s.noticeMu.Unlock()
	if s.noticed[key] {
		return
	}
	s.noticed[key] = true
	fmt.Fprintf(s.opts.Output, "pricing-contract: "+format+"\n", args...)
}
