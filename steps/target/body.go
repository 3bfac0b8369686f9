package target

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The two forms of the phone country in a body: the spec shows no request
// field for it (7.3 names its code, InvalidPhoneCountryId; 2.1 answers it
// as the object phoneCountry {id, name, dialCode}).
const (
	PhoneCountryObject = "phoneCountry.id"
	PhoneCountryFlat   = "phoneCountryId"
)

// ShapeBody writes a JSON body as the target takes it: the tools write the
// phone country as phoneCountry {id}; a target whose phone_country_field is
// phoneCountryId gets phoneCountryId: id. A body that is no JSON object, or
// has no phone country, is sent as it is.
func (p Profile) ShapeBody(body []byte) []byte {
	if p.PhoneCountryField != PhoneCountryFlat || len(body) == 0 || body[0] != '{' && !bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
		return body
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var obj map[string]any
	if dec.Decode(&obj) != nil || obj == nil || dec.More() {
		return body
	}
	pc, ok := obj["phoneCountry"].(map[string]any)
	if !ok {
		return body
	}
	delete(obj, "phoneCountry")
	if id, ok := pc["id"]; ok {
		obj["phoneCountryId"] = id
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(obj) != nil {
		return body
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// fieldAliases are the names a target may give a nested field of the
// spec's bodies in an error's fieldName, flat in the camel case of its
// code (InvalidPhoneCountryId): what the tools read as the dotted path.
var fieldAliases = map[string]string{
	"phoneCountryId": "phoneCountry.id", "currencyId": "currency.id", "platformId": "platform.id",
	"nextplanId": "nextplan.id", "marketappHash": "marketapp.hash",
}

// FieldPath reads an error's fieldName as a dotted path of the body:
// brackets (app[marketapp][hash]) and the flat camel-case names of nested
// fields (phoneCountryId, client.currencyId) as the dotted path they name.
func FieldPath(name string) string {
	name = strings.ReplaceAll(name, "][", ".")
	name = strings.ReplaceAll(name, "[", ".")
	name = strings.TrimSuffix(name, "]")
	parts := strings.Split(name, ".")
	if alias, ok := fieldAliases[parts[len(parts)-1]]; ok {
		parts[len(parts)-1] = alias
	}
	return strings.Join(parts, ".")
}
