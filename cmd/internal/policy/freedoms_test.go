package policy

import (
	"os"
	"strings"
	"testing"
)

// silentRows reads the rows of the README's table "Where the spec is
// silent": section, question and decision, their whitespace folded.
func silentRows(t *testing.T) [][3]string {
	t.Helper()
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Where the spec is silent\n")
	if !ok {
		t.Fatal(`the README has no section "Where the spec is silent"`)
	}
	if next := strings.Index(section, "\n## "); next >= 0 {
		section = section[:next]
	}
	var rows [][3]string
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| section") || strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 {
			t.Fatalf("a row of the silent table without three cells: %s", line)
		}
		rows = append(rows, [3]string{fold(cells[0]), fold(cells[1]), fold(cells[2])})
	}
	if len(rows) < 40 {
		t.Fatalf("read %d rows of the silent table; its format changed?", len(rows))
	}
	return rows
}

// The README's table states every freedom the explorer grants: a row with
// the freedom's section and question whose decision states the mock's
// choice and the answers accepted, word for word; and every row that says
// what the explorer accepts is a freedom of the table.
func TestREADMEHasEveryFreedom(t *testing.T) {
	rows := silentRows(t)
	ids := map[string]bool{}
	for _, f := range All() {
		if ids[f.ID] {
			t.Errorf("two freedoms are named %s", f.ID)
		}
		ids[f.ID] = true
		want := "| " + f.Section + " | " + f.Question + " | " + f.Mock + ". " + acceptedLead + f.Accepted + " |"
		found := false
		for _, r := range rows {
			if r[0] != f.Section || r[1] != fold(f.Question) {
				continue
			}
			found = true
			if !strings.Contains(r[2], fold(f.Mock)) || !strings.Contains(r[2], fold(acceptedLead+f.Accepted)) {
				t.Errorf("the README's row %q says %q; it must state the mock's choice and what the explorer accepts, as:\n%s", f.Question, r[2], want)
			}
		}
		if !found {
			t.Errorf("freedom %s has no row in the README's table \"Where the spec is silent\"; add:\n%s", f.ID, want)
		}
	}
	for _, r := range rows {
		if !strings.Contains(r[2], acceptedLead) {
			continue
		}
		known := false
		for _, f := range All() {
			known = known || r[0] == f.Section && r[1] == fold(f.Question)
		}
		if !known {
			t.Errorf("the README's row %q says what the explorer accepts, but no freedom of package freedom asks it", r[1])
		}
	}
}

// acceptedLead opens the part of a row that says what the explorer accepts.
const acceptedLead = "Accepted (the explorer): "

func TestAllows(t *testing.T) {
	for _, c := range []struct {
		f      Freedom
		status int
		want   bool
	}{
		{UnknownID, 403, true}, {UnknownID, 404, true}, {UnknownID, 400, false},
		{LoginRefused, 401, true}, {LoginRefused, 200, false},
		{CheckOrder, 401, false}, // no status choice
	} {
		if got := c.f.Allows(c.status); got != c.want {
			t.Errorf("%s allows %d: %v, want %v", c.f.ID, c.status, got, c.want)
		}
	}
}
