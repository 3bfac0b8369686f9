package representation

import (
	"net/http"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// india is the offset of the dates of dates-other-iso8601, +05:30.
var india = time.FixedZone("", 5*3600+30*60)

// Dates: ISO 8601, of events that just happened (1, 2).
var datesServers = []variants.Server{
	{Name: "dates-not-iso8601", Rule: "1", Why: "dates are in the HTTP format (Mon, 02 Jan 2006 15:04:05 GMT), not ISO 8601", Origin: variants.BuiltIn,
		Answer: variants.OnObjects(func(key string, o map[string]any) {
			for _, k := range []string{"created", "createdDate", "passwordLastChanged"} {
				if s, ok := o[k].(string); ok {
					if t, err := time.Parse(time.RFC3339, s); err == nil {
						o[k] = t.Format(http.TimeFormat)
					}
				}
			}
		}),
	},
	{Name: "dates-an-hour-ahead", Rule: "2", Why: "every date is an hour ahead (a time zone's summer time applied twice), labelled Z", Origin: variants.Gate3,
		Answer: variants.ShiftDates(func(t time.Time) time.Time { return t.Add(time.Hour) }),
	},
	{Name: "dates-local-time-as-utc", Rule: "2", Why: "every date is the server's local time (UTC-5) labelled Z: five hours off, consistent with itself", Origin: variants.Gate3,
		Answer: variants.ShiftDates(func(t time.Time) time.Time { return t.Add(-5 * time.Hour) }),
	},
	{Name: "new-dates-epoch", Rule: "2", Why: "created, createdDate and passwordLastChanged of what a request makes or changes are 1970-01-01", Origin: variants.Gate3,
		Answer: func(a *rewrite.Answer) {
			if a.Request.Method == http.MethodGet {
				return
			}
			variants.ShiftDates(func(time.Time) time.Time { return time.Unix(0, 0).UTC() })(a)
		},
	},
	{
		Name:   "dates-other-iso8601",
		Legal:  true,
		Rule:   "1, 2",
		Origin: variants.BuiltIn,
		Why:    "§1, §2: dates are ISO 8601 strings; neither the zone, the offset form nor fractions of a second are specified",
		Wrap: variants.EditObjects(func(_ string, o map[string]any) bool {
			changed := false
			for k, x := range o {
				s, ok := x.(string)
				if !ok || !variants.RFC3339Z.MatchString(s) {
					continue
				}
				if t, err := time.Parse(time.RFC3339, s); err == nil {
					o[k] = t.In(india).Format("2006-01-02T15:04:05.000-07:00")
					changed = true
				}
			}
			return changed
		}),
	},
	{
		Name:   "dates-calendar",
		Legal:  true,
		Rule:   "2.1, 2.3, 2.4",
		Origin: variants.BuiltIn,
		Why: "§2.1-§2.3: created, passwordLastChanged and createdDate are each an \"ISO 8601 date\"; only §2.4's session " +
			"created is a \"date-time\": this target answers calendar dates (2026-01-02) but for sessions",
		Wrap: variants.EditJSONAnswers(func(r *http.Request, _ int, v any) (any, bool) {
			if p, ok := variants.Parse(r.URL.Path); !ok || p.Resource == "sessions" {
				return v, false
			}
			return v, variants.Each(v, func(_ string, o map[string]any) bool {
				changed := false
				for _, k := range variants.Dates {
					if s, ok := o[k].(string); ok && variants.RFC3339Z.MatchString(s) {
						o[k], changed = s[:len("2006-01-02")], true
					}
				}
				return changed
			})
		}),
	},
	{
		Name:   "legal-dates-with-milliseconds",
		Legal:  true,
		Rule:   "1",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§1: "Dates are ISO 8601 strings"; 2025-01-06T09:00:00.000Z is ISO 8601 with a fraction of a second`,
		Wrap:   variants.EditDates(func(d string) string { return d[:len(d)-1] + ".000Z" }),
	},
	{
		Name:   "legal-dates-with-offset",
		Legal:  true,
		Rule:   "1",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§1: "Dates are ISO 8601 strings"; the UTC designator may be written as the offset +00:00`,
		Wrap:   variants.EditDates(func(d string) string { return d[:len(d)-1] + "+00:00" }),
	},
}
