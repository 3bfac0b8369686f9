package steps

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/steps/match"
)

// The scenario lifecycle: the hooks that take a pair of accounts from the
// pool, read what a scenario may change before its first change, and write
// it back afterwards (also when the scenario failed).

// Hooks, the pool and restores.

var (
	mentionOf = map[string]*regexp.Regexp{
		"A": regexp.MustCompile(`account "A"|\{\{\s*A\.`),
		"B": regexp.MustCompile(`account "B"|\{\{\s*B\.`),
	}
	fixtureRef = regexp.MustCompile(`(template|shape) "([^"]+)"`)
)

// beforeScenario creates the scenario state and, when the scenario names
// an account, takes a pair of accounts from the pool in one acquisition:
// exclusively the accounts it changes (@mutates-A, @mutates-B), shared the
// ones it only reads. It returns the context with the state even on error,
// so that the After hook can release what was taken.
func (s *Suite) beforeScenario(ctx context.Context, sc *godog.Scenario) (context.Context, error) {
	st := s.newState(sc)
	ctx = stateToContext(ctx, st)
	text := s.scenarioText(sc)
	var n need
	for i, acct := range accountNames {
		switch {
		case hasTag(sc, "@mutates-"+acct):
			n[i] = exclusiveAccess
			st.mutates = append(st.mutates, acct)
		case mentionOf[acct].MatchString(text):
			n[i] = sharedAccess
		}
	}
	if !n.any() {
		return ctx, nil
	}
	pr, err := s.pool.acquire(ctx, n)
	if err != nil {
		return ctx, fmt.Errorf("waiting for a pair of accounts: %w", err)
	}
	st.pair, st.need = pr, n
	return ctx, nil
}

// afterScenario ends the scenario, whatever its outcome: first what checks
// the scenario as a whole (it sees the scenario's own requests, not the
// restore's), then the restore of what it changed, then the release of its
// pair. A failed restore fails the scenario.
func (s *Suite) afterScenario(ctx context.Context, _ *godog.Scenario, _ error) (context.Context, error) {
	st, err := stateFromContext(ctx)
	if err != nil || st.done {
		return ctx, nil
	}
	st.done = true
	err = errors.Join(st.serverErrors(), st.restore(ctx)) // the floor first: the restore's requests are not the scenario's
	if st.pair != nil {
		s.pool.release(st.pair, st.need)
	}
	return ctx, err
}

func hasTag(sc *godog.Scenario, tag string) bool {
	for _, t := range sc.Tags {
		if t.Name == tag {
			return true
		}
	}
	return false
}

// scenarioText is every word of the scenario that may name an account: step
// texts, doc strings, table cells and the body templates and shapes they
// refer to.
func (s *Suite) scenarioText(sc *godog.Scenario) string {
	var b strings.Builder
	for _, step := range sc.Steps {
		b.WriteString(step.Text)
		b.WriteByte('\n')
		for _, m := range fixtureRef.FindAllStringSubmatch(step.Text, -1) {
			dir := "bodies"
			if m[1] == "shape" {
				dir = "shapes"
			}
			if data, err := s.fixture(dir, m[2]); err == nil {
				b.Write(data)
				b.WriteByte('\n')
			}
		}
		if step.Argument == nil {
			continue
		}
		if ds := step.Argument.DocString; ds != nil {
			b.WriteString(ds.Content)
			b.WriteByte('\n')
		}
		if dt := step.Argument.DataTable; dt != nil {
			for _, row := range dt.Rows {
				for _, c := range row.Cells {
					b.WriteString(c.Value)
					b.WriteByte('\n')
				}
			}
		}
	}
	return b.String()
}

// snapshot is one resource of an account that the After hook puts back:
// a PUT of its path with a body made from what it was before the
// scenario's first change.
type snapshot struct {
	acct, res, what, path string // res: "users" or "clients"
	body                  []byte
}

func (sn snapshot) key() string { return sn.acct + " " + sn.res }

// safeMethod are the methods that change nothing on a correct server.
var safeMethod = map[string]bool{http.MethodGet: true, http.MethodHead: true, http.MethodOptions: true}

// beforeChange takes, before the scenario's first request that may change
// it, what the After hook will restore: for a request of any other method
// than GET, HEAD and OPTIONS to /users… the user of each account the
// scenario mutates, to /clients… its client. A scenario that changes only
// a user neither reads nor restores a client, and one that changes nothing
// restorable reads nothing. Another request (POST /apps) changes nothing
// that a PUT could put back. The first scenario of a pair reads the
// resource; later ones take the snapshot its restore wrote back.
func (st *scenarioState) beforeChange(ctx context.Context, out outgoing) error {
	if len(st.mutates) == 0 || safeMethod[out.method] {
		return nil
	}
	res := st.suite.resourceOf(out)
	if res != "users" && res != "clients" {
		return nil
	}
	var todo []string
	var ids []accountIDs
	for _, acct := range st.mutates {
		key := acct + " " + res
		if st.snapshotted[key] {
			continue
		}
		st.snapshotted[key] = true
		if sn, ok := st.pair.keptSnapshot(key); ok {
			if sn != nil {
				st.snapshots = append(st.snapshots, *sn)
			}
			continue
		}
		// A login for the ids changes the scenario's state: one at a time.
		id, err := st.accountIDs(ctx, acct)
		if err != nil {
			return fmt.Errorf("reading account %s before the scenario changes it: %w", acct, err)
		}
		todo, ids = append(todo, acct), append(ids, id)
	}
	snaps := make([]*snapshot, len(todo))
	err := parallel(len(todo), func(i int) (err error) {
		snaps[i], err = st.snapshot(ctx, todo[i], res, ids[i])
		return err
	})
	for _, sn := range snaps {
		if sn != nil {
			st.snapshots = append(st.snapshots, *sn)
		}
	}
	return err
}

