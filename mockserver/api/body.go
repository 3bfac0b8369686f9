package api

import (
	"bytes"
	"errors"
	"mime"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// MaxBody is the largest request body the API reads; a larger one answers
// 413.
const MaxBody = 1 << 20

// bodyShape bounds a body before it is decoded, far above any body of the
// API (a user with a client and its app is about 30 values, 3 deep), so
// that decoding costs a small multiple of the body's size.
var bodyShape = jsonio.Shape{Depth: 32, Items: 1000, Values: 10000}

// decodeObject reads a JSON object body, whatever the Content-Type; hint,
// when set, follows the message of a body that is not one, to say what the
// endpoint takes.
func decodeObject(b []byte, hint string) (pricing.Body, Refusal, bool) {
	refuse := func(rule Rule, message string) (pricing.Body, Refusal, bool) {
		return nil, Refusal{Rule: rule, Status: pricing.CodeInvalidBody.Status(),
			Errors: []pricing.FieldError{{Error: pricing.CodeInvalidBody, Message: message, Rule: string(rule)}}}, false
	}
	if err := jsonio.CheckShape(b, bodyShape); err != nil {
		return refuse(RuleBodyShape, "The request body is refused: "+strings.TrimPrefix(err.Error(), jsonio.ErrShape.Error()+": ")+
			" (no body of this API comes near).")
	}
	var v any
	switch err := jsonio.Decode(b, &v); {
	case errors.Is(err, jsonio.ErrTrailingData):
		return refuse(RuleNotJSON, "The request body holds more than one JSON value."+hint)
	case err != nil:
		return refuse(RuleNotJSON, "The request body is not valid JSON: "+err.Error()+"."+hint)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return refuse(RuleNotObject, "The request body must be a JSON object."+hint)
	}
	return obj, Refusal{}, true
}

// sessionBodyHint ends the message of a login body that cannot be read.
const sessionBodyHint = ` POST /sessions takes {"email": "...", "password": "..."} as JSON, ` +
	`or email=...&password=... with Content-Type application/x-www-form-urlencoded.`

// IsFormLogin reports whether a login body is read as a form: typed as one
// (in any case, with any parameters) and not JSON. `curl -d '{"email":...}'`
// types its JSON as a form, and a form never starts with "{" or "[", so such
// a body is read as the JSON it is rather than as a form with no email.
func IsFormLogin(contentType string, body []byte) bool {
	if mt, _, _ := mime.ParseMediaType(contentType); mt != "application/x-www-form-urlencoded" {
		return false
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	return len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[')
}

// loginBody reads the body of POST /sessions: a form or a JSON object.
func (c *call) loginBody() bool {
	if c.r.BodyTooLarge || len(c.r.Body) > c.api.opts.MaxBody {
		// Nothing past the body can be judged without it.
		c.refuseWith(RuleBodyTooLarge, pricing.CodeBodyTooLarge, "The request body is larger than 1 MiB.")
		return false
	}
	if !IsFormLogin(c.r.Header.Get("Content-Type"), c.r.Body) {
		return c.readBody(sessionBodyHint)
	}
	form, err := url.ParseQuery(string(c.r.Body))
	if err != nil {
		c.refuseWith(RuleNotJSON, pricing.CodeInvalidBody, "The form body could not be parsed."+sessionBodyHint)
		return false
	}
	body := pricing.Body{}
	for _, k := range []string{"email", "password"} {
		if vs, ok := form[k]; ok && len(vs) > 0 {
			body[k] = vs[0]
		}
	}
	c.body, c.p.Body = body, body
	return true
}

var pathIDRE = regexp.MustCompile(`^[1-9][0-9]{0,18}$`)

// PathID reads a path id: a plain positive decimal that fits int64.
// Anything else names no resource.
func PathID(p string) (int64, bool) {
	if !pathIDRE.MatchString(p) {
		return 0, false
	}
	n, err := strconv.ParseInt(p, 10, 64)
	return n, err == nil
}

// pathID reads the path parameter name; anything that is no id answers 404.
func (c *call) pathID(name, what string) (int64, bool) {
	p := c.params[name]
	if n, ok := PathID(p); ok {
		return n, true
	}
	c.refuseWith(RuleMalformedID, pricing.CodeNotFound, "There is no "+what+" with id "+strconv.Quote(p)+".")
	return 0, false
}
