package steps

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/pricing-contract/pricing-contract/steps/match"
)

// concurrentSteps send requests at once: each is prepared as a send would
// make it (the account, the scheme, the headers and the body the Given
// steps set), then all leave together, and each answer is kept under its
// name, for the assertions to look at one after the other. What a correct
// server answers to requests at once is what some order of them answers:
// two creates get two ids, of two claims on one email one is refused.
type concurrentSteps struct{}

func (c concurrentSteps) steps() []stepDef {
	return []stepDef{
		{`^I prepare "([A-Za-z]+)" to ` + match.Quoted + ` as ` + match.Quoted + `$`, c.iPrepare},
		{`^I send the prepared requests at once$`, c.iSendThePreparedRequestsAtOnce},
		{`^I look at the answer ` + match.Quoted + `$`, c.iLookAtTheAnswer},
		{`^exactly one of the answers ` + match.Quoted + ` and ` + match.Quoted + ` has the status (\d{3})$`, c.exactlyOneOfTheAnswersHasTheStatus},
	}
}

// prepared is a request made ready by iPrepare, and its name.
type prepared struct {
	name string
	out  outgoing
}

func (concurrentSteps) iPrepare(ctx context.Context, method, p, name string) error {
	p, name = match.UnescapeArg(p), match.UnescapeArg(name)
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	out, _, err := st.prepare(ctx, method, p, "")
	if err != nil {
		return err
	}
	st.prepared = append(st.prepared, prepared{name: name, out: out})
	return nil
}

func (concurrentSteps) iSendThePreparedRequestsAtOnce(ctx context.Context) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	if len(st.prepared) < 2 {
		return fmt.Errorf("%d requests prepared: at once needs two or more (I prepare ... as ...)", len(st.prepared))
	}
	reqs := st.prepared
	st.prepared = nil
	st.warmConnections(ctx, len(reqs))
	answers := make([]*exchange, len(reqs))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, r := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			answers[i] = st.do(ctx, r.out)
		}()
	}
	close(start)
	wg.Wait()
	if st.answers == nil {
		st.answers = map[string]*exchange{}
	}
	for i, ex := range answers {
		st.record(ex)
		st.answers[reqs[i].name] = ex
		if ex.err != nil {
			return st.fail("%s %s (%s): %v", ex.out.method, ex.url, reqs[i].name, ex.err)
		}
	}
	return nil
}

// warmConnections opens n connections to the target at once, each
// answered and left idle, so that the n requests sent at once next go out
// on open connections and reach the server within a moment of each other,
// not one handshake apart: a race that needs them to overlap by a few
// milliseconds shows in every try (the ledger lineage's lost password
// showed in some). A GET of the base URL changes nothing; its answer is
// not looked at.
func (st *scenarioState) warmConnections(ctx context.Context, n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = st.client.R().SetContext(ctx).Get(st.suite.profile.BaseURL)
		}()
	}
	wg.Wait()
}

func (concurrentSteps) iLookAtTheAnswer(ctx context.Context, name string) error {
	name = match.UnescapeArg(name)
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	ex, ok := st.answers[name]
	if !ok {
		return fmt.Errorf("no answer named %q: name it in a step \"I prepare ... as NAME\" first", name)
	}
	st.last = ex
	return nil
}

func (concurrentSteps) exactlyOneOfTheAnswersHasTheStatus(ctx context.Context, a, b string, status int) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	n := 0
	var got []string
	for _, name := range []string{match.UnescapeArg(a), match.UnescapeArg(b)} {
		ex, ok := st.answers[name]
		if !ok {
			return fmt.Errorf("no answer named %q", name)
		}
		if ex.status == status {
			n++
		}
		got = append(got, fmt.Sprintf("%s %d", name, ex.status))
	}
	if n != 1 {
		return st.fail("%d of the answers have the status %d, want exactly one: %s", n, status, strings.Join(got, ", "))
	}
	return nil
}
