package mockserver_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// openAPIProperty is the property name of s, found among its own
// properties or those of a schema it takes with allOf.
func openAPIProperty(s *openapi3.Schema, name string) *openapi3.Schema {
	if p := s.Properties[name]; p != nil && p.Value != nil {
		return p.Value
	}
	for _, sub := range s.AllOf {
		if sub.Value != nil {
			if p := openAPIProperty(sub.Value, name); p != nil {
				return p
			}
		}
	}
	return nil
}

// openAPIRequired reports whether s requires its property name.
func openAPIRequired(s *openapi3.Schema, name string) bool {
	if slices.Contains(s.Required, name) {
		return true
	}
	for _, sub := range s.AllOf {
		if sub.Value != nil && openAPIRequired(sub.Value, name) {
			return true
		}
	}
	return false
}

// openAPIRefused reports whether s refuses its property name (a `not` that
// requires it): documented so that an answer or a body that has it is
// wrong (the user's password, the app of PUT /clients).
func openAPIRefused(s *openapi3.Schema, name string) bool {
	return s.Not != nil && s.Not.Value != nil && slices.Contains(s.Not.Value.Required, name)
}

// openAPITypes are the OpenAPI types of each type of the spec's tables.
var openAPITypes = map[pricing.Type][]string{
	pricing.TypeString:  {"string"},
	pricing.TypeNumber:  {"integer", "number"},
	pricing.TypeBoolean: {"boolean"},
	pricing.TypeObject:  {"object"},
}

// TestOpenAPIFollowsTheFieldTables holds the schemas of
// mockserver/openapi.json to the field tables of
// mockserver/pricing/fields.go. The schema of a response object (User,
// Client, App, Session) has a property per row of its object table, of the
// row's type, required unless the row is Optional, nullable where the row
// is Nullable or MockNull and nowhere else. Each schema of a request body
// (UserUpdate and UserCreate, ClientCreate and ClientUpdate, AppCreate) has
// a property per row of its body table, of the row's type, with the row's
// maxLength and minLength, required where the row is Required and not where
// it is Optional, nullable where the row is Nullable (unless that body
// requires the field) and not where the row is Required and not Nullable.
// Neither has a property that is no row, unless the schema refuses it. The
// schemas are open (spec 2.5), so that no other test of the document fails
// when a field is missing from them.
func TestOpenAPIFollowsTheFieldTables(t *testing.T) {
	doc := loadOpenAPI(t)
	for _, tt := range []struct {
		table   string
		rows    *pricing.Table
		schemas []string
	}{
		{"UserObject", pricing.UserObject, []string{"User"}},
		{"ClientObject", pricing.ClientObject, []string{"Client"}},
		{"AppObject", pricing.AppObject, []string{"App"}},
		{"SessionObject", pricing.SessionObject, []string{"Session"}},
		{"UserBody", pricing.UserBody, []string{"UserUpdate", "UserCreate"}},
		{"ClientBody", pricing.ClientBody, []string{"ClientCreate", "ClientUpdate"}},
		{"AppBody", pricing.AppBody, []string{"AppCreate"}},
	} {
		for _, name := range tt.schemas {
			ref := doc.Components.Schemas[name]
			if ref == nil || ref.Value == nil {
				t.Errorf("mockserver/openapi.json has no components.schemas.%s, the schema of %s (%s)", name, tt.table, tt.rows.Name)
				continue
			}
			checkOpenAPISchema(t, name, ref.Value, tt.table, tt.rows)
		}
	}
}

