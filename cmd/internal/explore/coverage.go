package explore

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// coverage is what a run exercised of the input space: each cell of the
// catalogue, how often a step carried it, with which verdict of the
// reference, and how often the target diverged there.
type coverage struct {
	mu    sync.Mutex
	all   []Cell // every cell of the catalogue for the target
	stats map[Cell]*cellStat
	// full is when the last cell of the catalogue was first exercised
	// (zero: not yet), from the run's start.
	start, full time.Time
	left        int // cells not exercised yet
}

type cellStat struct {
	sent int
	// alone counts the steps that sent the cell's operator as their only
	// change of the body, in its plain form: where its verdict is its own.
	alone    int
	verdicts map[string]int // the reference's verdict (its statuses) -> steps
	diverged int
}

func newCoverage(cells []Cell) *coverage {
	c := &coverage{all: cells, stats: map[Cell]*cellStat{}, start: time.Now(), left: len(cells)}
	for _, cell := range cells {
		c.stats[cell] = &cellStat{verdicts: map[string]int{}}
	}
	return c
}

// record counts a step's cells with the reference's verdict (the statuses
// it allows, in words) and whether the target diverged.
func (c *coverage) record(cells []Cell, verdict string, diverged, alone bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, cell := range cells {
		st, ok := c.stats[cell]
		if !ok {
			continue // a cell of a setup step the catalogue does not list
		}
		if st.sent == 0 {
			c.left--
			if c.left == 0 {
				c.full = time.Now()
			}
		}
		st.sent++
		if alone && i == 0 {
			st.alone++
		}
		st.verdicts[verdict]++
		if diverged {
			st.diverged++
		}
	}
}

// leastExercised is a cell among those exercised least, drawn uniformly.
// sentAlone reports whether a step sent a cell's operator alone.
func (c *coverage) sentAlone(cell Cell) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.stats[cell]
	return !ok || st.alone > 0
}

func (c *coverage) leastExercised(cells []Cell, r *rand.Rand) Cell {
	c.mu.Lock()
	defer c.mu.Unlock()
	least, n := -1, 0
	var pick Cell
	for _, cell := range cells {
		st := c.stats[cell]
		switch {
		case least < 0 || st.sent < least:
			least, n, pick = st.sent, 1, cell
		case st.sent == least:
			n++
			if r.IntN(n) == 0 {
				pick = cell
			}
		}
	}
	return pick
}

// CellReport is one cell as --coverage writes it.
type CellReport struct {
	Operation string         `json:"operation"`
	Position  string         `json:"position"`
	Operator  string         `json:"operator"`
	Kind      string         `json:"kind"`
	Source    string         `json:"source"`
	Sent      int            `json:"sent"`
	Verdicts  map[string]int `json:"verdicts"` // the statuses the reference allowed -> steps
	Diverged  int            `json:"diverged"`
}

// CoverageReport is the whole of --coverage FILE.
type CoverageReport struct {
	Cells     int `json:"cells"`
	Exercised int `json:"exercised"`
	// FullAfter is how long the run took to exercise every cell ("" not
	// all were).
	FullAfter string       `json:"fullAfter,omitempty"`
	Table     []CellReport `json:"table"`
}

// report is the coverage as data.
func (c *coverage) report() CoverageReport {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := CoverageReport{Cells: len(c.all)}
	if !c.full.IsZero() {
		r.FullAfter = c.full.Sub(c.start).Round(time.Millisecond).String()
	}
	for _, cell := range c.all {
		st := c.stats[cell]
		kind, source := operatorOf(cell)
		verdicts := map[string]int{}
		for k, v := range st.verdicts {
			verdicts[k] = v
		}
		if st.sent > 0 {
			r.Exercised++
		}
		r.Table = append(r.Table, CellReport{Operation: string(cell.Op), Position: cell.Position, Operator: cell.Operator,
			Kind: kind, Source: source, Sent: st.sent, Verdicts: verdicts, Diverged: st.diverged})
	}
	return r
}

// operatorOf is the kind and source of a cell's operator.
func operatorOf(c Cell) (kind, source string) {
	if o, ok := bodyOp(c.Operator); ok && !strings.HasPrefix(c.Position, posCredential) && !strings.HasPrefix(c.Position, posLogin) {
		return o.Kind.String(), o.Source
	}
	for _, list := range positionOps() {
		if o, ok := findPosOp(list, c.Operator); ok {
			return o.Kind.String(), o.Source
		}
	}
	return "", ""
}

// writeJSON writes the coverage as JSON.
func (c *coverage) writeJSON(w io.Writer) error {
	b, err := json.MarshalIndent(c.report(), "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// writeTable writes the summary's table: for each operation, its cells
// by kind of operator, how many were exercised, and the steps that
// diverged; then the cells not exercised, if any.
func (c *coverage) writeTable(w io.Writer) {
	r := c.report()
	type row struct{ cells, exercised, sent, diverged int }
	type group struct{ op, class, kind string } // a row of the table
	rows := map[group]*row{}
	var keys []group
	var missed []string
	for _, cr := range r.Table {
		key := group{cr.Operation, positionClass(cr.Position), cr.Kind}
		if rows[key] == nil {
			rows[key] = &row{}
			keys = append(keys, key)
		}
		x := rows[key]
		x.cells++
		x.sent += cr.Sent
		x.diverged += cr.Diverged
		if cr.Sent > 0 {
			x.exercised++
		} else {
			missed = append(missed, fmt.Sprintf("%s | %s | %s", cr.Operation, cr.Position, cr.Operator))
		}
	}
	sort.SliceStable(keys, func(i, j int) bool {
		return slices.Index(Ops, Op(keys[i].op)) < slices.Index(Ops, Op(keys[j].op))
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\tposition\tkind of operator\tcells\texercised\tsteps\tdiverged\t")
	for _, k := range keys {
		x := rows[k]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t\n", k.op, k.class, k.kind, x.cells, x.exercised, x.sent, x.diverged)
	}
	tw.Flush()
	full := "not every cell"
	if r.FullAfter != "" {
		full = "every cell in " + r.FullAfter
	}
	fmt.Fprintf(w, "input space: %d of %d cells (operation, position, operator) exercised, %s\n", r.Exercised, r.Cells, full)
	for i, m := range missed {
		if i == 20 {
			fmt.Fprintf(w, "  ... and %d more not exercised (--coverage FILE lists them)\n", len(missed)-20)
			break
		}
		fmt.Fprintf(w, "  not exercised: %s\n", m)
	}
}

// positionClass groups positions for the summary: body fields, the
// credential, the login's secrets, the path, the version, the headers, the
// body's form.
func positionClass(p string) string {
	switch {
	case strings.HasPrefix(p, "credential"):
		return "credential"
	case strings.HasPrefix(p, posLogin):
		return "secrets"
	case p == posPath, p == posVersion, p == posContentType, p == posAccept, p == posTransfer, p == posBody:
		return p
	}
	return "fields"
}
