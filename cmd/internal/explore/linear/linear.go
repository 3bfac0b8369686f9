// Package linear judges a concurrent history: what a target answered to
// requests that overlapped in time must be what some serial order of them,
// consistent with real time, answers on the reference (mockserver/api over
// a pricing.Store): two overlapping updates, each answered with its own
// record and one of them left at the end; two creates given two ids; of two
// claims on one email, one refused. The search is porcupine's (Wing and
// Gong's algorithm with Lowe's memoisation), the reference its model: a
// step clones the reference's store and serves the request on the clone.
package linear

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Op is one request of a history: what was sent, as the reference reads it,
// what the target answered, and when (nanoseconds on one clock).
type Op struct {
	Label string // how a report names it: "A PUT /users/7 firstName=X"
	// Lane is the sender (a goroutine of the explorer); Partition groups the
	// operations that may touch the same data (the accounts of one pair):
	// ops of different partitions are judged apart.
	Lane      int
	Partition string
	Req       api.Request
	Got       Answer
	Call      int64
	Return    int64
	// AnyRefusal: any 4xx refuses it alike, 401 too (a login, whose
	// refusal the spec names no status for).
	AnyRefusal bool
	// MayRefuse: the target may refuse it whatever the reference answers
	// (a freedom: an app of no store), with any 4xx but 401, and then it
	// changed nothing.
	MayRefuse bool
	// Foreign are the fields of its answer whose value is the target's own
	// (the name of an app made from the target's marketplace app), which
	// the reference cannot know.
	Foreign []string
}

// Answer is the target's answer to an Op.
type Answer struct {
	Status int
	Body   []byte
}

// Agrees reports whether the target's answer to op is one a correct server
// gives where the reference answers ref: the caller's judgement, modulo the
// choices the spec leaves to the server.
type Agrees func(op Op, ref api.Response) bool

// Result is the verdict on a history.
type Result struct {
	// Linearizable: some serial order explains every answer; Unknown: the
	// search ran out of time (no verdict).
	Linearizable, Unknown bool
	// Longest is, for a history that is not, the longest serial order of
	// its operations the search found that explains their answers: where it
	// ends, the next operation has no explanation.
	Longest []int
	Took    time.Duration
}

// Check judges a history from the reference's state start, which it does
// not change.
func Check(start *pricing.Store, ops []Op, agrees Agrees, timeout time.Duration) Result {
	ref := api.New(api.Options{MaxBody: 64 << 20})
	history := make([]porcupine.Operation, len(ops))
	for i, op := range ops {
		history[i] = porcupine.Operation{ClientId: op.Lane, Input: i, Call: op.Call, Output: i, Return: op.Return}
	}
	model := porcupine.Model{
		Init: func() interface{} { return newState(start.Clone(), nil) },
		Step: func(state, input, _ interface{}) (bool, interface{}) {
			s := state.(*modelState)
			op := ops[input.(int)]
			if op.MayRefuse && Outcome(op.Got.Status) == "refused" {
				return true, s
			}
			next := s.st.Clone()
			resp := ref.Serve(next, op.Req)
			if !agrees(op, resp) {
				return false, s
			}
			return true, newState(next, s.passwordAfter(op.Req, resp))
		},
		Equal: func(a, b interface{}) bool { return a.(*modelState).key == b.(*modelState).key },
		Hash:  func(s interface{}) uint64 { return s.(*modelState).hash },
		Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
			parts := map[string][]porcupine.Operation{}
			var order []string
			for _, o := range h {
				p := ops[o.Input.(int)].Partition
				if _, ok := parts[p]; !ok {
					order = append(order, p)
				}
				parts[p] = append(parts[p], o)
			}
			var out [][]porcupine.Operation
			for _, p := range order {
				out = append(out, parts[p])
			}
			return out
		},
		DescribeOperation: func(input, _ interface{}) string {
			op := ops[input.(int)]
			return fmt.Sprintf("%s -> %d", op.Label, op.Got.Status)
		},
	}
	began := time.Now()
	res, info := porcupine.CheckOperationsVerbose(model, history, timeout)
	r := Result{Linearizable: res == porcupine.Ok, Unknown: res == porcupine.Unknown, Took: time.Since(began)}
	if res == porcupine.Illegal {
		for _, part := range info.PartialLinearizations() {
			for _, lin := range part {
				if len(lin) > len(r.Longest) {
					r.Longest = slices.Clone(lin)
				}
			}
		}
	}
	return r
}

