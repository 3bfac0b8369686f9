package explore

import (
	"net/http"
	"slices"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// A server may bound what an account keeps (8: "Rate limits: not shown";
// nothing in the spec deletes a client or an app, and a long exploration
// makes thousands): past createBound creates of a kind by one account in
// the run, a create may be refused with any 4xx but 401 (freedom bounds).
// Below it, a valid create refused is a divergence.

// createBound is the fewest creates of a kind an account makes before a
// target may refuse more: the suite's.
const createBound = target.CreateBound

// creates is the kind of entity a step makes: "client", "app", or "".
func creates(st Step) string {
	switch st.Op {
	case OpPostClient:
		return "client"
	case OpPostApp:
		return "app"
	case OpPutUser:
		if _, ok := st.Body()["client"].(map[string]any); ok {
			return "client"
		}
	}
	return ""
}

// counted counts an accepted create of the step's account.
func (j judgement) counted(st Step, status int) {
	kind := creates(st)
	if kind == "" || status != http.StatusOK {
		return
	}
	j.k.mu.Lock()
	j.k.created[j.owner(st.Actor)+" "+kind]++
	j.k.mu.Unlock()
}

// pastBound reports whether the account made createBound creates of the
// kind already.
func (j judgement) pastBound(actor, kind string) bool {
	j.k.mu.Lock()
	defer j.k.mu.Unlock()
	return kind != "" && j.k.created[j.owner(actor)+" "+kind] >= createBound
}

// bounded widens the verdict of a create past the bound: a refusal with
// any 4xx but 401 that names no field of the body is correct too. A create the reference answers with 401
// alone (no correct credentials) is judged as it is: 5's 401 comes before
// any bound of an account the server does not know. One it may answer 401
// or otherwise (a session its user's new password may have ended) is
// widened.
func (j judgement) bounded(st Step, v *verdict) {
	if slices.Contains(v.statuses, http.StatusUnauthorized) && !slices.Contains(v.statuses, http.StatusOK) && !slices.Contains(v.statuses, http.StatusBadRequest) {
		return
	}
	if j.pastBound(st.Actor, creates(st)) {
		v.bound = !v.any4xx && !v.anyNames
		v.any4xx, v.noField = true, true
		v.alone = append(v.alone, "")
		v.grant(policy.Bounds)
	}
}

// countBefore starts the counts of a pair's accounts from the creates they
// made before the run (the gate's scenarios, by email and kind): a target
// that keeps 20 clients a user refuses the explorer's third after the
// scenarios' seventeen.
func (k *knowledge) countBefore(label string, wd *world, created map[string]int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, actor := range []string{"A", "B"} {
		for _, kind := range []string{"client", "app"} {
			k.created[label+actor+" "+kind] = created[wd.acct[actor].email+" "+kind]
		}
	}
}
