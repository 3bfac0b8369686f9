package steps

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// fullSnapshot is an object of the table with every field set, each leaf
// to a value of its own (so that a value put back in the wrong place
// shows), or, with none, every optional or nullable field null.
func fullSnapshot(t *testing.T, table *pricing.Table, none bool) gjson.Result {
	t.Helper()
	root := map[string]any{}
	for i, f := range table.Fields {
		m := root
		keys := strings.Split(f.Path, ".")
		for _, k := range keys[:len(keys)-1] {
			m = m[k].(map[string]any)
		}
		var v any
		switch {
		case f.Type == pricing.TypeObject:
			v = map[string]any{}
		case none && (f.Optional || f.Nullable):
			v = nil
		case f.Type == pricing.TypeString:
			v = fmt.Sprintf("%s value %d", f.Path, i)
		case f.Type == pricing.TypeNumber:
			v = 100 + i
		case f.Type == pricing.TypeBoolean:
			v = i%2 == 0
		}
		m[keys[len(keys)-1]] = v
	}
	b, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return gjson.ParseBytes(b)
}

// putBack reports whether a restore must send the body field: a PUT
// stores it, or the body requires it. A body of its own (the client of PUT
// /users, the app of POST /clients) is a resource of its own, not put back
// with the one that holds it.
func putBack(f pricing.Field) bool { return f.Sub == nil && (f.Stored() || f.Required) }

// TestRestoreBodiesPutBackEveryField holds the suite's restore bodies
// (steps/lifecycle.go) to the body tables of mockserver/pricing/fields.go.
// From a snapshot with every field of the object table set, restoreBody
// and clientRestoreBody send every field of the body table that a PUT
// stores or that the body requires, with the snapshot's value where the
// snapshot has the field; from a snapshot whose optional and nullable
// fields are null, none of them with a value. profileRestoreBody, from an
// account with every value of the profile, sends every field the body
// requires or a PUT stores that is not optional. None of them sends a field
// that is no row of its body table. The seed accounts have no value for
// a new optional field, so that without this test a restore that leaves it
// out clears it, which is right by accident.
func TestRestoreBodiesPutBackEveryField(t *testing.T) {
	a := account{
		name: "A", email: "qa@example.com", password: "qa-password", apiKey: "qa-api-key", pair: 1,
		firstName: "Quinn", lastName: "Assurance", timezone: "Europe/London",
		phoneCountryID: "1", phoneNumber: "7700900123", phoneExtension: "42",
	}
	for _, tt := range []struct {
		fn, body, object, shape string
		rows, objectRows        *pricing.Table
		build                   func(gjson.Result) []byte
	}{
		{"restoreBody", "UserBody", "UserObject", "user", pricing.UserBody, pricing.UserObject,
			func(user gjson.Result) []byte { return restoreBody(user, a.password) }},
		{"clientRestoreBody", "ClientBody", "ClientObject", "client", pricing.ClientBody, pricing.ClientObject, clientRestoreBody},
	} {
		full := fullSnapshot(t, tt.objectRows, false)
		got := gjson.ParseBytes(tt.build(full))
		for _, f := range tt.rows.Fields {
			if !putBack(f) {
				continue
			}
			where := fmt.Sprintf("%s (%s), field %s: %s in steps/lifecycle.go, which writes back the members of fixtures/shapes/%s.json,",
				tt.body, tt.rows.Name, f.Path, tt.fn, tt.shape)
			v := got.Get(f.Path)
			_, inSnapshot := tt.objectRows.Lookup(f.Path)
			switch {
			case !v.Exists():
				t.Errorf("%s leaves it out of the PUT body it builds from a snapshot that has every field of %s: "+
					"add the member to the shape (\"##\" where it is optional: left out when the snapshot has none)", where, tt.object)
			case inSnapshot && f.Type != pricing.TypeObject && v.Raw != full.Get(f.Path).Raw:
				t.Errorf("%s sends %s, the snapshot has %s", where, v.Raw, full.Get(f.Path).Raw)
			}
		}
		none := fullSnapshot(t, tt.objectRows, true)
		got = gjson.ParseBytes(tt.build(none))
		for _, f := range tt.rows.Fields {
			if _, inSnapshot := tt.objectRows.Lookup(f.Path); inSnapshot && (f.Optional || f.Nullable) && f.Type != pricing.TypeObject {
				if v := got.Get(f.Path); v.Exists() && v.Type != gjson.Null {
					t.Errorf("%s (%s), field %s: %s in steps/lifecycle.go sends %s from a snapshot that has none: leave it out or send null",
						tt.body, tt.rows.Name, f.Path, tt.fn, v.Raw)
				}
			}
		}
		checkNoOtherFields(t, tt.fn, tt.body, tt.rows, tt.build(full))
	}
	got := gjson.ParseBytes(profileRestoreBody(a))
	for _, f := range pricing.UserBody.Fields {
		if putBack(f) && !f.Optional && !got.Get(f.Path).Exists() {
			t.Errorf("UserBody (%s), field %s: profileRestoreBody in steps/lifecycle.go leaves it out of the PUT body it builds from "+
				"an account with every value of the profile: add it (from the profile, or a stand-in every correct target takes)",
				pricing.UserBody.Name, f.Path)
		}
	}
	checkNoOtherFields(t, "profileRestoreBody", "UserBody", pricing.UserBody, profileRestoreBody(a))
}

// checkNoOtherFields fails on a member of body that is no row of rows.
func checkNoOtherFields(t *testing.T, fn, table string, rows *pricing.Table, body []byte) {
	t.Helper()
	var walk func(prefix string, v gjson.Result)
	walk = func(prefix string, v gjson.Result) {
		v.ForEach(func(k, member gjson.Result) bool {
			path := prefix + k.Str
			f, ok := rows.Lookup(path)
			switch {
			case !ok:
				t.Errorf("%s in steps/lifecycle.go sends %s, which is no row of %s (%s): a member of the object's shape that no body takes "+
					"belongs in readOnly", fn, path, table, rows.Name)
			case f.Type == pricing.TypeObject && f.Sub == nil && member.IsObject():
				walk(path+".", member)
			}
			return true
		})
	}
	walk("", gjson.ParseBytes(body))
}