// resourceOf is the first segment of a request's path below the version.
func (s *Suite) resourceOf(out outgoing) string {
	_, segs := s.apiPath(out)
	return segs[0]
}

// snapshot reads the account's user or client with the account's api key.
// When the target does not answer GET /users/:id, the user is restored
// from the profile; when it does not answer GET /clients/:id, the client
// is not restored (nil). Either way a notice says so, once per run and
// account.
func (st *scenarioState) snapshot(ctx context.Context, acct, res string, ids accountIDs) (*snapshot, error) {
	a, err := st.accountOf(acct)
	if err != nil {
		return nil, err
	}
	if res == "users" {
		path := "/users/" + ids.userID
		ex := st.get(ctx, a, path)
		if ex.err != nil {
			return nil, fmt.Errorf("reading %s before the scenario changes it: %w\n\n%s", a.label(), ex.err, st.dump(ex))
		}
		user := gjson.ParseBytes(ex.respBody)
		if ex.status == http.StatusOK && user.IsObject() && user.Get("email").Exists() {
			return &snapshot{acct, res, a.label(), path, restoreBody(user, a.password)}, nil
		}
		st.suite.notice("restore-"+acct,
			"GET /users/%s answered %d without a user object: after a @mutates-%s scenario account %s is restored from the profile "+
				"(email, password, firstName %q, lastName %q, timezone %q; subscribeWelcome, subscribeBlog, subscribeHowto and subscribeOnboarding false; "+
				"phone country %s, number %q, extension %s)",
			ids.userID, ex.status, acct, acct, a.firstName, a.lastName, a.timezone, a.phoneCountryID, a.phoneNumber, a.phoneExtensionJSON())
		return &snapshot{acct, res, a.label(), path, profileRestoreBody(a)}, nil
	}
	if ids.clientID == "" || ids.clientID == "null" {
		st.pair.keepSnapshot(acct+" "+res, nil)
		return nil, nil // no client to put back
	}
	path := "/clients/" + ids.clientID
	ex := st.get(ctx, a, path)
	if ex.err != nil {
		return nil, fmt.Errorf("reading the client of %s before the scenario changes it: %w\n\n%s", a.label(), ex.err, st.dump(ex))
	}
	client := gjson.ParseBytes(ex.respBody)
	if ex.status != http.StatusOK || !client.IsObject() || !client.Get("name").Exists() {
		st.suite.notice("restore-client-"+acct,
			"GET /clients/%s answered %d without a client object: after a @mutates-%s scenario the client of account %s is not restored",
			ids.clientID, ex.status, acct, acct)
		st.pair.keepSnapshot(acct+" "+res, nil)
		return nil, nil
	}
	return &snapshot{acct, res, "the client of " + a.label(), path, clientRestoreBody(client)}, nil
}

// get reads a resource with the account's api key, outside the scenario's
// requests: it is neither the last response nor counted for coverage.
func (st *scenarioState) get(ctx context.Context, a account, path string) *exchange {
	out := outgoing{method: http.MethodGet, header: http.Header{}}
	out.url, _ = st.suite.endpointURL(path, "")
	out.header.Set("Authorization", "api-key "+a.apiKey)
	return st.do(ctx, out)
}

// jsonObject writes a JSON object from keys and raw JSON values, in order.
type jsonObject struct{ b strings.Builder }

func (o *jsonObject) add(key, raw string) {
	if o.b.Len() == 0 {
		o.b.WriteByte('{')
	} else {
		o.b.WriteByte(',')
	}
	o.b.WriteString(match.JSONString(key) + ":" + raw)
}

func (o *jsonObject) bytes() []byte {
	if o.b.Len() == 0 {
		return []byte("{}")
	}
	return []byte(o.b.String() + "}")
}

// restoreBody is the PUT /users body that writes the snapshot back: the
// members of the user's shape as the snapshot has them (the phone fields
// only when the target showed them), and the profile's password.
func restoreBody(user gjson.Result, password string) []byte {
	o := putBackFrom("user", user)
	o.add("password", match.JSONString(password))
	return o.bytes()
}

