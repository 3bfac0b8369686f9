package reducer

// Field is a body member after conversion from map[string]any: absent (Set
// false), null (Null), of the wrong JSON type (Bad), or a value.
type Field[T any] struct {
	Set  bool
	Null bool
	Bad  bool
	V    T
}

// Given reports a present, non-null member.
func (f Field[T]) Given() bool { return f.Set && !f.Null }

// Credentials are what the request offered for authentication.
type Credentials struct {
	Authorization    string
	HasAuthorization bool
	SessionHeader    string
	HasSessionHeader bool
	SessionQuery     string
	HasSessionQuery  bool
}

type AppBody struct {
	MarketappBad bool // marketapp present but not an object
	Hash         Field[string]
	Name         Field[string]
	PlatformID   Field[int64]
	NextplanID   Field[int64]
}

type ClientBody struct {
	Name            Field[string]
	AddressLine1    Field[string]
	AddressLine2    Field[string]
	AddressCity     Field[string]
	AddressPostcode Field[string]
	AddressCountry  Field[string]
	VAT             Field[string]
	CurrencyID      Field[int64]
	Terms           Field[string]
	AppPresent      bool // the member "app" exists, whatever its value
	AppBad          bool // "app" present, not null and not an object
	App             *AppBody
}

type UserBody struct {
	Email               Field[string]
	FirstName           Field[string]
	LastName            Field[string]
	SubscribeWelcome    Field[bool]
	SubscribeBlog       Field[bool]
	SubscribeHowto      Field[bool]
	SubscribeOnboarding Field[bool]
	Timezone            Field[string]
	Password            Field[string]
	PhoneCountryID      Field[int64]
	PhoneNumber         Field[string]
	PhoneExtension      Field[string]
	ClientBad           bool
	Client              *ClientBody
}

// Command is one request, fully parsed. Every endpoint is one Command type.
type Command interface{ creds() Credentials }

type (
	// PUT /users/:userId
	UpdateUser struct {
		Auth   Credentials
		UserID int64
		Body   UserBody
		// set by the shell only under the fault email-uniqueness-checked-in-shell
		emailPrechecked bool
	}
	// POST /users (public)
	CreateUser struct{ Body UserBody }
	// GET /users/:userId
	GetUser struct {
		Auth   Credentials
		UserID int64
	}
	// POST /clients
	CreateClient struct {
		Auth Credentials
		Body ClientBody
	}
	// PUT /clients/:clientId
	UpdateClient struct {
		Auth     Credentials
		ClientID int64
		Body     ClientBody
	}
	// GET /clients/:clientId
	GetClient struct {
		Auth     Credentials
		ClientID int64
	}
	// POST /apps; ClientID 0 means the caller's current client
	CreateApp struct {
		Auth     Credentials
		ClientID int64
		Body     AppBody
		// set by the shell only under the fault app-id-reserved-before-retry
		reservedID int64
	}
	// GET /apps/:appId
	GetApp struct {
		Auth  Credentials
		AppID int64
	}
	// GET /apps
	ListApps struct{ Auth Credentials }
	// POST /sessions (public)
	CreateSession struct {
		Email    Field[string]
		Password Field[string]
		ClientID Field[int64]
	}
	// GET /platforms, /currencies, /plans, /phonecountries, /marketapps (public)
	GetCatalogue struct{ Name string }
)

func (c UpdateUser) creds() Credentials    { return c.Auth }
func (c CreateUser) creds() Credentials    { return Credentials{} }
func (c GetUser) creds() Credentials       { return c.Auth }
func (c CreateClient) creds() Credentials  { return c.Auth }
func (c UpdateClient) creds() Credentials  { return c.Auth }
func (c GetClient) creds() Credentials     { return c.Auth }
func (c CreateApp) creds() Credentials     { return c.Auth }
func (c GetApp) creds() Credentials        { return c.Auth }
func (c ListApps) creds() Credentials      { return c.Auth }
func (c CreateSession) creds() Credentials { return Credentials{} }
func (c GetCatalogue) creds() Credentials  { return Credentials{} }

// IDSource supplies random identifiers (write keys, tokens, api keys).
type IDSource interface {
	Hex(n int) string // n lowercase hexadecimal characters
}

// Result is what a command produced. Errors travel as *Failure.
type Result struct {
	Status  int
	Body    any
	changed bool
}

type FieldError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

// Failure is every refusal: 400 with Fields, or another status with a code.
type Failure struct {
	Status  int
	Code    string
	Message string
	Fields  []FieldError
}

func (f *Failure) Error() string { return f.Code + ": " + f.Message }

func invalid(fields []FieldError) *Failure {
	return &Failure{Status: 400, Code: "ValidationFailed", Message: "validation failed", Fields: fields}
}

func fail(status int, code, msg string) *Failure {
	return &Failure{Status: status, Code: code, Message: msg}
}

// Rejected is a request the shell could not turn into its command (the body
// is not a JSON object, too large, of the wrong media type). It still goes
// through the reducer so that authentication is decided first.
type Rejected struct {
	Auth    Credentials
	Public  bool
	Failure *Failure
}

func (c Rejected) creds() Credentials { return c.Auth }
