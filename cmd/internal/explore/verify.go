package explore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing/fstest"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/steps"
)

// The fifth stage's end: a divergence shrunk, written as a reproducer and
// run with the suite against the target; reported only when it fails there.

// found shrinks a divergence, writes its reproducer, runs it with the suite
// against the target and reports it when it fails there.
func (p *pair) found(ctx context.Context, steps []Step, d *divergence) {
	sig := signature(steps, d)
	if !p.run.claim(sig) {
		return
	}
	p.run.report(p.verify(ctx, steps, d, sig))
}

// signature names a divergence by the operation of the step that showed it
// and the kind of difference: one defect found twice is reported once.
func signature(steps []Step, d *divergence) string {
	return string(steps[len(steps)-1].Op) + " | " + d.key
}

// verify shrinks a divergence, writes its reproducer and runs it with the
// suite against the target: failed is true when it fails there.
func (p *pair) verify(ctx context.Context, steps []Step, d *divergence, sig string) (dv Divergence, failed bool) {
	last := steps[len(steps)-1]
	seq := p.shrink(ctx, &sequence{steps: steps, div: d, reason: last.Describe() + ": " + d.reason})
	seq.replay = p.run.cfg.Replay
	seq.subst = p.wd.placeholders()
	feature := seq.feature()
	failed, proof := p.reproduces(ctx, feature)
	return Divergence{Reason: seq.reason, Check: seq.div.check.ID, Cite: seq.div.check.Decided.String(), Feature: feature, Pair: p.n,
		Steps: len(seq.steps), Signature: sig, Proof: proof}, failed
}

// placeholders are the accounts' secrets and how a reproducer names them:
// a line whose argument is one of them gets its placeholder.
func (wd *world) placeholders() map[string]string {
	subst := map[string]string{}
	for name, a := range wd.acct {
		subst[a.email] = "{{" + name + ".email}}"
		subst[a.password] = "{{" + name + ".password}}"
		subst[a.apiKey] = "{{" + name + ".apiKey}}"
	}
	return subst
}

// reproduces runs a reproducer with the suite against the pair's target:
// true when it fails there, with what the suite said.
func (p *pair) reproduces(ctx context.Context, feature string) (failed bool, proof string) {
	defer func() {
		if r := recover(); r != nil {
			// godog's parser fails on a reproducer it cannot read: the
			// explorer's bug, never the target's.
			failed, proof = false, fmt.Sprintf("the suite could not read the reproducer (%v):\n%s", r, feature)
		}
	}()
	suite := steps.NewSuite(p.profile, steps.Options{HTTPClient: p.w.http, Output: io.Discard})
	if err := suite.Identify(ctx); err != nil {
		return false, err.Error()
	}
	var out bytes.Buffer
	o := suite.Run("pricing-contract explore", godog.Options{
		FS: fstest.MapFS{"reproducer.feature": {Data: []byte(feature)}}, Paths: []string{"reproducer.feature"},
		Format: "progress", Output: &out, Concurrency: 1,
	})
	// The suite logged in and restored the accounts: the pair's sessions
	// and lists are learned again.
	p.relogin(ctx)
	if o.Status == 0 || len(o.Failed) == 0 {
		return false, ansi.ReplaceAllString(out.String(), "")
	}
	var why []string
	for _, f := range o.Failed {
		why = append(why, f.Err.Error())
	}
	return true, ansi.ReplaceAllString(strings.Join(why, "\n"), "")
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// relogin opens a new session of each account, A then B, after a run of
// the suite, and forgets the lists it read and the dates of the passwords
// (the suite's restore sets each password again).
func (p *pair) relogin(ctx context.Context) {
	for _, name := range []string{"A", "B"} {
		a := p.wd.acct[name]
		p.redate(ctx, a)
		if status, body, err := p.w.login(ctx, a.email, a.password); err == nil && status == http.StatusOK {
			if tok := gjson.GetBytes(body, "token").String(); tok != "" {
				a.setToken(tok)
			}
		}
	}
	p.lists.forget()
}
