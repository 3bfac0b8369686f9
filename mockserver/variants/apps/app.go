package apps

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The app object and the platforms collection (2.3, 2.5, 4.5).
var appServers = []variants.Server{
	{Name: "app-without-writeKey", Rule: "2.3", Why: "the app object has no writeKey", Origin: variants.BuiltIn,
		Answer: variants.DropField("writeKey"),
	},
	{Name: "writekey-uuid", Rule: "2.3", Why: "the writeKey is a hyphenated UUID, not 32 hexadecimal characters", Origin: variants.BuiltIn,
		Answer: variants.OnObjects(func(_ string, o map[string]any) { dashedWriteKey(o) }),
	},
	{Name: "platform-name-lowercase", Rule: "2.3", Why: "platform.name is android or ios, not Android or iOS", Origin: variants.BuiltIn,
		Answer: variants.OnObjects(func(key string, o map[string]any) {
			if key == "platform" || key == "platforms" {
				variants.Replace(o, "name", strings.ToLower)
			}
		}),
	},
	{Name: "app-created-unset", Rule: "2.3", Why: "POST /apps answers created 0001-01-01T00:00:00Z, a date never set", Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(variants.PostApps, func(o map[string]any) { o["created"] = variants.UnsetDate }),
	},
	{Name: "app-ids-repeat", Rule: "2.3", Why: "every app POST /apps creates answers the id 1", Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(variants.PostApps, func(o map[string]any) { o["id"] = json.Number("1") }),
	},
	{Name: "writekey-shared", Rule: "2.3", Why: "every app POST /apps creates answers the same writeKey", Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(variants.PostApps, func(o map[string]any) { o["writeKey"] = "0123456789abcdef0123456789abcdef" }),
	},
	{Name: "app-platform-name-swapped", Rule: "2.3", Why: "an app's platform.name is the other platform's: Android for iOS and iOS for Android", Origin: variants.Gate3,
		Answer: variants.OnObjects(func(key string, o map[string]any) {
			if name, ok := o["name"].(string); ok && key == "platform" {
				switch name {
				case "Android":
					o["name"] = "iOS"
				case "iOS":
					o["name"] = "Android"
				}
			}
		}),
	},
	{
		Name:   "platform-name-lower-case",
		Rule:   "2.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    "§2.3: platform.name is \"One of `Android` or `iOS`\"; the app's platform name is answered in lower case (\"android\")",
		Wrap: variants.EditAppAnswers(func(o map[string]any) bool {
			return variants.Replace(variants.Sub(o, "platform"), "name", strings.ToLower)
		}),
	},
	{
		Name:   "write-key-uuid",
		Rule:   "2.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.3: writeKey is "a 32-hexadecimal-character value"; it is answered as a dashed UUID of 36 characters`,
		Wrap:   variants.EditAppAnswers(dashedWriteKey),
	},
	{
		Name:   "platforms-bare-array",
		Rule:   "2.5",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.5: "A collection endpoint returns a wrapper object, not a bare array"; GET /platforms answers the bare array`,
		Wrap:   variants.EditPlatforms(func(o map[string]any) (any, bool) { return o["platforms"], o["platforms"] != nil }),
	},
	{
		Name:   "platforms-under-data",
		Rule:   "2.5",
		Origin: variants.BlindAudit1("caught"),
		Why:    "§2.5: \"The wrapper has a property named after the collection (for example `platforms`)\"; GET /platforms puts them under \"data\"",
		Wrap: variants.EditPlatforms(func(o map[string]any) (any, bool) {
			p, ok := o["platforms"]
			if !ok {
				return o, false
			}
			delete(o, "platforms")
			o["data"] = p
			return o, true
		}),
	},
	{
		Name:   "hex-uppercase",
		Legal:  true,
		Rule:   "2.3, 8",
		Origin: variants.BuiltIn,
		Why:    "§2.3, §8: writeKey and the marketapp hash are hexadecimal; the letter case is not specified",
		Wrap: variants.EditObjects(func(key string, o map[string]any) bool {
			changed := false
			if s, ok := o["writeKey"].(string); ok {
				o["writeKey"], changed = strings.ToUpper(s), true
			}
			if s, ok := o["hash"].(string); ok && key == "marketapp" {
				o["hash"], changed = strings.ToUpper(s), true
			}
			return changed
		}),
	},
	{
		Name:   "platforms-elsewhere",
		Legal:  true,
		Rule:   "4.5, 2.5",
		Origin: variants.BuiltIn,
		Why: "§4.5: for the platforms collection, \"Its path, parameters and item fields: not shown\"; §2.5: \"not shown " +
			"beyond the identifiers given above\": this target serves it at /catalogue/platforms, items with their id only",
		Profile: map[string]string{"platforms_path": "/catalogue/platforms"},
		Wrap: func(next http.Handler, hit func()) http.Handler {
			slim := variants.EditJSON(next, hit, func(_ *http.Request, _ int, v any) (any, bool) {
				top, ok := v.(map[string]any)
				items, _ := top["platforms"].([]any)
				if !ok || items == nil {
					return v, false
				}
				for i, it := range items {
					if o, ok := it.(map[string]any); ok {
						items[i] = map[string]any{"id": o["id"]}
					}
				}
				top["total"] = len(items)
				return v, true
			})
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				p, ok := variants.Parse(r.URL.Path)
				switch {
				case ok && p.Resource == "platforms":
					hit()
					variants.WriteError(w, http.StatusNotFound, pricing.CodeNotFound.String(), "There is no such endpoint.")
				case ok && p.Resource == "catalogue" && p.ID == "platforms" && p.Rest == "":
					r = r.Clone(r.Context())
					r.URL.Path, r.URL.RawPath = p.Version+"/platforms", ""
					r.RequestURI = r.URL.RequestURI()
					slim.ServeHTTP(w, r)
				default:
					next.ServeHTTP(w, r)
				}
			})
		},
	},
	{
		Name:   "legal-upper-case-write-key",
		Legal:  true,
		Rule:   "2.3",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§2.3: writeKey is "a 32-hexadecimal-character value"; hexadecimal digits may be upper case`,
		Wrap: variants.EditAppAnswers(func(o map[string]any) bool {
			return variants.Replace(o, "writeKey", strings.ToUpper)
		}),
	},
	{
		Name:   "legal-platforms-paged",
		Legal:  true,
		Rule:   "2.5",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§2.5: "Some collections may add other properties, such as a page number or the size of the result set"; GET /platforms adds page, pageSize and total`,
		Wrap: variants.EditPlatforms(func(o map[string]any) (any, bool) {
			ps, ok := o["platforms"].([]any)
			if !ok {
				return o, false
			}
			o["page"], o["pageSize"], o["total"] = variants.Number(1), variants.Number(int64(len(ps))), variants.Number(int64(len(ps)))
			return o, true
		}),
	},
	{
		Name:   "legal-platforms-reversed",
		Legal:  true,
		Rule:   "2.5, 4.5",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§2.5/§4.5: the items and parameters of the platforms collection are "not shown"; no order is specified, so they are answered highest id first`,
		Wrap: variants.EditPlatforms(func(o map[string]any) (any, bool) {
			ps, ok := o["platforms"].([]any)
			if !ok || len(ps) < 2 {
				return o, false
			}
			out := make([]any, len(ps))
			for i, p := range ps {
				out[len(ps)-1-i] = p
			}
			o["platforms"] = out
			return o, true
		}),
	},
}

// dashedWriteKey writes the writeKey of 32 hexadecimal characters of an
// object as a dashed UUID (8-4-4-4-12), and reports whether it did.
func dashedWriteKey(o map[string]any) bool {
	return variants.Replace(o, "writeKey", func(k string) string {
		if len(k) != 32 {
			return k
		}
		return k[:8] + "-" + k[8:12] + "-" + k[12:16] + "-" + k[16:20] + "-" + k[20:]
	})
}
