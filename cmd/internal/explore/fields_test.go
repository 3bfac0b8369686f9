package explore

import (
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// TestInputPositionsFollowTheFieldTables holds the explorer's input
// positions (userFields, clientFields, appFields in fields.go, derived
// from the rows with extras) to the field tables of mockserver/pricing
// (fields.go: UserBody, ClientBody, AppBody): every row of a body table
// has a position of the same path, listed in the endpoint's table or not
// as the row is, required as the row is, with the row's Max as its limit,
// optional as the row where the row is no object; no position of a body
// stands outside its table, and no extra names a path its table lacks. A
// position the explorer keeps apart from its row on purpose is named in
// apart, with why.
func TestInputPositionsFollowTheFieldTables(t *testing.T) {
	names := map[*pricing.Table]string{pricing.UserBody: "pricing.UserBody", pricing.ClientBody: "pricing.ClientBody", pricing.AppBody: "pricing.AppBody"}
	// apart are the differences the explorer keeps on purpose.
	apart := map[string]string{
		// "I agree" is a literal: the ..255 operators would only
		// repeat the refusal of a value that is not the literal.
		"terms limit": "the terms are the literal \"I agree\"",
		// 40 characters exactly: hash-39 and hash-41 test it.
		"marketapp.hash limit": "the hash is of exact length",
	}
	for _, c := range []struct {
		op    Op
		table *pricing.Table
		sub   bool // the rows of an object's own table (Sub) are positions too
		where string
	}{
		{OpPutUser, pricing.UserBody, true, "userFields"},
		{OpPostClient, pricing.ClientBody, true, "clientFields (create)"},
		{OpPutClient, pricing.ClientBody, false, "clientFields (update: no app's fields, 4.4)"},
		{OpPostApp, pricing.AppBody, false, "appFields"},
	} {
		positions := map[string]bodyField{}
		for _, f := range bodyFields(c.op) {
			positions[f.path] = f
		}
		seen := map[string]bool{}
		var walk func(tb *pricing.Table, prefix string)
		walk = func(tb *pricing.Table, prefix string) {
			for _, row := range tb.Fields {
				path := prefix + row.Path
				seen[path] = true
				fail := func(format string, args ...any) {
					t.Helper()
					t.Errorf("%s: %s, row %q of %s (mockserver/pricing/fields.go): "+format+"; edit %s in cmd/internal/explore/fields.go, or the table",
						append([]any{c.op, path, row.Path, names[tb]}, append(args, c.where)...)...)
				}
				f, ok := positions[path]
				if !ok {
					fail("no input position of that path")
					continue
				}
				if f.table != !row.Unlisted {
					fail("the position says listed in the body table %v, the row %v", f.table, !row.Unlisted)
				}
				if f.required != row.Required {
					fail("the position says required %v, the row %v", f.required, row.Required)
				}
				if f.max != row.Max && apart[row.Path+" limit"] == "" {
					fail("the position's limit is %d, the row's Max %d", f.max, row.Max)
				}
				if row.Type != pricing.TypeObject && f.optional != row.Optional {
					fail("the position says optional %v, the row %v", f.optional, row.Optional)
				}
				if c.sub && row.Sub != nil {
					walk(row.Sub, path+".")
				}
			}
		}
		walk(c.table, "")
		for path := range positions {
			if !seen[path] {
				t.Errorf("%s: the input position %s (cmd/internal/explore/fields.go, %s) has no row in %s (mockserver/pricing/fields.go)", c.op, path, c.where, names[c.table])
			}
		}
	}
}

// TestExtrasNameRows holds the extras of the input positions (fields.go)
// to the rows of the field tables: an extra of a path its table lacks
// would be knowledge of no position.
func TestExtrasNameRows(t *testing.T) {
	for tb, xs := range extras {
		for path := range xs {
			if _, ok := tb.Lookup(path); !ok {
				t.Errorf("extras of %s name %s, which is no row of it (mockserver/pricing/fields.go); edit extras in cmd/internal/explore/fields.go", tb.Name, path)
			}
		}
	}
}

// TestCheckerReadsEveryLeaf holds the Go structs the explorer reads and
// writes by the tables' leaves (leafOf, world.go) to the field tables: every
// leaf of the user and client objects has a field of the store's and the
// state's user or client, which the checker compares (checker.go: sameLeaf)
// and the account's read sets (world.go: readLeaves), and every leaf a PUT
// stores has one the unchanged body sends (reference.go: unchangedBody).
// The names and codes of the catalogues are held apart.
func TestCheckerReadsEveryLeaf(t *testing.T) {
	apart := map[string]bool{"phoneCountry.name": true, "phoneCountry.dialCode": true, "currency.code": true, "password": true}
	for _, c := range []struct {
		table *pricing.Table
		objs  []any
	}{
		{pricing.UserObject, []any{pricing.User{}, pricing.StateUser{}}},
		{pricing.ClientObject, []any{pricing.Client{}, pricing.StateClient{}}},
		{pricing.UserBody, []any{pricing.User{}}},
		{pricing.ClientBody, []any{pricing.Client{}}},
	} {
		for _, row := range c.table.Leaves() {
			if apart[row.Path] || c.table.Endpoints != nil && !row.Stored() {
				continue
			}
			for _, o := range c.objs {
				v, ok := leafValue(o, row.Path)
				switch v.(type) {
				case time.Time, string, bool, int64, *string:
				default:
					t.Errorf("%s: %s has no field of %T of a type the explorer reads (ok %v, %T): name the Go field as the path (mockserver/pricing), or read it by hand in cmd/internal/explore (checker.go, world.go, reference.go)", c.table.Name, row.Path, o, ok, v)
				}
			}
		}
	}
}
