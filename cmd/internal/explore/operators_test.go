package explore

import (
	"fmt"
	"math/rand/v2"
	"net/mail"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/fixtures"
)

// Every operator of the catalogue has a source and reaches a cell of the
// test world, and every cell can be drawn: the step the generator makes for
// it carries its operator at its position.
func TestEveryCellIsDrawn(t *testing.T) {
	wd := testWorld(t)
	g := testGenerator(wd, 1)
	cells := wd.cells()
	used := map[string]bool{}
	for _, c := range cells {
		used[c.Operator] = true
		s := testSequence(t, wd)
		st := g.base(s, c)
		g.apply(s, &st, c)
		var ok bool
		switch {
		case strings.HasPrefix(c.Position, posCredential):
			ok = st.Cred == Cred{Scheme: strings.TrimPrefix(c.Position, posCredential), Op: c.Operator}
		case c.Position == "credential":
			ok = st.Cred.Scheme == "none"
		case c.Position == posPath:
			ok = st.Path == c.Operator || c.Operator == "created" && st.Path == "own" // made once a client is
		case c.Position == posVersion:
			ok = st.Version != ""
		case c.Position == posContentType:
			ok = st.ContentType == typeValue[c.Operator]
		case c.Position == posAccept:
			ok = st.Accept == acceptValue[c.Operator]
		case c.Position == posTransfer:
			ok = st.Chunked
		case c.Position == posBody:
			ok = st.Wire == c.Operator
		case strings.HasPrefix(c.Position, posLogin):
			ok = st.Op == OpLogin
		default:
			for _, m := range st.Muts {
				ok = ok || m.Field == c.Position && m.Op == c.Operator
			}
		}
		if !ok {
			t.Errorf("cell %s: the step drawn for it does not carry it: %s", c, st.Describe())
		}
	}
	for _, o := range bodyOps {
		if o.Source == "" {
			t.Errorf("operator %s names no source", o.Name)
		}
		if !used[o.Name] {
			t.Errorf("operator %s reaches no cell", o.Name)
		}
	}
	for _, list := range [][]posOp{credOps, {noCred}, {credAtLogin}, loginOps["email"], loginOps["password"], pathOps, versionOps, typeOps, acceptOps, transferOps, wireOps} {
		for _, o := range list {
			if o.Source == "" || !used[o.Name] {
				t.Errorf("operator %s: source %q, reaches a cell %v", o.Name, o.Source, used[o.Name])
			}
		}
	}
	if len(cells) < 1000 {
		t.Errorf("%d cells: the catalogue shrank", len(cells))
	}
}

// The profile's choices take out the cells they make meaningless: no POST
// /clients where a user holds one client, no hash where a marketplace app
// has one app, no other version form where the target serves one.
func TestCellsFollowTheProfile(t *testing.T) {
	wd := testWorld(t)
	wd.several, wd.byHash, wd.forms = false, false, []string{"v1"}
	for _, c := range wd.cells() {
		if c.Op == OpPostClient || strings.HasPrefix(c.Position, "client") || strings.Contains(c.Position, "marketapp") || c.Operator == "other-served-form" {
			t.Errorf("cell %s on a target whose profile rules it out", c)
		}
	}
}

// The limits' values are what their names say: characters counted as
// characters, emails of the length asked, valid.
func TestLimitValues(t *testing.T) {
	d := draw{domain: "example.com", unique: func() string { return "abcd1" }, f: bodyField{kind: kText}}
	for _, c := range []struct {
		v     string
		runes int
	}{
		{limitText(d, 255, "x"), 255}, {limitText(d, 256, twoByte), 256}, {limitText(d, 255, twoByte), 255},
	} {
		if n := utf8.RuneCountInString(c.v); n != c.runes {
			t.Errorf("%d characters, want %d", n, c.runes)
		}
	}
	if n := len(limitText(d, 255, twoByte)); n <= 255 {
		t.Errorf("255 two-byte characters are %d bytes", n)
	}
	for _, n := range []int{254, 255, 256} {
		e := emailOf(d, n)
		if len(e) != n {
			t.Errorf("emailOf(%d) is %d characters: %s", n, len(e), e)
		}
		if a, err := mail.ParseAddress(e); err != nil || a.Address != e {
			t.Errorf("emailOf(%d) is no address: %v", n, err)
		}
		for _, label := range strings.Split(e[strings.IndexByte(e, '@')+1:], ".") {
			if len(label) > 63 {
				t.Errorf("emailOf(%d) has a label of %d characters", n, len(label))
			}
		}
	}
}

// A text of a shorter limit than ..255 (its row's Max) is given values at
// that limit and one past it, and its other long values within it.
func TestShorterLimitValues(t *testing.T) {
	d := draw{r: rand.New(rand.NewPCG(1, 2)), domain: "example.com", unique: func() string { return "abcd1" }, f: bodyField{path: "company", kind: kText, max: 100}}
	want := map[string]int{"max-length": 100, "max-length-two-byte": 100, "over-length": 101, "over-length-two-byte": 101}
	for _, o := range bodyOps {
		if !o.On(d.f) {
			continue
		}
		m, ok := o.Make(d)
		v, isString := m.Value.(string)
		if !ok || !isString {
			continue
		}
		n := utf8.RuneCountInString(v)
		if w, ok := want[o.Name]; ok && n != w {
			t.Errorf("%s: %d characters, want %d", o.Name, n, w)
		}
		if _, ok := want[o.Name]; !ok && o.Kind == LegalVariety && n > 100 {
			t.Errorf("%s: %d characters past the limit of 100", o.Name, n)
		}
	}
}

