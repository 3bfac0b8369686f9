package pricing

// The checks of a user body (PUT /users/:userId, POST /users): its email,
// timezone, password and phone, each field as its table row says (4.1, 8).

import "fmt"

func (v *checker) user(b Body, userID int64, create bool) UserInput {
	var in UserInput
	in.Email = v.email(b, userID)
	in.FirstName = value(v.text(b, UserBody.Field("firstName")))
	in.LastName = value(v.text(b, UserBody.Field("lastName")))
	in.SubscribeWelcome = v.requiredBool(b, UserBody.Field("subscribeWelcome"))
	in.SubscribeBlog = v.requiredBool(b, UserBody.Field("subscribeBlog"))
	in.SubscribeHowto = v.requiredBool(b, UserBody.Field("subscribeHowto"))
	in.SubscribeOnboarding = v.requiredBool(b, UserBody.Field("subscribeOnboarding"))
	in.Timezone = v.timezone(b)
	in.Password = v.password(b, create)
	v.phone(b, create, &in)
	in.Client = v.userClient(b)
	return in
}

// email checks a required email: a plain address no other user has.
func (v *checker) email(b Body, userID int64) string {
	f := UserBody.Field("email")
	key, code := f.Path, f.Code
	email, ok := v.givenString(b, f)
	switch {
	case !ok:
	case !validEmail(email) && v.fails(key, code, CondForm, "email must be a valid email address."):
	case v.cat.EmailTaken(email, userID):
		v.fail(key, code, CondTaken, "email is already used by another account.")
	default:
		return email
	}
	return ""
}

// givenString is the string of a required field f that the body gives
// within f's limit; otherwise it fails the field (left out, not a string,
// too long) and reports false.
func (v *checker) givenString(b Body, f Field) (string, bool) {
	key, code := f.Path, f.Code
	s, present, ok := str(b, key)
	switch {
	case !present:
		v.fail(key, code, CondRequired, key+" is required.")
	case !ok:
		v.fail(key, code, CondType, key+" must be a string.")
	case v.tooLong(f, s):
	default:
		return s, true
	}
	return "", false
}

// timezone checks a required Area/City name.
func (v *checker) timezone(b Body) string {
	f := UserBody.Field("timezone")
	key, code := f.Path, f.Code
	tz, ok := v.givenString(b, f)
	switch {
	case !ok:
	case !timezoneRE.MatchString(tz) && v.fails(key, code, CondForm, "timezone must be a name of the form Area/City, such as Europe/London."):
	default:
		return tz
	}
	return ""
}

// password checks the password: required to create a user; on an update,
// null or absent (nil) keeps the stored one.
func (v *checker) password(b Body, create bool) *string {
	f := UserBody.Field("password")
	key, code := f.Path, f.Code
	least := v.dev.minPassword(f.Min)
	pw, present, ok := str(b, key)
	switch {
	case !present && create:
		v.fail(key, code, CondRequired, fmt.Sprintf("password is required: a string of at least %d characters.", least))
	case !present && v.dev.NullPasswordClears && hasKey(b, key):
		return ptr("")
	case !present:
		// null or absent keeps the current password
	case !ok:
		v.fail(key, code, CondType, fmt.Sprintf("password must be a string of at least %d characters, or null.", least))
	case runes(pw) < least:
		v.fail(key, code, CondShort, fmt.Sprintf("password must be at least %d characters long.", least))
	default:
		return &pw
	}
	return nil
}

// phone checks phoneCountry.id, phoneNumber and phoneExtension: the first
// two are required to create a user; on an update, each one left out keeps
// the stored value.
func (v *checker) phone(b Body, create bool, in *UserInput) {
	if hasKey(b, "phoneCountry") || create {
		if n, ok := v.reference(b, UserBody.Field("phoneCountry.id"), "phoneCountry", func(n int64) bool { _, ok := v.cat.PhoneCountry(n); return ok },
			"phoneCountry.id must be the id of a phone country (see GET /phoneCountries)."); ok {
			in.PhoneCountryID = n
		}
	}
	if f := UserBody.Field("phoneNumber"); hasKey(b, f.Path) || create {
		key, code := f.Path, f.Code
		s, present, ok := str(b, key)
		switch {
		case !present || !ok:
			v.fail(key, code, textCond(present, ok, s), "phoneNumber must be a non-empty string.")
		case blank(s) && v.fails(key, code, blankCond(s), "phoneNumber must be a non-empty string."):
		case v.tooLong(f, s):
		default:
			in.PhoneNumber = &s
		}
	}
	if f := UserBody.Field("phoneExtension"); hasKey(b, f.Path) {
		s, present, ok := str(b, f.Path)
		switch {
		case !present:
			in.SetPhoneExtension = true
		case !ok:
			v.fail(f.Path, f.Code, CondType, fmt.Sprintf("phoneExtension must be null or a string of 1 to %d digits.", maxPhoneExtDigs))
		case !phoneExtRE.MatchString(s) && v.fails(f.Path, f.Code, CondForm, fmt.Sprintf("phoneExtension must be null or a string of 1 to %d digits.", maxPhoneExtDigs)):
		default:
			in.SetPhoneExtension, in.PhoneExtension = true, &s
		}
	}
}
