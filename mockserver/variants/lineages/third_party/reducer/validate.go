package reducer

import (
	"strings"
	"unicode/utf8"
)

// Validation: pure functions of (body, state) returning []FieldError.

type vctx struct {
	st State
}

func (v vctx) strLen(s string) int {
	if v.st.has("name-length-counts-bytes") {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

func fe(field, code, msg string) FieldError {
	return FieldError{FieldName: field, Error: code, Message: msg}
}

// requiredText: present, a string, not blank, at most 255 characters.
func (v vctx) requiredText(f Field[string], name, code, what string) []FieldError {
	switch {
	case !f.Given():
		return []FieldError{fe(name, code, "No "+what+" was provided")}
	case f.Bad:
		return []FieldError{fe(name, code, what+" must be a string")}
	case strings.TrimSpace(f.V) == "":
		return []FieldError{fe(name, code, "No "+what+" was provided")}
	case v.strLen(f.V) > 255:
		return []FieldError{fe(name, code, what+" is longer than 255 characters")}
	}
	return nil
}

// optionalText: absent or null, or a string of at most 255 characters.
func (v vctx) optionalText(f Field[string], name, code, what string) []FieldError {
	if !f.Given() {
		return nil
	}
	if f.Bad {
		return []FieldError{fe(name, code, what+" must be a string")}
	}
	if v.strLen(f.V) > 255 {
		return []FieldError{fe(name, code, what+" is longer than 255 characters")}
	}
	return nil
}

func validEmail(s string) bool {
	if strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at != strings.IndexByte(s, '@') {
		return false
	}
	dom := s[at+1:]
	if !strings.Contains(dom, ".") || strings.HasPrefix(dom, ".") || strings.HasSuffix(dom, ".") || strings.Contains(dom, "..") {
		return false
	}
	return true
}

func validTimezone(s string) bool {
	parts := strings.Split(s, "/")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" {
			return false
		}
		for _, r := range p {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '+') {
				return false
			}
		}
	}
	return true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func (v vctx) password(f Field[string], allowNull bool) []FieldError {
	if f.Set && f.Null && allowNull {
		return nil
	}
	if !f.Given() || f.Bad {
		return []FieldError{fe("password", "InvalidPassword", "A password of at least 6 characters is required")}
	}
	n := utf8.RuneCountInString(f.V)
	if v.st.has("password-length-counts-bytes") {
		n = len(f.V)
	}
	if n < 6 {
		return []FieldError{fe("password", "InvalidPassword", "The password is too short")}
	}
	return nil
}

func (v vctx) email(f Field[string], self int64, skipUnique bool) []FieldError {
	if !f.Given() || f.Bad || v.strLen(f.V) > 255 || !validEmail(f.V) {
		return []FieldError{fe("email", "InvalidEmail", "The email address is invalid")}
	}
	if !skipUnique {
		if l, ok := v.st.logins.Get(foldEmail(f.V)); ok && l.UserID != self {
			return []FieldError{fe("email", "InvalidEmail", "The email address is already in use")}
		}
	}
	return nil
}

func boolField(f Field[bool], name, code string) []FieldError {
	if !f.Given() || f.Bad {
		return []FieldError{fe(name, code, name+" must be a boolean")}
	}
	return nil
}

// userBody validates PUT /users/:userId (update true) and POST /users.
func (v vctx) userBody(b UserBody, self int64, update, skipUnique bool) []FieldError {
	var errs []FieldError
	keepAbsent := update && v.st.has("put-user-absent-fields-kept")
	if !(keepAbsent && !b.Email.Set) {
		errs = append(errs, v.email(b.Email, self, skipUnique)...)
	}
	if !(keepAbsent && !b.FirstName.Set) {
		errs = append(errs, v.requiredText(b.FirstName, "firstName", "InvalidFirstName", "first name")...)
	}
	if !(keepAbsent && !b.LastName.Set) {
		errs = append(errs, v.requiredText(b.LastName, "lastName", "InvalidLastName", "last name")...)
	}
	subs := []struct {
		f          Field[bool]
		name, code string
	}{
		{b.SubscribeWelcome, "subscribeWelcome", "InvalidSubscribeWelcome"},
		{b.SubscribeBlog, "subscribeBlog", "InvalidSubscribeBlog"},
		{b.SubscribeHowto, "subscribeHowto", "InvalidSubscribeHowto"},
		{b.SubscribeOnboarding, "subscribeOnboarding", "InvalidSubscribeOnboarding"},
	}
	for _, s := range subs {
		if !update && !s.f.Set { // POST /users: preferences default to false
			continue
		}
		if keepAbsent && !s.f.Set {
			continue
		}
		errs = append(errs, boolField(s.f, s.name, s.code)...)
	}
	if update || b.Timezone.Set {
		if !(keepAbsent && !b.Timezone.Set) {
			if !b.Timezone.Given() || b.Timezone.Bad || v.strLen(b.Timezone.V) > 255 || !validTimezone(b.Timezone.V) {
				errs = append(errs, fe("timezone", "InvalidTimezone", "The timezone must be a name of the form Area/City"))
			}
		}
	}
	if !(keepAbsent && !b.Password.Set) {
		errs = append(errs, v.password(b.Password, update)...)
	}
	if b.PhoneCountryID.Set {
		if _, ok := findPhoneCountry(b.PhoneCountryID.V); !b.PhoneCountryID.Given() || b.PhoneCountryID.Bad || !ok {
			errs = append(errs, fe("phoneCountry.id", "InvalidPhoneCountryId", "The country ID does not match an allowed value"))
		}
	}
	if b.PhoneNumber.Set {
		errs = append(errs, v.requiredText(b.PhoneNumber, "phoneNumber", "InvalidPhoneNumber", "phone number")...)
	}
	if b.PhoneExtension.Set && !b.PhoneExtension.Null {
		if b.PhoneExtension.Bad || len(b.PhoneExtension.V) > 10 || !digitsOnly(b.PhoneExtension.V) {
			errs = append(errs, fe("phoneExtension", "InvalidPhoneExtension", "The phone extension must be null or 1 to 10 digits"))
		}
	}
	if b.ClientBad {
		errs = append(errs, fe("client", "InvalidClient", "client must be an object"))
	} else if b.Client != nil {
		errs = append(errs, v.clientBody(*b.Client, "client.", false)...)
	}
	return errs
}

