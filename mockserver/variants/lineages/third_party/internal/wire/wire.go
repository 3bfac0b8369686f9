// Package wire holds the user, client and session objects of the spec's
// section 2 as JSON, field by field in the order of its tables, and the
// element of an error array of 7.1, for the lineages to share: the part of
// an implementation the spec writes out in full.
// What a lineage stores, checks and answers stays its own; a field a fault
// may write in another JSON form is an any.
package wire

// User is the user object of 2.1.
type User struct {
	// ID is the user's id, an int64; it is an any so that a fault may
	// write it in another JSON form (a float, a string).
	ID                  any          `json:"id"`
	Created             string       `json:"created"`
	Email               string       `json:"email"`
	PasswordLastChanged string       `json:"passwordLastChanged"`
	FirstName           string       `json:"firstName"`
	LastName            string       `json:"lastName"`
	SubscribeWelcome    bool         `json:"subscribeWelcome"`
	SubscribeBlog       bool         `json:"subscribeBlog"`
	SubscribeHowto      bool         `json:"subscribeHowto"`
	SubscribeOnboarding bool         `json:"subscribeOnboarding"`
	PhoneCountry        PhoneCountry `json:"phoneCountry"`
	PhoneNumber         string       `json:"phoneNumber"`
	// PhoneExtension is a *string, nil for none; it is an any so that a
	// fault may write it in another JSON form (a number).
	PhoneExtension any    `json:"phoneExtension"`
	Timezone       string `json:"timezone"`
}

// PhoneCountry is a user's phone country: its id, its label and its dial
// code.
type PhoneCountry struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	DialCode string `json:"dialCode"`
}

// Client is the client object of 2.2; the optional strings are left out
// when the client has none.
type Client struct {
	ID              int64    `json:"id"`
	CreatedDate     string   `json:"createdDate"`
	Name            string   `json:"name"`
	AddressLine1    string   `json:"addressLine1"`
	AddressLine2    *string  `json:"addressLine2,omitempty"`
	AddressCity     string   `json:"addressCity"`
	AddressPostcode string   `json:"addressPostcode"`
	AddressCountry  string   `json:"addressCountry"`
	VAT             *string  `json:"vat,omitempty"`
	Currency        Currency `json:"currency"`
}

// Currency is a client's currency: its id and its code.
type Currency struct {
	ID int64 `json:"id"`
	// Code is the currency's code, a string; it is an any so that a fault
	// may write it in another JSON form (a number).
	Code any `json:"code"`
}

// Plan is an app's plan object of 2.3: its flags.
type Plan struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

// PlanItem is a plan of the plans collection as the lineages that write
// its flags list it (2.5 shows no field beyond its id): its id, its name,
// then the flags of 2.3.
type PlanItem struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Plan
}

// Session is the session object of 2.4.
type Session struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	UserID        int64  `json:"userId"`
	ClientID      int64  `json:"clientId"`
	Token         string `json:"token"`
}

// FieldError is one element of the error array of a 400 (7.1).
type FieldError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}
