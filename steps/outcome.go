package steps

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/features"
)

// Outcome is what one run of the features came to.
type Outcome struct {
	Status int       // godog's exit status: 0 when every scenario passed
	Ran    int       // the scenarios started
	Failed []Failure // the scenarios that failed, by file and name
	Output string    // what godog's formatters wrote, unless opts.Output took it
}

// Failure is one scenario that failed.
type Failure struct {
	URI, Name string
	Tags      []string
	Err       error
}

// String names the scenario by its file and name.
func (f Failure) String() string { return f.URI + ": " + f.Name }

// Run runs features against the suite's target and collects what failed,
// for a program or a test that judges the outcome itself. The run is
// strict, an undefined or pending step fails, and without colours. Given
// no features (FS, Paths or FeatureContents) it runs every embedded one;
// given opts.FS and no paths, every feature of opts.FS.
func (s *Suite) Run(name string, opts godog.Options) Outcome {
	var (
		// godog's formatters serialise their writes, and the buffer is read
		// once the run is over.
		out     bytes.Buffer
		ran     atomic.Int64
		mu      sync.Mutex
		outcome Outcome
	)
	opts.Strict, opts.NoColors = true, true
	if opts.FS == nil && len(opts.Paths) == 0 && len(opts.FeatureContents) == 0 {
		opts.FS = features.FS
	}
	if opts.FS != nil && len(opts.Paths) == 0 {
		opts.Paths = []string{"."}
	}
	if opts.Output == nil {
		opts.Output = &out
	}
	outcome.Status = godog.TestSuite{
		Name:                 name,
		TestSuiteInitializer: s.InitializeTestSuite,
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
				ran.Add(1)
				return ctx, nil
			})
			s.InitializeScenario(sc)
			// Registered last, so it sees the errors of the library's hooks too.
			sc.After(func(ctx context.Context, sc *godog.Scenario, err error) (context.Context, error) {
				if err != nil && !errors.Is(err, godog.ErrSkip) {
					f := Failure{URI: sc.Uri, Name: sc.Name, Err: err}
					for _, tag := range sc.Tags {
						f.Tags = append(f.Tags, tag.Name)
					}
					mu.Lock()
					outcome.Failed = append(outcome.Failed, f)
					mu.Unlock()
				}
				return ctx, nil
			})
		},
		Options: &opts,
	}.Run()
	outcome.Ran = int(ran.Load())
	slices.SortFunc(outcome.Failed, func(a, b Failure) int { return strings.Compare(a.String(), b.String()) })
	outcome.Output = out.String()
	return outcome
}
