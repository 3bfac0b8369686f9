package apps

import (
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// checkServers check POST /apps wrong, or write a field of the app
// otherwise (2.3, 4.2, 7.3).
var checkServers = []variants.Server{
	{
		Name: "apps-hash-trimmed", Rule: "2.3, 4.2, 8",
		Why:    "A marketapp.hash with white space around it is trimmed and accepted, though it is not 40 hexadecimal characters.",
		Origin: variants.BlindAudit2("missed"),
		Request: variants.EditBody(variants.PostApps, func(b map[string]any) bool {
			return variants.Replace(variants.Sub(b, "marketapp"), "hash", strings.TrimSpace)
		}),
	},
	{
		Name: "apps-name-required-with-hash", Rule: "4.2, 7.3",
		Why:    "POST /apps requires name even when marketapp.hash is given, refusing it with InvalidName.",
		Origin: variants.BlindAudit2("caught"),
		Wrap: variants.Validates(variants.Rule{
			Applies: variants.ToCollection(http.MethodPost, "apps"),
			Owns:    []string{"name"},
			Check: func(_ *http.Request, body map[string]any) []variants.FieldError {
				if _, hash := variants.BodyPath(body, "marketapp.hash"); !hash {
					return nil
				}
				if s, ok := variants.Str(body, "name"); ok && strings.TrimSpace(s) != "" {
					return nil
				}
				return []variants.FieldError{{FieldName: "name", Error: pricing.CodeInvalidName.String(), Message: "name is required."}}
			},
			Fix:    func(body map[string]any) { body["name"] = "App" },
			Broken: map[string]any{"name": strings.Repeat("x", 256)},
		}),
	},
	{
		Name: "apps-platform-name-lowercase", Rule: "2.3",
		Why:    "The app's platform.name is written in lower case (android, ios) instead of one of Android or iOS.",
		Origin: variants.BlindAudit2("caught"),
		Wrap: variants.EditAppAnswers(func(o map[string]any) bool {
			return variants.Replace(variants.Sub(o, "platform"), "name", strings.ToLower)
		}),
	},
	{
		Name: "apps-write-key-uuid", Rule: "2.3",
		Why:    "writeKey is written as a dashed UUID (36 characters) instead of 32 hexadecimal characters.",
		Origin: variants.BlindAudit2("caught"),
		Wrap:   variants.EditAppAnswers(dashedWriteKey),
	},
	{
		Name: "apps-missing-name-code", Rule: "7.3",
		Why:    "POST /apps with neither a hash nor a name is refused with the code InvalidAppName instead of InvalidName.",
		Origin: variants.BlindAudit2("caught"),
		Wrap: variants.EditAnswersWhen(variants.PostApps, func(a *rewrite.Answer, _ map[string]any) bool {
			changed := false
			variants.EditErrors(a, func(errs []any) (any, bool) {
				for _, e := range errs {
					if o := variants.Obj(e); o["fieldName"] == "name" && o["error"] == pricing.CodeInvalidName.String() {
						o["error"] = "InvalidAppName"
						changed = true
					}
				}
				return errs, changed
			})
			return changed
		}),
	},
	{
		Name: "apps-nextplan-ignored", Rule: "4.2",
		Why:    "POST /apps ignores nextplan.id and always gives the app the default plan.",
		Origin: variants.BlindAudit2("caught"),
		Request: variants.EditBody(variants.PostApps, func(b map[string]any) bool {
			return variants.Drop(b, "nextplan")
		}),
	},
}
