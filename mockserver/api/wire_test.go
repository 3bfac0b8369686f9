package api

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// wireMember is one JSON member of a wire struct, by its dotted path.
type wireMember struct {
	typ       reflect.Type // as declared: a pointer stays a pointer
	omitempty bool
}

// wireMembers lists the JSON members of a struct type, those of its
// nested structs under "parent.child", as encoding/json writes them.
func wireMembers(t reflect.Type, prefix string, out map[string]wireMember) {
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		base := f.Type
		if base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		if f.Anonymous && name == "" && base.Kind() == reflect.Struct {
			wireMembers(base, prefix, out)
			continue
		}
		if name == "" {
			name = f.Name
		}
		path := prefix + name
		out[path] = wireMember{f.Type, slices.Contains(strings.Split(opts, ","), "omitempty")}
		if base.Kind() == reflect.Struct {
			wireMembers(base, path+".", out)
		}
	}
}

// wireKinds are the Go kinds that carry each type of the spec's tables.
var wireKinds = map[pricing.Type][]reflect.Kind{
	pricing.TypeString:  {reflect.String},
	pricing.TypeNumber:  {reflect.Int, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64, reflect.Float64},
	pricing.TypeBoolean: {reflect.Bool},
	pricing.TypeObject:  {reflect.Struct},
}

// TestWireStructsFollowTheObjectTables holds the wire structs of wire.go
// to the object tables of mockserver/pricing/fields.go: every row is a
// JSON member of the struct that answers the object, of the row's type; a
// member that may be null (a pointer written as null) where the row is
// Nullable or MockNull and nowhere else; one left out when unset (a
// pointer with omitempty) where the row is Optional and nowhere else; and
// no member that is not a row (the mock's own field would be a row marked
// as the mock's, README "Where the spec is silent").
func TestWireStructsFollowTheObjectTables(t *testing.T) {
	for _, tt := range []struct {
		table, wire, toWire string
		rows                *pricing.Table
		typ                 reflect.Type
	}{
		{"UserObject", "wireUser", "toWireUser", pricing.UserObject, reflect.TypeFor[wireUser]()},
		{"ClientObject", "wireClient", "toWireClient", pricing.ClientObject, reflect.TypeFor[wireClient]()},
		{"AppObject", "wireApp", "toWireApp", pricing.AppObject, reflect.TypeFor[wireApp]()},
		{"SessionObject", "wireSession", "toWireSession", pricing.SessionObject, reflect.TypeFor[wireSession]()},
	} {
		members := map[string]wireMember{}
		wireMembers(tt.typ, "", members)
		for _, f := range tt.rows.Fields {
			where := tt.table + " (" + tt.rows.Name + "), field " + f.Path
			m, ok := members[f.Path]
			if !ok {
				t.Errorf("%s: %s has no JSON member %q: add it to %s in mockserver/api/wire.go and fill it in %s",
					where, tt.wire, f.Path, tt.wire, tt.toWire)
				continue
			}
			delete(members, f.Path)
			ptr := m.typ.Kind() == reflect.Pointer
			base := m.typ
			if ptr {
				base = base.Elem()
			}
			if !slices.Contains(wireKinds[f.Type], base.Kind()) {
				t.Errorf("%s: member %q of %s in mockserver/api/wire.go is a Go %s, want a %s", where, f.Path, tt.wire, m.typ, f.Type)
			}
			if null, want := ptr && !m.omitempty, f.Nullable || f.MockNull; null != want {
				t.Errorf("%s: member %q of %s in mockserver/api/wire.go may be null: %v, the row says %v (Nullable %v, MockNull %v): "+
					"a pointer without omitempty is written null when unset", where, f.Path, tt.wire, null, want, f.Nullable, f.MockNull)
			}
			if optional := ptr && m.omitempty; optional != f.Optional || (m.omitempty && !ptr) {
				t.Errorf("%s: member %q of %s in mockserver/api/wire.go is left out when unset: %v (a pointer with omitempty), the row's Optional is %v",
					where, f.Path, tt.wire, m.omitempty, f.Optional)
			}
		}
		extra := make([]string, 0, len(members))
		for path := range members {
			extra = append(extra, path)
		}
		slices.Sort(extra)
		for _, path := range extra {
			t.Errorf("%s: member %q of %s in mockserver/api/wire.go is no row of %s: add the row to %s in mockserver/pricing/fields.go "+
				"(marked as the mock's if the spec has no such field, README \"Where the spec is silent\"), or take the member out",
				tt.table, path, tt.wire, tt.table, tt.table)
		}
	}
}
