package explore

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// The coverage counts each cell a step carried with the reference's
// verdict, says when every cell was first exercised, and points the
// generator at the cells exercised least.
func TestCoverage(t *testing.T) {
	cells := []Cell{{OpPutUser, "firstName", "empty"}, {OpPutUser, "firstName", "max-length"}, {OpPutUser, "path", "other"}}
	c := newCoverage(cells)
	r := rand.New(rand.NewPCG(1, 2))
	c.record(cells[:1], "400", false, false)
	c.record(cells[:2], "200 or a 4xx", true, false)
	if got := c.leastExercised(cells, r); got != cells[2] {
		t.Errorf("the least exercised cell is %s, want %s", got, cells[2])
	}
	rep := c.report()
	if rep.Exercised != 2 || rep.Cells != 3 || rep.FullAfter != "" {
		t.Errorf("%d of %d exercised, every cell after %q", rep.Exercised, rep.Cells, rep.FullAfter)
	}
	if v := rep.Table[0].Verdicts; v["400"] != 1 || v["200 or a 4xx"] != 1 || rep.Table[0].Sent != 2 || rep.Table[0].Diverged != 1 {
		t.Errorf("the first cell: %+v", rep.Table[0])
	}
	c.record(cells[2:], "403", false, false)
	if c.report().FullAfter == "" {
		t.Error("every cell exercised, but no time says so")
	}
	var b bytes.Buffer
	if err := c.writeJSON(&b); err != nil || !json.Valid(b.Bytes()) {
		t.Fatalf("--coverage writes no JSON (%v): %s", err, b.String())
	}
	b.Reset()
	c.writeTable(&b)
	if !strings.Contains(b.String(), "input space: 3 of 3 cells") {
		t.Errorf("the summary's table:\n%s", b.String())
	}
	// A cell of no catalogue (a setup step's) is not counted.
	c.record([]Cell{{OpLogin, "login email", "nothing"}}, "200", false, false)
	if c.report().Cells != 3 {
		t.Error("a cell outside the catalogue was added")
	}
}