// The README's table "The operator catalogue" lists every operator with its
// kind and source, as the catalogue has them, and nothing else.
func TestREADMEListsEveryOperator(t *testing.T) {
	section := readmeSection(t, "The operator catalogue")
	var readme []string
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| position") {
			readme = append(readme, l)
		}
	}
	var want []string
	for _, r := range operatorRows() {
		want = append(want, fmt.Sprintf("| %s | `%s` | %s | %s |", r.Position, r.Name, r.Kind, r.Source))
	}
	if strings.Join(readme, "\n") != strings.Join(want, "\n") {
		t.Errorf("the README's operator catalogue is not the code's; its table should read:\n| position | operator | kind | source |\n|---|---|---|---|\n%s", strings.Join(want, "\n"))
	}
	if len(want) < 90 {
		t.Errorf("%d operators: the catalogue shrank", len(want))
	}
}

// Every operator is decided, citing words the spec has, or governed by a
// freedom, or silent; and the count of each is what the README states.
func TestOperatorCitesAreTheSpecs(t *testing.T) {
	check := func(where, name string, c policy.Cite) {
		if c == (policy.Cite{}) {
			return
		}
		if err := policy.Verify(c, fixtures.Spec()); err != nil {
			t.Errorf("%s operator %s: %v", where, name, err)
		}
	}
	for _, o := range bodyOps {
		check("body", o.Name, o.Decided)
		if o.Decided.Decided() && o.Freedom != nil {
			t.Errorf("body operator %s is decided by %s and free by %s: one or the other", o.Name, o.Decided, o.Freedom.ID)
		}
	}
	for _, ops := range positionOps() {
		for _, o := range ops {
			check("position", o.Name, o.Decided)
		}
	}
	decided, free, silent := operatorCounts()
	if decided == 0 || silent == 0 || free == 0 {
		t.Errorf("decided %d, free %d, silent %d: each kind has operators", decided, free, silent)
	}
}

// The README's section "Decided or silent" states the counts of the checks
// and of the operators as the code has them.
func TestREADMECountsTheChecks(t *testing.T) {
	section := readmeSection(t, "Decided or silent")
	section = strings.Join(strings.Fields(section), " ")
	checks, decidedChecks := len(policy.Checks()), 0
	for _, c := range policy.Checks() {
		if c.Decided.Decided() {
			decidedChecks++
		}
	}
	d, f, s := operatorCounts()
	for _, want := range []string{
		fmt.Sprintf("**%d checks: %d decided, %d silent**", checks, decidedChecks, checks-decidedChecks),
		fmt.Sprintf("**%d operators, %d decided by a sentence of the spec or an RFC, %d governed by a freedom (a row of the table \"Where the spec is silent\"), %d silent**", d+f+s, d, f, s),
	} {
		if !strings.Contains(section, want) {
			t.Errorf("the README's section \"Decided or silent\" does not say %s", want)
		}
	}
}

// operatorRow is one operator as the README's table "The operator
// catalogue" lists it: where it applies, its name, its kind and source.
type operatorRow struct {
	Position, Name, Kind, Source string
}

var kindNames = map[fieldKind]string{kText: "text", kValue: "value", kEmail: "email", kPassword: "password", kTimezone: "timezone",
	kTerms: "terms", kHash: "hash", kPhone: "phone", kExtension: "extension", kFlag: "flag", kID: "id", kObject: "object"}

// operatorRows are the catalogue's rows, in its order.
func operatorRows() []operatorRow {
	var rows []operatorRow
	for _, o := range bodyOps {
		var where []string
		for k := kText; k <= kObject; k++ {
			fits := false
			for _, op := range Ops {
				for _, f := range bodyFields(op) {
					fits = fits || f.kind == k && op != OpLogin && o.On(f)
				}
			}
			if fits {
				where = append(where, kindNames[k])
			}
		}
		rows = append(rows, operatorRow{"body fields: " + strings.Join(where, ", "), o.Name, o.Kind.String(), o.Source})
	}
	for _, l := range []struct {
		where string
		ops   []posOp
	}{
		{"credential", append([]posOp{noCred}, credOps...)}, {"login credential", []posOp{credAtLogin}}, {"login email", loginOps["email"]}, {"login password", loginOps["password"]},
		{"path id", pathOps}, {"version segment", versionOps}, {"Content-Type", typeOps}, {"Accept", acceptOps}, {"transfer", transferOps}, {"whole body", wireOps},
	} {
		for _, o := range l.ops {
			rows = append(rows, operatorRow{l.where, o.Name, o.Kind.String(), o.Source})
		}
	}
	return rows
}

// operatorCounts are the operators decided by a sentence of the spec, those
// a freedom governs, and the silent ones, over every position: the figures
// the README's "Decided or silent" states.
func operatorCounts() (decided, free, silent int) {
	count := func(c policy.Cite, f *policy.Freedom) {
		switch {
		case c.Decided():
			decided++
		case f != nil:
			free++
		default:
			silent++
		}
	}
	for _, o := range bodyOps {
		count(o.Decided, o.Freedom)
	}
	for _, ops := range positionOps() {
		for _, o := range ops {
			count(o.Decided, o.Freedom)
		}
	}
	return decided, free, silent
}

// readmeSection is the text of the README's section under the heading
// "#### heading", up to the next heading.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n#### "+heading+"\n")
	if !ok {
		t.Fatalf("the README has no section %q", heading)
	}
	if i := strings.Index(section, "\n#"); i >= 0 {
		section = section[:i]
	}
	return section
}