// clientBody validates POST /clients (update false) and PUT /clients/:id.
func (v vctx) clientBody(b ClientBody, prefix string, update bool) []FieldError {
	var errs []FieldError
	errs = append(errs, v.requiredText(b.Name, prefix+"name", "InvalidName", "name")...)
	errs = append(errs, v.requiredText(b.AddressLine1, prefix+"addressLine1", "InvalidAddressLine1", "address line 1")...)
	errs = append(errs, v.optionalText(b.AddressLine2, prefix+"addressLine2", "InvalidAddressLine2", "address line 2")...)
	errs = append(errs, v.requiredText(b.AddressCity, prefix+"addressCity", "InvalidAddressCity", "city")...)
	errs = append(errs, v.requiredText(b.AddressPostcode, prefix+"addressPostcode", "InvalidAddressPostcode", "postcode")...)
	errs = append(errs, v.requiredText(b.AddressCountry, prefix+"addressCountry", "InvalidAddressCountry", "country")...)
	errs = append(errs, v.optionalText(b.VAT, prefix+"vat", "InvalidVat", "VAT number")...)
	if _, ok := findCurrency(b.CurrencyID.V); !b.CurrencyID.Given() || b.CurrencyID.Bad || !ok {
		errs = append(errs, fe(prefix+"currency.id", "InvalidCurrencyId", "currency.id must be the ID of a billing currency"))
	}
	terms := b.Terms.Given() && !b.Terms.Bad && v.strLen(b.Terms.V) <= 255 && b.Terms.V == "I agree"
	if v.st.has("terms-case-insensitive") && b.Terms.Given() && !b.Terms.Bad {
		terms = strings.EqualFold(b.Terms.V, "I agree")
	}
	if !terms {
		errs = append(errs, fe(prefix+"terms", "InvalidTerms", "terms must equal \"I agree\""))
	}
	if update {
		if b.AppPresent && !v.st.has("put-client-app-ignored") {
			errs = append(errs, fe(prefix+"app", "InvalidApp", "app must not be given to this endpoint; use POST /apps"))
		}
	} else if b.AppBad {
		errs = append(errs, fe(prefix+"app", "InvalidApp", "app must be an object"))
	} else if b.App != nil {
		errs = append(errs, v.appBody(*b.App, prefix+"app.")...)
	}
	return errs
}

// appBody validates POST /apps and the nested app of POST /clients.
func (v vctx) appBody(b AppBody, prefix string) []FieldError {
	var errs []FieldError
	hashGiven := b.Hash.Given()
	if b.MarketappBad {
		errs = append(errs, fe(prefix+"marketapp", "InvalidMarketapp", "marketapp must be an object"))
	} else if hashGiven {
		okLen := len(b.Hash.V) == 40 || v.st.has("marketapp-hash-length-unchecked")
		if b.Hash.Bad || !okLen || !isHex(b.Hash.V) {
			errs = append(errs, fe(prefix+"marketapp.hash", "InvalidMarketappHash", "marketapp.hash must be 40 hexadecimal characters"))
		}
	}
	if !hashGiven && !b.MarketappBad {
		errs = append(errs, v.requiredText(b.Name, prefix+"name", "InvalidName", "app name")...)
		if _, ok := findPlatform(b.PlatformID.V); !b.PlatformID.Given() || b.PlatformID.Bad || !ok {
			errs = append(errs, fe(prefix+"platform.id", "InvalidPlatformId", "platform.id must be the ID of a platform"))
		}
	} else if b.Name.Given() && (b.Name.Bad || v.strLen(b.Name.V) > 255) {
		errs = append(errs, fe(prefix+"name", "InvalidName", "name must be a string of at most 255 characters or null"))
	}
	if _, ok := findPlan(b.NextplanID.V); !b.NextplanID.Given() || b.NextplanID.Bad || !ok {
		errs = append(errs, fe(prefix+"nextplan.id", "InvalidNextplanId", "nextplan.id must be the ID of a subscription plan"))
	}
	return errs
}
