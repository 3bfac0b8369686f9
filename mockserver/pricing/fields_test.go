package pricing

import (
	"fmt"
	"strings"
	"testing"
)

// TestFieldTablesAreWellFormed holds each table to the rules its readers
// rely on: an object before its fields, limits on strings only, a code
// of 400, nothing but shape on a response object.
func TestFieldTablesAreWellFormed(t *testing.T) {
	for _, table := range append(Bodies(), Objects()...) {
		body := len(table.Endpoints) > 0
		seen := map[string]Field{}
		for _, f := range table.Fields {
			where := table.Name + ": " + f.Path
			if path, _ := f.Parent(); path != "" {
				if parent, ok := seen[path]; !ok || parent.Type != TypeObject {
					t.Errorf("%s: its object %s is not an object listed before it", where, path)
				}
			}
			seen[f.Path] = f
			switch {
			case f.Type != TypeString && f.Type != TypeNumber && f.Type != TypeBoolean && f.Type != TypeObject:
				t.Errorf("%s: type %q is none of the spec's", where, f.Type)
			case f.Limited() && f.Type != TypeString:
				t.Errorf("%s: a %s with a limit of length", where, f.Type)
			case f.Min > 0 && f.Max > 0 && f.Min > f.Max:
				t.Errorf("%s: at least %d characters and at most %d", where, f.Min, f.Max)
			case f.MockLimit && f.Max == 0:
				t.Errorf("%s: the mock's limit, but no Max", where)
			case f.Required && f.Optional:
				t.Errorf("%s: required and optional", where)
			case f.Sub != nil && f.Type != TypeObject:
				t.Errorf("%s: a body of its own on a %s", where, f.Type)
			case f.Code != (Code{}) && f.Code.Status() != 400:
				t.Errorf("%s: code %s has status %d, want 400", where, f.Code, f.Code.Status())
			case f.SpecCode && f.Code == (Code{}):
				t.Errorf("%s: 7.3's code, but no Code", where)
			case body && (f.Form == FormNone) != (f.Type != TypeString):
				t.Errorf("%s: a %s of form %d (a body's string has a form, nothing else)", where, f.Type, f.Form)
			case f.MockNull && (body || f.Nullable):
				t.Errorf("%s: the mock's null on a body's field or on one the spec makes nullable", where)
			case !body && (f.Required || f.Limited() || f.Put != PutNone || f.Code != (Code{}) || f.Form != FormNone || f.Unlisted):
				t.Errorf("%s: a response object's field carries a rule of a body", where)
			}
		}
	}
}

// TestOptionalFieldsArePutBackByAPut is the rule the suite's restore relies
// on (steps/lifecycle.go): it writes a resource back with a PUT of the
// values it read, so an optional field the resource had no value for must
// be cleared by a PUT that leaves it out or sends null. A field that a PUT
// kept instead could never be put back once a scenario set it.
func TestOptionalFieldsArePutBackByAPut(t *testing.T) {
	for _, table := range Bodies() {
		for _, f := range table.Fields {
			if f.Optional && f.Stored() && f.Put != PutReplaces {
				t.Errorf("%s: %s is optional and stored, but a PUT that leaves it out does not clear it (Put %d, want PutReplaces): "+
					"the suite's restore could not put it back", table.Name, f.Path, f.Put)
			}
		}
	}
}

// sample is a value of f of n characters, of the form the field takes:
// what the mock accepts at n within the limits.
func sample(f Field, n int) string {
	switch f.Form {
	case FormEmail:
		return email(n)
	case FormTimezone:
		return "Europe/" + strings.Repeat("x", n-len("Europe/"))
	case FormHex:
		if n == len(knownHash) {
			return knownHash
		}
		return strings.Repeat("a", n)
	}
	return long(n)
}

// TestValidationReadsTheFieldTables: validation takes each field's limits
// and optionality from its table, so that a change there is a change of
// the mock: a string at its limit is accepted, one past it refused with
// the field's code; a required field left out is refused, an optional one
// is not.
func TestValidationReadsTheFieldTables(t *testing.T) {
	type check func(Body) []FieldError
	bodies := []struct {
		table *Table
		base  string
		check []check
	}{
		{UserBody, userJSON, []check{func(b Body) []FieldError { _, e := spec.UserUpdate(b, 1); return e }}},
		{ClientBody, clientJSON, []check{
			func(b Body) []FieldError { _, e := spec.ClientCreate(b); return e },
			func(b Body) []FieldError { _, e := spec.ClientUpdate(b); return e },
		}},
		{AppBody, hashAppJSON, []check{func(b Body) []FieldError { _, e := spec.App(b); return e }}},
	}
	names := func(errs []FieldError, path string) []FieldError {
		var out []FieldError
		for _, e := range errs {
			if e.FieldName == path || strings.HasPrefix(e.FieldName, path+".") {
				out = append(out, e)
			}
		}
		return out
	}
	checked := 0
	for _, bt := range bodies {
		base := body(t, bt.base)
		for i, validate := range bt.check {
			for _, f := range bt.table.Fields {
				where := fmt.Sprintf("%s (%s): %s", bt.table.Name, bt.table.Endpoints[min(i, len(bt.table.Endpoints)-1)], f.Path)
				type row struct {
					what   string
					change any
					refuse bool
				}
				var rows []row
				if f.Max > 0 {
					if f.Form != FormLiteral {
						rows = append(rows, row{fmt.Sprintf("%d characters", f.Max), sample(f, f.Max), false})
					}
					rows = append(rows, row{fmt.Sprintf("%d characters", f.Max+1), sample(f, f.Max+1), true})
				}
				if f.Min > 0 {
					rows = append(rows, row{fmt.Sprintf("%d characters", f.Min), sample(f, f.Min), false},
						row{fmt.Sprintf("%d characters", f.Min-1), sample(f, f.Min-1), true})
				}
				if f.Required || f.Optional {
					rows = append(rows, row{"left out", nil, f.Required})
				}
				for _, r := range rows {
					checked++
					got := names(validate(with(t, base, map[string]any{f.Path: r.change})), f.Path)
					want := f.Code
					if len(got) > 0 && want == (Code{}) {
						want = bt.table.Field(got[0].FieldName).Code // an object's errors name its id
					}
					switch {
					case r.refuse && len(got) == 0:
						t.Errorf("%s %s: accepted, want refused with %s", where, r.what, want)
					case r.refuse && got[0].Error != want:
						t.Errorf("%s %s: refused with %s, want %s", where, r.what, got[0].Error, want)
					case !r.refuse && len(got) > 0:
						t.Errorf("%s %s: refused (%v), want accepted", where, r.what, codes(got))
					}
				}
			}
		}
	}
	if checked < 40 {
		t.Errorf("%d checks; the tables lost their limits", checked)
	}
}
