package report

import (
	"fmt"
	"strings"
)

// The gate's exploration (pricing-contract --explore) in the suite's
// reports: its figures in an Exploration section of the HTML report, and
// each divergence a failed case of the console's summary, the JUnit and
// the HTML reports, its reproducer attached.

// Exploration is what the gate's exploration did, as the reports show it.
type Exploration struct {
	Budget, Seed                 string
	Sequences, Requests          int
	Wire                         int64
	Cells, Exercised             int
	Divergences, NotReported     int
	Took, RequestsPerSecond, Err string
	// Found are the divergences reported, in order.
	Found []Divergence
}

// Divergence is one divergence the explorer reported.
type Divergence struct {
	Reason  string
	Feature string // the reproducer
	Proof   string // what the suite said running it against the target
	File    string // where it was written; "" for none
	Pair    int    // the pair of accounts it was found on
	Steps   int    // of the shrunk sequence
}

// Failure is the whole story of a divergence, as a failed case's text.
func (d Divergence) Failure() string {
	where := d.File
	if where == "" {
		where = "explore"
	}
	return fmt.Sprintf("divergence found by pricing-contract explore (pair %d of accounts, %d steps): %s\n\n"+
		"its reproducer fails against the target:\n%s\n\nthe reproducer (%s):\n%s", d.Pair, d.Steps, d.Reason,
		strings.TrimSpace(d.Proof), where, d.Feature)
}
