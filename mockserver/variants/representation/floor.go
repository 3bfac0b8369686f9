package representation

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// A client's mistake is a 4xx, never a 5xx (4, 7.2): the robustness floor.
var floorServers = []variants.Server{
	{Name: "malformed-json-500", Rule: "4", Why: "a body that is not JSON is answered 500 (the decoder's error is not mapped to a 4xx)", Origin: variants.FaultClasses,
		Request: variants.KeepBody, Answer: crashWhen(func(r *http.Request, body []byte) bool {
			return variants.CarriesBody(r) && variants.SentJSON(r) && len(bytes.TrimSpace(body)) > 0 && !json.Valid(body)
		}),
	},
	{Name: "non-object-body-500", Rule: "4", Why: "a JSON body that is no object (an array, a string, a number, null) is answered 500", Origin: variants.FaultClasses,
		Request: variants.KeepBody, Answer: crashWhen(func(r *http.Request, body []byte) bool {
			body = bytes.TrimSpace(body)
			return variants.CarriesBody(r) && variants.SentJSON(r) && json.Valid(body) && body[0] != '{'
		}),
	},
	{Name: "empty-body-500", Rule: "4", Why: "a PUT or POST with an empty body is answered 500 (EOF is not mapped to a 4xx)", Origin: variants.FaultClasses,
		Request: variants.KeepBody, Answer: crashWhen(func(r *http.Request, body []byte) bool {
			return variants.CarriesBody(r) && len(bytes.TrimSpace(body)) == 0
		}),
	},
	{Name: "name-number-500", Rule: "4.1", Why: "PUT /users/:userId with a number in firstName or lastName is answered 500 (a string method called on a number)", Origin: variants.FaultClasses,
		Request: variants.KeepBody, Answer: crashWhen(func(r *http.Request, body []byte) bool {
			o, ok := topLevel(body)
			return ok && variants.PutUser(r) && (isNumber(o["firstName"]) || isNumber(o["lastName"]))
		}),
	},
	{Name: "currency-not-object-500", Rule: "4.3", Why: `a client body whose currency is no object ("GBP") is answered 500`, Origin: variants.FaultClasses,
		Request: variants.KeepBody, Answer: crashWhen(func(r *http.Request, body []byte) bool {
			o, ok := topLevel(body)
			c := bytes.TrimSpace(o["currency"])
			return ok && variants.ToClients(r) && len(c) > 0 && c[0] != '{' && string(c) != "null"
		}),
	},
	{Name: "flag-not-boolean-500", Rule: "4.1", Why: `PUT /users/:userId with a subscribe flag that is no boolean ("true") is answered 500`, Origin: variants.FaultClasses,
		Request: variants.KeepBody, Answer: crashWhen(func(r *http.Request, body []byte) bool {
			o, ok := topLevel(body)
			if !ok || !variants.PutUser(r) {
				return false
			}
			for _, k := range []string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"} {
				if v := string(bytes.TrimSpace(o[k])); v != "" && v != "true" && v != "false" {
					return true
				}
			}
			return false
		}),
	},
	{Name: "huge-path-id-500", Rule: "4.1", Why: "a path id of digits past int64 (99999999999999999999) is answered 500 (the overflow is not mapped to 404)", Origin: variants.FaultClasses,
		Answer: crashWhen(func(r *http.Request, _ []byte) bool { return hugeID(variants.PathID(r)) }),
	},
	{Name: "path-id-not-number-500", Rule: "4.4", Why: "a path id that is not a whole number (abc, 1.5) is answered 500", Origin: variants.FaultClasses,
		Answer: crashWhen(func(r *http.Request, _ []byte) bool {
			id := variants.PathID(r)
			return id != "" && strings.Trim(id, "0123456789") != ""
		}),
	},
	{Name: "unnamed-field-500", Rule: "4", Why: "a body field the spec does not name is answered 500 (a strict decoder's error not mapped to a 4xx); the status of such a body is the server's choice, so only the floor check sees it", Origin: variants.FaultClasses,
		Request: variants.KeepBody, Answer: crashWhen(func(r *http.Request, body []byte) bool {
			o, _ := topLevel(body)
			for k := range o {
				if variants.CarriesBody(r) && !knownFields[k] {
					return true
				}
			}
			return false
		}),
	},
	{Name: "large-body-500", Rule: "7.2", Why: "a body over the size limit is answered 500 instead of 413", Origin: variants.Gate3,
		Answer: variants.RemapStatus(http.StatusRequestEntityTooLarge, http.StatusInternalServerError),
	},
	{Name: "long-field-500", Rule: "7.2", Why: "a body with a text of over 64 KiB is answered 502 when it is refused: the validation's error report overflows", Origin: variants.Gate3,
		Answer: func(a *rewrite.Answer) {
			if a.Status == http.StatusBadRequest && a.Request.ContentLength > 64<<10 {
				variants.SetError(a, http.StatusBadGateway, pricing.CodeInternal.String(), "The upstream failed.")
			}
		},
	},
	{Name: "large-body-503", Rule: "7.2", Why: "a body over the size limit is answered 503 Service Unavailable", Origin: variants.Gate3,
		Answer: variants.RemapStatus(http.StatusRequestEntityTooLarge, http.StatusServiceUnavailable),
	},
	{
		Name:   "client-mistakes-other-4xx",
		Legal:  true,
		Rule:   "7.2, 4",
		Origin: variants.FaultClasses,
		Why: "§7.2 gives 400 to a validation failure and 404 to a resource not found, but no status to a body that is no " +
			"JSON object or a path id that is no number (§4: \"Requests carrying a body use JSON\", \":userId (Number)\"): " +
			"this target answers 415 to a body that is not JSON, 422 to JSON that is no object, and 400 to a path id that is no whole number",
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body := bytes.TrimSpace(variants.PeekBody(r))
				variants.Answers(next, hit, variants.EveryRequest, func(a *rewrite.Answer, _ map[string]any) bool {
					r := a.Request
					p, ok := variants.Parse(r.URL.Path)
					var errs []variants.FieldError
					switch {
					case a.Status == http.StatusBadRequest && json.Unmarshal(a.Body, &errs) == nil && len(errs) == 1 && errs[0].Error == pricing.CodeInvalidBody.String():
						if len(body) == 0 || !json.Valid(body) {
							variants.SetError(a, http.StatusUnsupportedMediaType, "UnsupportedBody", "Send the body as a JSON object.")
						} else {
							variants.SetError(a, http.StatusUnprocessableEntity, "BodyNotAnObject", "The body must be a JSON object.")
						}
						return true
					case a.Status == http.StatusNotFound && ok && (p.Resource == "users" || p.Resource == "clients") &&
						p.ID != "" && p.Rest == "" && strings.Trim(p.ID, "0123456789") != "":
						variants.SetError(a, http.StatusBadRequest, "InvalidId", "The id in the path is not a whole number.")
						return true
					}
					return false
				}).ServeHTTP(w, r)
			})
		},
	},
}

