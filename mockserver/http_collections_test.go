package mockserver_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// The catalogues answer a wrapper object named after the collection (spec
// 2.5) without authentication, their items sorted by id.
func TestCatalogues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, path, wrapper string
		check               func(t *testing.T, items gjson.Result)
	}{
		{"platforms", "/v1/platforms", "platforms", func(t *testing.T, items gjson.Result) {
			wantEq(t, "platform ids", items.Get("#.id").Raw, "[1,2]")
			wantEq(t, "platform names", items.Get("#.name").Raw, `["Android","iOS"]`)
			for _, p := range items.Array() {
				wantKeys(t, "platform", p, "id", "created", "creatorUserId", "name")
				wantDate(t, "platform.created", p.Get("created"))
				wantType(t, "platform.creatorUserId", p.Get("creatorUserId"), gjson.Number)
			}
		}},
		{"currencies", "/v1/currencies", "currencies", func(t *testing.T, items gjson.Result) {
			wantEq(t, "currencies", items.Raw, `[{"id":1,"code":"GBP"},{"id":2,"code":"EUR"},{"id":3,"code":"USD"}]`)
		}},
		{"plans", "/v1/plans", "plans", func(t *testing.T, items gjson.Result) {
			plans := items.Array()
			if got := items.Get("#.id").Raw; got != "[1,2,3]" {
				t.Fatalf("plan ids %s, want [1,2,3]", got)
			}
			for i, want := range []string{"lite", "pro", "dynamic"} {
				p := plans[i]
				wantKeys(t, "plan", p, "id", "name", "isLite", "isPro", "isDynamic", "needBilling")
				if !strings.EqualFold(p.Get("name").String(), want) {
					t.Errorf("plan %d name %s, want %s", i+1, p.Get("name").Raw, want)
				}
				wantEq(t, want+".isLite", p.Get("isLite").Raw, boolRaw(i == 0))
				wantEq(t, want+".isPro", p.Get("isPro").Raw, boolRaw(i == 1))
				wantEq(t, want+".isDynamic", p.Get("isDynamic").Raw, boolRaw(i == 2))
				wantEq(t, want+".needBilling", p.Get("needBilling").Raw, boolRaw(i != 0))
			}
		}},
		{"phone countries", "/v1/phoneCountries", "phoneCountries", func(t *testing.T, items gjson.Result) {
			wantEq(t, "phone countries", items.Raw, `[`+
				`{"id":1,"name":"United Kingdom (+44)","dialCode":"+44"},`+
				`{"id":2,"name":"United States (+1)","dialCode":"+1"},`+
				`{"id":3,"name":"France (+33)","dialCode":"+33"},`+
				`{"id":4,"name":"Germany (+49)","dialCode":"+49"},`+
				`{"id":5,"name":"Ireland (+353)","dialCode":"+353"}]`)
		}},
		{"marketplace apps", "/v1/marketapps", "marketapps", func(t *testing.T, items gjson.Result) {
			want := map[string]string{
				hashPuzzleAndroid: `{"hash":"` + hashPuzzleAndroid + `","name":"Puzzle Quest","platform":{"id":1,"name":"Android"}}`,
				hashPuzzleIOS:     `{"hash":"` + hashPuzzleIOS + `","name":"Puzzle Quest","platform":{"id":2,"name":"iOS"}}`,
				hashWordAndroid:   `{"hash":"` + hashWordAndroid + `","name":"Word Garden","platform":{"id":1,"name":"Android"}}`,
				hashWordIOS:       `{"hash":"` + hashWordIOS + `","name":"Word Garden","platform":{"id":2,"name":"iOS"}}`,
				hashCoinAndroid:   `{"hash":"` + hashCoinAndroid + `","name":"Coin Rush","platform":{"id":1,"name":"Android"}}`,
				hashCoinIOS:       `{"hash":"` + hashCoinIOS + `","name":"Coin Rush","platform":{"id":2,"name":"iOS"}}`,
			}
			wantEq(t, "marketplace app count", len(items.Array()), len(want))
			for _, m := range items.Array() {
				h := m.Get("hash").String()
				if want[h] == "" {
					t.Errorf("unexpected marketplace app %s", m.Raw)
					continue
				}
				wantEq(t, "marketplace app "+h, m.Raw, want[h])
			}
		}},
	}
	for _, tc := range cases {
		for _, prefix := range []string{"/v1", "/v1.0"} {
			for _, as := range []struct {
				name string
				a    auth
			}{{"anonymous", nil}, {"with an api key", asA}} {
				onOwnServer(t, tc.name+prefix+" "+as.name, func(t *testing.T, srv http.Handler) {
					p := prefix + strings.TrimPrefix(tc.path, "/v1")
					r := send(t, srv, "GET", p, as.a, nil)
					mustStatus(t, r, http.StatusOK, "GET "+p)
					wantKeys(t, "wrapper", r.json, tc.wrapper)
					items := r.json.Get(tc.wrapper)
					if !items.IsArray() {
						t.Fatalf("%s is not an array: %s", tc.wrapper, r.body)
					}
					if got := ids(items); tc.wrapper != "marketapps" && !slices.IsSorted(got) {
						t.Errorf("%s ids %v are not sorted", tc.wrapper, got)
					}
					tc.check(t, items)
				})
			}
		}
	}
}

// The per-account collections are wrappers too (README, read endpoints).
func TestAccountCollections(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, path, wrapper string
		item                func(testing.TB, gjson.Result)
	}{
		{"clients of a user", "/v1/users/1/clients", "clients", checkClient},
		{"apps of a client", "/v1/clients/1/apps", "apps", checkApp},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			// Two more items so that the order shows.
			for range 2 {
				mustStatus(t, send(t, srv, "POST", "/v1/clients", asA, with(clientBody(), "app", appBody())), http.StatusOK, "POST /clients")
				mustStatus(t, send(t, srv, "POST", "/v1/apps", asA, appBody()), http.StatusOK, "POST /apps")
			}
			r := send(t, srv, "GET", tc.path, asA, nil)
			mustStatus(t, r, http.StatusOK, "GET "+tc.path)
			wantKeys(t, "wrapper", r.json, tc.wrapper)
			items := r.json.Get(tc.wrapper).Array()
			if len(items) != 3 {
				t.Fatalf("%d %s, want 3: %s", len(items), tc.wrapper, r.body)
			}
			for _, it := range items {
				tc.item(t, it)
			}
			if got := ids(r.json.Get(tc.wrapper)); !slices.IsSorted(got) || got[0] != 1 {
				t.Errorf("%s ids %v, want sorted from 1", tc.wrapper, got)
			}
		})
	}
}

func boolRaw(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