// checkOpenAPISchema holds one schema to the rows of its table.
func checkOpenAPISchema(t *testing.T, name string, schema *openapi3.Schema, table string, rows *pricing.Table) {
	body := len(rows.Endpoints) > 0
	objects := map[string]*openapi3.Schema{"": schema} // the schema of each object row, by path; "" the root
	for _, f := range rows.Fields {
		parentPath, prop := f.Parent()
		parent, ok := objects[parentPath]
		if !ok {
			continue // under an object already reported missing, or a body of its own
		}
		where := table + " (" + rows.Name + "), field " + f.Path + ": mockserver/openapi.json, components.schemas." + name
		p := openAPIProperty(parent, prop)
		if p == nil {
			t.Errorf("%s has no property %s: add it, %s", where, f.Path, openAPIWant(f, body))
			continue
		}
		if f.Type == pricing.TypeObject && f.Sub == nil {
			objects[f.Path] = p
		}
		if body && openAPIRefused(parent, prop) {
			continue // documented and refused: PUT /clients's app
		}
		if types := p.Type.Slice(); len(types) != 1 || !slices.Contains(openAPITypes[f.Type], types[0]) {
			t.Errorf("%s.%s has type %v, want one of %v (a %s)", where, f.Path, types, openAPITypes[f.Type], f.Type)
		}
		required := openAPIRequired(parent, prop)
		if body {
			checkOpenAPIBodyProperty(t, where, f, p, required)
			continue
		}
		if required == f.Optional {
			t.Errorf("%s.%s is required: %v; the row's Optional is %v", where, f.Path, required, f.Optional)
		}
		if want := f.Nullable || f.MockNull; p.Nullable != want {
			t.Errorf("%s.%s has nullable %v, want %v (the row's Nullable %v, MockNull %v)", where, f.Path, p.Nullable, want, f.Nullable, f.MockNull)
		}
	}
	for path, obj := range objects {
		for prop := range obj.Properties {
			full := strings.TrimPrefix(path+"."+prop, ".")
			if _, ok := rows.Lookup(full); !ok && !openAPIRefused(obj, prop) {
				t.Errorf("%s (%s): mockserver/openapi.json, components.schemas.%s has the property %s, which is no row of %s: "+
					"add the row to %s in mockserver/pricing/fields.go, or take the property out", table, rows.Name, name, full, table, table)
			}
		}
	}
}

// openAPIWant says what the property of a row should be.
func openAPIWant(f pricing.Field, body bool) string {
	want := []string{"type " + strings.Join(openAPITypes[f.Type], " or ")}
	if body && f.Max > 0 {
		want = append(want, fmt.Sprintf("maxLength %d", f.Max))
	}
	if body && f.Min > 0 {
		want = append(want, fmt.Sprintf("minLength %d", f.Min))
	}
	if f.Nullable || (!body && f.MockNull) {
		want = append(want, "nullable")
	}
	switch {
	case f.Required || (!body && !f.Optional):
		want = append(want, "required")
	case f.Optional:
		want = append(want, "not required")
	}
	return strings.Join(want, ", ")
}

// checkOpenAPIBodyProperty holds the property of a request body's schema
// to its row: limits, required and nullable.
func checkOpenAPIBodyProperty(t *testing.T, where string, f pricing.Field, p *openapi3.Schema, required bool) {
	maxLength := 0
	if p.MaxLength != nil {
		maxLength = int(*p.MaxLength)
	}
	if f.Form == pricing.FormLiteral && len(p.Enum) > 0 {
		for _, v := range p.Enum {
			if s, ok := v.(string); !ok || utf8.RuneCountInString(s) > f.Max {
				t.Errorf("%s.%s: enum value %v is not a string of at most %d characters", where, f.Path, v, f.Max)
			}
		}
	} else if maxLength != f.Max {
		t.Errorf("%s.%s has maxLength %d, want %d, the row's Max (0: none)", where, f.Path, maxLength, f.Max)
	}
	if int(p.MinLength) != f.Min {
		t.Errorf("%s.%s has minLength %d, want %d, the row's Min (0: none)", where, f.Path, p.MinLength, f.Min)
	}
	switch {
	case f.Required && !required:
		t.Errorf("%s.%s is not required; the row is Required", where, f.Path)
	case f.Optional && required:
		t.Errorf("%s.%s is required; the row is Optional", where, f.Path)
	case f.Nullable && !required && !p.Nullable:
		t.Errorf("%s.%s is not nullable; the row is Nullable", where, f.Path)
	case !f.Nullable && f.Required && p.Nullable:
		t.Errorf("%s.%s is nullable; the row is Required and not Nullable", where, f.Path)
	}
}