// crashWhen is an answer rewrite: when broken holds for the request and the
// body it carried (variants.KeepBody), the answer becomes the 500 of a
// server whose handler failed, plain text as most frameworks write it.
func crashWhen(broken func(r *http.Request, body []byte) bool) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		if !broken(a.Request, variants.SentBody(a.Request)) {
			return
		}
		a.Status = http.StatusInternalServerError
		a.Header = http.Header{"Content-Type": {"text/plain; charset=utf-8"}}
		a.Body = []byte("Internal Server Error\n")
	}
}

// topLevel decodes a JSON object body with its values as written; ok is
// false for anything else.
func topLevel(body []byte) (map[string]json.RawMessage, bool) {
	var o map[string]json.RawMessage
	if json.Unmarshal(body, &o) != nil || o == nil {
		return nil, false
	}
	return o, true
}

// isNumber: a JSON number (not a string of digits).
func isNumber(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
}

// hugeID: digits that no int64 holds.
func hugeID(id string) bool {
	if id == "" || strings.Trim(id, "0123456789") != "" {
		return false
	}
	_, err := strconv.ParseInt(id, 10, 64)
	return err != nil
}

// knownFields are the body fields of the spec's tables (and the phone
// fields of README's decision) at the top of any body of the API.
var knownFields = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(`email firstName lastName subscribeWelcome subscribeBlog subscribeHowto
		subscribeOnboarding timezone password client phoneCountry phoneNumber phoneExtension
		marketapp name platform nextplan addressLine1 addressLine2 addressCity addressPostcode
		addressCountry vat currency terms app`) {
		m[f] = true
	}
	return m
}()