// profileRestoreBody is the PUT /users body when there is no snapshot:
// every field of the spec's body table and the phone fields of 7.3, because
// a target may require them all, from the profile. The subscribe flags are
// not in the profile; false is the choice that sends no mail.
func profileRestoreBody(a account) []byte {
	var o jsonObject
	o.add("email", match.JSONString(a.email))
	o.add("firstName", match.JSONString(a.firstName))
	o.add("lastName", match.JSONString(a.lastName))
	for _, k := range []string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"} {
		o.add(k, "false")
	}
	o.add("timezone", match.JSONString(a.timezone))
	o.add("password", match.JSONString(a.password))
	// Without a phone country the phone is left as it is: the spec's body
	// table has no phone fields.
	if a.phoneCountryID != "" {
		o.add("phoneCountry", `{"id":`+numberOrText(a.phoneCountryID).jsonText()+`}`)
		o.add("phoneNumber", match.JSONString(a.phoneNumber))
		o.add("phoneExtension", a.phoneExtensionJSON())
	}
	return o.bytes()
}

// phoneExtensionJSON is the extension as JSON: null for the profile's "null".
func (a account) phoneExtensionJSON() string {
	if a.phoneExtension == "null" {
		return "null"
	}
	return match.JSONString(a.phoneExtension)
}

// clientRestoreBody is the PUT /clients body that writes a client snapshot
// back: the members of the client's shape as the snapshot has them, and the
// terms accepted (4.4 takes the fields of POST /clients).
func clientRestoreBody(client gjson.Result) []byte {
	o := putBackFrom("client", client)
	o.add("terms", match.JSONString("I agree"))
	return o.bytes()
}

// readOnly are the members of section 2's objects that no body of section 4
// takes: a restore that sent them back could be refused for them.
var readOnly = map[string]bool{"id": true, "created": true, "createdDate": true, "passwordLastChanged": true}

// putBackFrom writes the snapshot's value of every member of the object's
// response shape (fixtures/shapes, the spec's objects as the suite reads
// them), so that a field the spec adds is put back once its shape has it:
// an object as its id, an optional member ("##") left out when the snapshot
// has none, a member the snapshot lacks left out, a read-only or absent
// ("#notpresent") one never sent. The shapes embedded in the suite are
// used, not a fixtures directory's: a shape widened for a target's own
// members must not send them.
func putBackFrom(object string, snapshot gjson.Result) *jsonObject {
	shape, err := fs.ReadFile(fixtures.Shapes(), object+".json")
	if err != nil {
		panic(err) // embedded at build time; TestRestoreBodiesPutBackEveryField reads both
	}
	o := &jsonObject{}
	gjson.ParseBytes(shape).ForEach(func(k, marker gjson.Result) bool {
		name := k.String()
		v := snapshot.Get(gjson.Escape(name))
		switch {
		case readOnly[name] || marker.String() == "#notpresent" || !v.Exists():
		case marker.IsObject():
			if id := v.Get("id"); id.Exists() {
				o.add(name, `{"id":`+id.Raw+`}`)
			}
		case strings.HasPrefix(marker.String(), "##") && v.Type == gjson.Null:
		default:
			o.add(name, v.Raw)
		}
		return true
	})
	return o
}

// restoreTimeout bounds the restore of a scenario, retries included.
const restoreTimeout = time.Minute

// restore writes back every snapshot, all at once: each is a resource of
// its own, and attempted whatever became of the others. The pair keeps
// what was written back for its next scenario, and forgets what failed.
func (st *scenarioState) restore(ctx context.Context) error {
	// A cancelled run (a test timeout, an interrupt) must still put a shared
	// account back, so the restore gets a context of its own.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), restoreTimeout)
	defer cancel()
	return parallel(len(st.snapshots), func(i int) error {
		sn := st.snapshots[i]
		if err := st.put(ctx, sn.acct, sn.what, sn.path, sn.body); err != nil {
			st.pair.forgetSnapshot(sn.key())
			return err
		}
		st.pair.keepSnapshot(sn.key(), &sn)
		return nil
	})
}

func (st *scenarioState) put(ctx context.Context, acct, what, path string, body []byte) error {
	a, err := st.accountOf(acct)
	if err != nil {
		return err
	}
	out := outgoing{method: http.MethodPut, header: http.Header{}, body: body}
	out.url, _ = st.suite.endpointURL(path, "")
	out.header.Set("Authorization", "api-key "+a.apiKey)
	out.header.Set("Content-Type", "application/json")
	ex := st.do(ctx, out)
	if ex.err != nil {
		return fmt.Errorf("restoring %s: %w\n\n%s", what, ex.err, st.dump(ex))
	}
	if ex.status != http.StatusOK {
		return fmt.Errorf("restoring %s: PUT %s answered %d, want 200\n\n%s", what, path, ex.status, st.dump(ex))
	}
	return nil
}

// parallelLimit bounds the requests that parallel sends at once.
const parallelLimit = 16

// parallel runs f(0) … f(n-1), at most parallelLimit at a time, and
// returns their errors joined, in the order of i.
func parallel(n int, f func(i int) error) error {
	errs := make([]error, n)
	sem := make(chan struct{}, parallelLimit)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = f(i)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
