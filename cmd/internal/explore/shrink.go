package explore

import (
	"context"
	"time"
)

// The fourth stage: shrinking. A divergence's sequence is replayed from
// the known state with steps, operators and forms dropped, keeping each
// change after which it still diverges the same way.

// replay sends a fixed sequence from the known state and returns it with
// the divergence of its last step (nil: none, or an earlier step diverged).
func (p *pair) replay(ctx context.Context, steps []Step) *sequence {
	s, err := p.wd.newSequence()
	if err != nil {
		return nil
	}
	var out *sequence
	for i, st := range steps {
		st.Cells = nil // a replay covers nothing new
		if d := p.take(ctx, s, i, &st); d != nil {
			if i == len(steps)-1 {
				out = &sequence{steps: s.steps, div: d, reason: st.Describe() + ": " + d.reason}
			}
			break
		}
	}
	p.restore(ctx, s, true, []string{"A", "B"})
	return out
}

// shrink drops, one at a time, the steps a divergence does not need, then
// the operators and forms of the steps left, keeping each change after
// which the sequence still diverges the same way. It gives up after 40
// replays or 20 seconds.
func (p *pair) shrink(ctx context.Context, seq *sequence) *sequence {
	key := seq.div.key
	tries, until := 0, time.Now().Add(20*time.Second)
	try := func(steps []Step) bool {
		if tries >= 40 || time.Now().After(until) || ctx.Err() != nil {
			return false
		}
		tries++
		if r := p.replay(ctx, steps); r != nil && r.div.key == key {
			seq = r
			return true
		}
		return false
	}
	for i := 0; i < len(seq.steps)-1; {
		if !try(append(append([]Step{}, seq.steps[:i]...), seq.steps[i+1:]...)) {
			i++
		}
	}
	if p.run.cfg.Replay {
		// A recording's steps are kept as they were sent: their operators
		// describe the bodies (classify), and dropping one would judge
		// the same body more strictly.
		return seq
	}
	for i := len(seq.steps) - 1; i >= 0; i-- {
		for j := 0; j < len(seq.steps[i].Muts); {
			steps := cloneSteps(seq.steps)
			steps[i].Muts = append(steps[i].Muts[:j:j], steps[i].Muts[j+1:]...)
			if !try(steps) {
				j++
			}
		}
		for _, simplify := range []func(*Step) bool{
			func(st *Step) bool { ok := st.Wire != ""; st.Wire = ""; return ok },
			func(st *Step) bool { ok := st.ContentType != ""; st.ContentType = ""; return ok },
			func(st *Step) bool { ok := st.Version != ""; st.Version = ""; return ok },
			func(st *Step) bool {
				ok := st.Op != OpLogin && st.Cred != (Cred{Scheme: "api-key", Op: "as-specified"})
				st.Cred = Cred{Scheme: "api-key", Op: "as-specified"}
				return ok
			},
		} {
			steps := cloneSteps(seq.steps)
			if simplify(&steps[i]) {
				try(steps)
			}
		}
	}
	return seq
}

func cloneSteps(steps []Step) []Step {
	out := make([]Step, len(steps))
	for i, st := range steps {
		st.Muts = append([]Mutation(nil), st.Muts...)
		out[i] = st
	}
	return out
}