// modelState is the reference at one point of a serial order: its store,
// never changed once made, and the passwords the order set (a store holds
// them salted, differently in every branch), with the key that tells two
// states alike.
type modelState struct {
	st        *pricing.Store
	passwords map[int64]string
	key       string
	hash      uint64
}

func newState(st *pricing.Store, passwords map[int64]string) *modelState {
	s := &modelState{st: st, passwords: passwords}
	s.key = fingerprint(st, passwords)
	h := fnv.New64a()
	h.Write([]byte(s.key))
	s.hash = h.Sum64()
	return s
}

// passwordAfter are the passwords once the request is served: a PUT
// /users that set one, answered 200, changes its user's.
func (s *modelState) passwordAfter(r api.Request, resp api.Response) map[int64]string {
	if r.Method != "PUT" || resp.Status != 200 || !strings.Contains(r.Path, "/users/") {
		return s.passwords
	}
	var body struct {
		Password *string `json:"password"`
	}
	var answer struct {
		ID int64 `json:"id"`
	}
	if json.Unmarshal(r.Body, &body) != nil || body.Password == nil || json.Unmarshal(resp.Body, &answer) != nil {
		return s.passwords
	}
	out := map[int64]string{answer.ID: *body.Password}
	for id, pw := range s.passwords {
		if id != answer.ID {
			out[id] = pw
		}
	}
	return out
}

// fingerprint is what a state shows of the spec's data, without what
// differs between two runs of the same writes (dates, write keys, salted
// hashes, session tokens).
func fingerprint(st *pricing.Store, passwords map[int64]string) string {
	ex := st.Export()
	for i := range ex.Users {
		u := &ex.Users[i]
		u.Created, u.PasswordLastChanged = time.Time{}, time.Time{}
		u.Password, u.PasswordSalt, u.PasswordHash = passwords[u.ID], "", ""
	}
	for i := range ex.Clients {
		ex.Clients[i].CreatedDate = time.Time{}
	}
	for i := range ex.Apps {
		ex.Apps[i].Created, ex.Apps[i].WriteKey = time.Time{}, ""
	}
	b, _ := json.Marshal(struct {
		Users   []pricing.StateUser
		Clients []pricing.StateClient
		Apps    []pricing.StateApp
	}{ex.Users, ex.Clients, ex.Apps})
	return string(b)
}

// Outcome is the class of a status: what a serial order must reproduce of
// it, where the spec names a status for a condition and leaves the others
// to the server (any 4xx but 401).
func Outcome(status int) string {
	switch {
	case status == 200:
		return "taken"
	case status == 401:
		return "unauthenticated"
	case status >= 400 && status < 500:
		return "refused"
	}
	return fmt.Sprintf("%d", status)
}

// SameFields is an Agrees that holds the target to the reference's
// outcome and, on a 200, to the values of fields (gjson paths read
// loosely: top-level names) in the reference's answer, where it has them.
func SameFields(fields ...string) Agrees {
	return func(op Op, ref api.Response) bool {
		got, want := Outcome(op.Got.Status), Outcome(ref.Status)
		if op.AnyRefusal && got == "unauthenticated" {
			got = "refused"
		}
		if op.AnyRefusal && want == "unauthenticated" {
			want = "refused"
		}
		if got != want {
			return false
		}
		if ref.Status != 200 {
			return true
		}
		var wantObj, gotObj map[string]any
		if json.Unmarshal(ref.Body, &wantObj) != nil || json.Unmarshal(op.Got.Body, &gotObj) != nil {
			return false
		}
		for _, f := range fields {
			w, ok := wantObj[f]
			if !ok || slices.Contains(op.Foreign, f) {
				continue
			}
			ws, isString := w.(string)
			gs, _ := gotObj[f].(string)
			if !isString || f == "email" && !strings.EqualFold(ws, gs) || f != "email" && ws != gs {
				return false
			}
		}
		return true
	}
}
