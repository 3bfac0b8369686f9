package servers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/steps"
)

// The explorer's measure: the share of wrong servers a fixed seed and
// budget find, with a reproducer that fails against each, and no
// divergence against a correct one. Rate runs it on any list of servers
// (this package lists the built-in defects, the blind audits' servers and
// the explorer's own legal variants). It is the measuring harness, not the
// product: only tests import this package, so pricing-contract links none
// of it.

// Server is a server the rate is measured on.
type Server struct {
	Name   string
	Origin string // where it comes from: a built-in defect, a blind audit, a lineage
	Legal  bool   // a correct server: the explorer must report nothing
	// Start serves it (on 127.0.0.1) and says how to reach it.
	Start func() (Target, error)
}

// Target is a started server: the profile that points at it, and how to
// stop it.
type Target struct {
	Profile steps.Profile
	Close   func()
}

// RateConfig is the run each server gets, and how many run at once.
type RateConfig struct {
	explore.Config
	Parallel int // servers explored at once; 0: 2
	// Log, when set, gets a line per server as it ends.
	Log func(string)
}

// Outcome is what the explorer made of one server.
type Outcome struct {
	Server Server
	// Found: a reproduced divergence, or the target refused by the suite's
	// preflight (exit 3). Refused says which.
	Found, Refused bool
	Reason         string // the first divergence, or why the preflight refused
	Divergences    int
	Dropped        int // divergences whose reproducer passed: not reported
	Err            error
	Took           time.Duration
}

// RateReport is the outcome of every server.
type RateReport struct {
	Outcomes []Outcome
	Took     time.Duration
}

// Rate explores each server with cfg and reports what it found.
func Rate(ctx context.Context, servers []Server, cfg RateConfig) RateReport {
	if cfg.Parallel <= 0 {
		cfg.Parallel = 2
	}
	start := time.Now()
	out := make([]Outcome, len(servers))
	slots := make(chan struct{}, cfg.Parallel)
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			out[i] = rateOne(ctx, s, cfg.Config)
			if cfg.Log != nil {
				cfg.Log(out[i].line())
			}
		}()
	}
	wg.Wait()
	return RateReport{Outcomes: out, Took: time.Since(start)}
}

func rateOne(ctx context.Context, s Server, cfg explore.Config) (o Outcome) {
	o.Server = s
	began := time.Now()
	defer func() { o.Took = time.Since(began) }()
	if !s.Legal {
		cfg.MaxDivergences = 1 // a wrong server is found once
	}
	t, err := s.Start()
	var unusable *steps.UnusableError
	switch {
	case errors.As(err, &unusable):
		o.Found, o.Refused, o.Reason = true, true, unusable.Reason
		return o
	case err != nil:
		o.Err = err
		return o
	}
	defer t.Close()
	res, err := explore.Run(ctx, t.Profile, cfg)
	switch {
	case errors.As(err, &unusable):
		o.Found, o.Refused, o.Reason = true, true, unusable.Reason
	case err != nil:
		o.Found, o.Refused, o.Reason = true, true, err.Error()
	default:
		o.Divergences, o.Dropped = len(res.Divergences), len(res.Dropped)
		o.Found = res.Diverged()
		o.Reason = res.Reason()
	}
	return o
}

func (o Outcome) line() string {
	switch {
	case o.Err != nil:
		return fmt.Sprintf("%s (%s): could not start: %v", o.Server.Name, o.Server.Origin, o.Err)
	case o.Server.Legal && o.Found:
		return fmt.Sprintf("FALSE ALARM %s (%s): %s", o.Server.Name, o.Server.Origin, o.Reason)
	case o.Refused:
		return fmt.Sprintf("refused by the preflight %s (%s): %s", o.Server.Name, o.Server.Origin, o.Reason)
	case o.Found:
		return fmt.Sprintf("found %s (%s) in %s: %s", o.Server.Name, o.Server.Origin, o.Took.Round(time.Second), o.Reason)
	case o.Server.Legal:
		return fmt.Sprintf("nothing against %s (%s), as it should", o.Server.Name, o.Server.Origin)
	}
	if o.Dropped > 0 {
		return fmt.Sprintf("MISSED %s (%s): %d found whose reproducer passed against it, not reported", o.Server.Name, o.Server.Origin, o.Dropped)
	}
	return fmt.Sprintf("MISSED %s (%s)", o.Server.Name, o.Server.Origin)
}

// Rate is how many of an origin's wrong servers were found ("" every
// origin), of how many.
func (r RateReport) Rate(origin string) (found, total int) {
	for _, o := range r.Outcomes {
		if o.Server.Legal || origin != "" && o.Server.Origin != origin {
			continue
		}
		total++
		if o.Found {
			found++
		}
	}
	return found, total
}

// FalseAlarms are the correct servers the explorer reported a divergence
// against (or could not run on).
func (r RateReport) FalseAlarms() []Outcome {
	var out []Outcome
	for _, o := range r.Outcomes {
		if o.Server.Legal && (o.Found || o.Err != nil) {
			out = append(out, o)
		}
	}
	return out
}

// Missed are the wrong servers the explorer did not find.
func (r RateReport) Missed() []Outcome {
	var out []Outcome
	for _, o := range r.Outcomes {
		if !o.Server.Legal && !o.Found {
			out = append(out, o)
		}
	}
	return out
}

// Write writes the report: a row per origin, then the servers missed and
// the false alarms.
func (r RateReport) Write(w io.Writer) {
	origins := map[string]bool{}
	for _, o := range r.Outcomes {
		origins[o.Server.Origin] = true
	}
	var names []string
	for n := range origins {
		names = append(names, n)
	}
	sort.Strings(names)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "origin\twrong found\tof\trate\trefused by the preflight\tcorrect with a divergence\t")
	for _, n := range names {
		found, total := r.Rate(n)
		refused, alarms, legal := 0, 0, 0
		for _, o := range r.Outcomes {
			if o.Server.Origin != n {
				continue
			}
			if o.Server.Legal {
				legal++
				if o.Found || o.Err != nil {
					alarms++
				}
			} else if o.Refused {
				refused++
			}
		}
		rate := "-"
		if total > 0 {
			rate = fmt.Sprintf("%.0f%%", 100*float64(found)/float64(total))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%d of %d\t\n", n, found, total, rate, refused, alarms, legal)
	}
	tw.Flush()
	for _, o := range r.Missed() {
		fmt.Fprintln(w, "  "+o.line())
	}
	for _, o := range r.FalseAlarms() {
		fmt.Fprintln(w, "  "+strings.TrimSpace(o.line()))
	}
	fmt.Fprintf(w, "in %s\n", r.Took.Round(time.Second))
}
