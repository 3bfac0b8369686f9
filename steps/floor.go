package steps

import (
	"context"
	"fmt"
	"strings"

	"github.com/cucumber/godog"
)

// The floor under every scenario: whatever the spec leaves open, a request
// never earns a 5xx. A status step fails on one already; the floor also
// holds the requests whose status no step asserts (a request made on the
// way to another check, or one whose status the spec leaves open), so that
// a server error fails the scenario that caused it.

// noteStep keeps the text of the step that runs, so that a request it sends
// can be named in the floor's message.
func noteStep(ctx context.Context, step *godog.Step) (context.Context, error) {
	if st, err := stateFromContext(ctx); err == nil {
		st.step = step.Text
	}
	return ctx, nil
}

// serverErrors is the error of a scenario in which the target answered one
// of the scenario's requests with a 5xx that no step asserted on purpose and
// no failing step has shown already; nil when there is none. The requests
// are those the steps sent (record keeps them): the preflight, the snapshot
// and the restore of a @mutates-X scenario are not the scenario's. The
// After hook calls it before the restore, so that the restore's requests
// cannot hide or add to what the scenario caused.
func (st *scenarioState) serverErrors() error {
	var found []string
	for i, ex := range st.sent {
		if ex.err != nil || ex.status < 500 || ex.status > 599 || ex.expected || ex.shown {
			continue
		}
		found = append(found, fmt.Sprintf("request %d of %d, sent by the step %q:\n%s", i+1, len(st.sent), ex.step, st.dump(ex)))
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("the target answered %d request(s) of this scenario with a server error (5xx); whatever the spec leaves open, a client's request never earns one\n\n%s",
		len(found), strings.Join(found, "\n"))
}
