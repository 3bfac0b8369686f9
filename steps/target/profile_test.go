package target

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// mapEnv is a getenv over a fixed map, so no test touches the process
// environment.
func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// seedProfile is the mock's seed, written out by hand rather than derived
// from profileFields, so that a wrong default in the table is caught.
func seedProfile() Profile {
	return Profile{
		BaseURL:        "http://127.0.0.1:8080/v1",
		Email:          "qa@example.com",
		Password:       "qa-password",
		APIKey:         "qa-api-key",
		OtherEmail:     "other@example.com",
		OtherPassword:  "other-password",
		OtherAPIKey:    "other-api-key",
		CurrencyID:     "1",
		PlanID:         "1",
		PlatformID:     "1",
		PhoneCountryID: "1",
		MarketappHash:  "fecaf482f29181490ae5ecfb2790186ce7f82078",
		LoginEncoding:  "json",
		FirstName:      "Quinn",
		LastName:       "Assurance",
		Timezone:       "Europe/London",
		OtherFirstName: "Olive",
		OtherLastName:  "Other",
		OtherTimezone:  "America/New_York",

		EmailDomain:         "example.com",
		PhoneNumber:         "7700900123",
		PhoneExtension:      "null",
		OtherPhoneCountryID: "2",
		OtherPhoneNumber:    "2025550143",
		OtherPhoneExtension: "42",
		AddressLine1:        "1 Contract Street",
		AddressLine2:        "Floor 2",
		AddressCity:         "London",
		AddressPostcode:     "EC1A 1BB",
		AddressCountry:      "United Kingdom",
		VAT:                 "GB123456789",
		ClientsPerUser:      "several",
		AppsPerMarketapp:    "several",
		PhoneCountryField:   "phoneCountry.id",
		VersionForms:        "v1,v1.0",
		PlatformsPath:       "/platforms",
		Currencies:          "1:GBP,2:EUR,3:USD",
		Plans:               "1:lite,2:pro,3:dynamic",
		Platforms:           "1:Android,2:iOS",
		SeedDefaults:        "auto",
		ClockSkew:           "2m",
	}
}

func with(p Profile, edit func(*Profile)) Profile {
	edit(&p)
	return p
}

func TestProfileFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Profile
	}{
		{"no environment is the mock's seed", nil, seedProfile()},
		{"empty variables keep the defaults", map[string]string{"PRICING_EMAIL": "", "PRICING_BASE_URL": ""}, seedProfile()},
		{
			"every variable is read",
			map[string]string{
				"PRICING_BASE_URL":         "https://staging.example.com/v1.0",
				"PRICING_EMAIL":            "a@example.org",
				"PRICING_PASSWORD":         "pa",
				"PRICING_API_KEY":          "ka",
				"PRICING_OTHER_EMAIL":      "b@example.org",
				"PRICING_OTHER_PASSWORD":   "pb",
				"PRICING_OTHER_API_KEY":    "kb",
				"PRICING_CURRENCY_ID":      "11",
				"PRICING_PLAN_ID":          "12",
				"PRICING_PLATFORM_ID":      "13",
				"PRICING_PHONE_COUNTRY_ID": "14",
				"PRICING_MARKETAPP_HASH":   "0123456789abcdef0123456789abcdef01234567",
				"PRICING_LOGIN_ENCODING":   "form",
				"PRICING_FIRST_NAME":       "Fa",
				"PRICING_LAST_NAME":        "La",
				"PRICING_TIMEZONE":         "Asia/Tokyo",
				"PRICING_OTHER_FIRST_NAME": "Fb",
				"PRICING_OTHER_LAST_NAME":  "Lb",
				"PRICING_OTHER_TIMEZONE":   "Africa/Lagos",

				"PRICING_EMAIL_DOMAIN":           "mail.example.org",
				"PRICING_PHONE_NUMBER":           "301234567",
				"PRICING_PHONE_EXTENSION":        "12",
				"PRICING_OTHER_PHONE_COUNTRY_ID": "15",
				"PRICING_OTHER_PHONE_NUMBER":     "5550100",
				"PRICING_OTHER_PHONE_EXTENSION":  "null",
				"PRICING_ADDRESS_LINE1":          "Unter den Linden 1",
				"PRICING_ADDRESS_LINE2":          "Hinterhaus",
				"PRICING_ADDRESS_CITY":           "Berlin",
				"PRICING_ADDRESS_POSTCODE":       "10117",
				"PRICING_ADDRESS_COUNTRY":        "DE",
				"PRICING_VAT":                    "DE123456789",
				"PRICING_CLIENTS_PER_USER":       "one",
				"PRICING_APPS_PER_MARKETAPP":     "one",
				"PRICING_VERSION_FORMS":          "v1.0",
				"PRICING_PLATFORMS_PATH":         "/catalogue/platforms",
				"PRICING_CURRENCIES":             "7:CHF,8:JPY",
				"PRICING_PLANS":                  "4:pro,5:none",
				"PRICING_PLATFORMS":              "9:iOS,10:Android",
			},
			Profile{
				BaseURL: "https://staging.example.com/v1.0", Email: "a@example.org", Password: "pa", APIKey: "ka",
				OtherEmail: "b@example.org", OtherPassword: "pb", OtherAPIKey: "kb",
				CurrencyID: "11", PlanID: "12", PlatformID: "13", PhoneCountryID: "14",
				MarketappHash: "0123456789abcdef0123456789abcdef01234567", LoginEncoding: "form",
				FirstName: "Fa", LastName: "La", Timezone: "Asia/Tokyo",
				OtherFirstName: "Fb", OtherLastName: "Lb", OtherTimezone: "Africa/Lagos",
				EmailDomain: "mail.example.org", PhoneNumber: "301234567", PhoneExtension: "12",
				OtherPhoneCountryID: "15", OtherPhoneNumber: "5550100", OtherPhoneExtension: "null",
				AddressLine1: "Unter den Linden 1", AddressLine2: "Hinterhaus", AddressCity: "Berlin",
				AddressPostcode: "10117", AddressCountry: "DE", VAT: "DE123456789",
				ClientsPerUser: "one", AppsPerMarketapp: "one", PhoneCountryField: "phoneCountry.id", VersionForms: "v1.0", PlatformsPath: "/catalogue/platforms",
				Currencies: "7:CHF,8:JPY", Plans: "4:pro,5:none", Platforms: "9:iOS,10:Android", SeedDefaults: "auto", ClockSkew: "2m",
			},
		},
		{
			"a trailing slash of the base URL is dropped",
			map[string]string{"PRICING_BASE_URL": "http://127.0.0.1:9999/v1/"},
			with(seedProfile(), func(p *Profile) { p.BaseURL = "http://127.0.0.1:9999/v1" }),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ProfileFromEnv(mapEnv(tt.env)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ProfileFromEnv:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestLoadProfile(t *testing.T) {
	stagingSecrets := map[string]string{
		"PRICING_STAGING_PASSWORD":       "s3cret-a",
		"PRICING_STAGING_API_KEY":        "key-a",
		"PRICING_STAGING_OTHER_PASSWORD": "s3cret-b",
		"PRICING_STAGING_OTHER_API_KEY":  "key-b",
	}
	withEnv := func(m map[string]string, k, v string) map[string]string {
		out := map[string]string{k: v}
		for mk, mv := range m {
			if mk != k {
				out[mk] = mv
			}
		}
		return out
	}
	staging := with(seedProfile(), func(p *Profile) {
		p.BaseURL = "https://staging.example.com/v1"
		p.Email, p.Password, p.APIKey = "contract-qa-a@example.com", "s3cret-a", "key-a"
		p.OtherEmail, p.OtherPassword, p.OtherAPIKey = "contract-qa-b@example.com", "s3cret-b", "key-b"
	})
	poolSecrets := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			out[k] = v
			out[k+"_2"], out[k+"_3"] = v+"-2", v+"-3"
		}
		return out
	}
	pool := with(staging, func(p *Profile) {
		p.Pairs = []AccountPair{
			{"contract-qa-a2@example.com", "s3cret-a-2", "key-a-2", "contract-qa-b2@example.com", "s3cret-b-2", "key-b-2"},
			{"contract-qa-a3@example.com", "s3cret-a-3", "key-a-3", "contract-qa-b3@example.com", "s3cret-b-3", "key-b-3"},
		}
	})
	local := with(seedProfile(), func(p *Profile) {
		p.BaseURL = "http://127.0.0.1:3000/v1"
		p.LoginEncoding = "form"
	})

	tests := []struct {
		name     string
		file     string // testdata/profiles/<file>, or inline content when it has a newline
		env      map[string]string
		want     Profile
		wantTags string
		wantErr  []string // substrings of the error; nil: no error
	}{
		{name: "no file is the environment over the defaults", env: map[string]string{"PRICING_PLAN_ID": "2"},
			want: with(seedProfile(), func(p *Profile) { p.PlanID = "2" })},
		{name: "mock profile is the seed", file: "mock.profile", want: seedProfile()},
		{name: "staging with its secrets", file: "staging.profile", env: stagingSecrets, want: staging},
		{name: "staging without a secret names the variable and the line", file: "staging.profile",
			env:     withEnv(stagingSecrets, "PRICING_STAGING_API_KEY", ""),
			wantErr: []string{"staging.profile:6:", "api_key", "PRICING_STAGING_API_KEY is not set"}},
		{name: "environment beats the file", file: "staging.profile",
			env:  withEnv(stagingSecrets, "PRICING_BASE_URL", "http://127.0.0.1:8080/v1.0"),
			want: with(staging, func(p *Profile) { p.BaseURL = "http://127.0.0.1:8080/v1.0" })},
		{name: "local uses its ${VAR:-default} defaults", file: "local.profile", want: local},
		{name: "local with its variables set", file: "local.profile",
			env:      map[string]string{"PRICING_LOCAL_PORT": "4000", "PRICING_LOCAL_TAGS": "@s5 && ~@s9"},
			want:     with(local, func(p *Profile) { p.BaseURL = "http://127.0.0.1:4000/v1" }),
			wantTags: "@s5 && ~@s9"},
		{name: "missing file", file: "nope.profile", wantErr: []string{"nope.profile"}},
		{name: "comments, blank lines, CRLF, quotes, # and $$ in values",
			file: "# c\r\n\r\n  # indented comment\r\npassword = \" pa#ss$$word \"\r\ntags=@s8\r\n",
			want: with(seedProfile(), func(p *Profile) { p.Password = " pa#ss$word " }), wantTags: "@s8"},
		{name: "unknown key", file: "email = a@example.org\nbse_url = http://x/v1\n",
			wantErr: []string{"inline.profile:2:", `unknown key "bse_url"`, "base_url"}},
		{name: "a line without =", file: "\nbase_url http://x/v1\n", wantErr: []string{"inline.profile:2:", "key = value"}},
		{name: "duplicate key", file: "plan_id = 1\nplan_id = 2\n", wantErr: []string{"inline.profile:2:", "line 1"}},
		{name: "empty value", file: "email =\n", wantErr: []string{"inline.profile:1:", "email is empty"}},
		{name: "id not a number", file: "currency_id = GBP\n", wantErr: []string{"inline.profile:1:", "currency_id", `"GBP"`}},
		{name: "hash not 40 hex", file: "marketapp_hash = abc\n", wantErr: []string{"inline.profile:1:", "marketapp_hash"}},
		{name: "unknown login encoding", file: "login_encoding = xml\n", wantErr: []string{"inline.profile:1:", "login_encoding"}},
		{name: "base URL without a version", file: "base_url = http://127.0.0.1:8080\n", wantErr: []string{"inline.profile:1:", "version segment"}},
		{name: "unterminated variable", file: "api_key = ${KEY\n", wantErr: []string{"inline.profile:1:", "unterminated"}},
		{name: "Cucumber tag syntax is refused", file: "tags = not @reference\n", wantErr: []string{"inline.profile:1:", "tag expression"}},
		{name: "a bad environment value names the variable", env: map[string]string{"PRICING_CURRENCY_ID": "one"},
			wantErr: []string{"PRICING_CURRENCY_ID", "currency_id", `"one"`}},
		{name: "a pool of pairs with its secrets", file: "pool.profile", env: poolSecrets(stagingSecrets), want: pool},
		{name: "the environment beats the file for a pair's value", file: "pool.profile",
			env: withEnv(poolSecrets(stagingSecrets), "PRICING_OTHER_EMAIL_3", "b3@example.org"),
			want: with(pool, func(p *Profile) {
				p.Pairs = append([]AccountPair(nil), p.Pairs...)
				p.Pairs[1].OtherEmail = "b3@example.org"
			})},
		{name: "a pair from the environment alone", env: map[string]string{
			"PRICING_EMAIL_2": "a2@example.org", "PRICING_PASSWORD_2": "pa2", "PRICING_API_KEY_2": "ka2",
			"PRICING_OTHER_EMAIL_2": "b2@example.org", "PRICING_OTHER_PASSWORD_2": "pb2", "PRICING_OTHER_API_KEY_2": "kb2"},
			want: with(seedProfile(), func(p *Profile) {
				p.Pairs = []AccountPair{{"a2@example.org", "pa2", "ka2", "b2@example.org", "pb2", "kb2"}}
			})},
		{name: "a pool's missing secret names its variable and line", file: "pool.profile",
			env:     withEnv(poolSecrets(stagingSecrets), "PRICING_STAGING_API_KEY_3", ""),
			wantErr: []string{"pool.profile:20:", "api_key_3", "PRICING_STAGING_API_KEY_3 is not set"}},
		{name: "a pair without all six values", file: "email_2 = a2@example.org\npassword_2 = p\napi_key_2 = k\nother_email_2 = b2@example.org\nother_password_2 = q\n",
			wantErr: []string{"PRICING_OTHER_API_KEY_2 (other_api_key_2): is empty", "six values"}},
		{name: "a gap in the numbers of the pairs", env: map[string]string{
			"PRICING_EMAIL_3": "a3@example.org", "PRICING_PASSWORD_3": "pa3", "PRICING_API_KEY_3": "ka3",
			"PRICING_OTHER_EMAIL_3": "b3@example.org", "PRICING_OTHER_PASSWORD_3": "pb3", "PRICING_OTHER_API_KEY_3": "kb3"},
			wantErr: []string{"pair 2 of accounts has no values, but pair 3 has", "PRICING_EMAIL_2"}},
		{name: "pair 1 has no number", file: "email_1 = a@example.org\n", wantErr: []string{"inline.profile:1:", "numbered from 2 to 64"}},
		{name: "past the last pair", file: "api_key_65 = k\n", wantErr: []string{"inline.profile:1:", "numbered from 2 to 64"}},
		{name: "only the accounts' values are numbered", file: "phone_number_2 = 1\n",
			wantErr: []string{"inline.profile:1:", `unknown key "phone_number_2"`, "for pair N of accounts, from 2: email_N"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			switch {
			case strings.Contains(tt.file, "\n"):
				path = filepath.Join(t.TempDir(), "inline.profile")
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			case tt.file != "":
				path = filepath.Join("testdata", "profiles", tt.file)
			}
			got, tags, err := LoadProfile(path, mapEnv(tt.env))
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("LoadProfile: no error, want one containing %q (got %+v)", tt.wantErr, got)
				}
				for _, s := range tt.wantErr {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not contain %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadProfile: %v", err)
			}
			// Against the default mock: the seed values not given are its.
			got.Complete(true)
			got.origin, got.notes = nil, nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("profile:\n got %+v\nwant %+v", got, tt.want)
			}
			if tags != tt.wantTags {
				t.Errorf("tags = %q, want %q", tags, tt.wantTags)
			}
		})
	}
}

func TestExpand(t *testing.T) {
	env := mapEnv(map[string]string{"HOST": "staging", "EMPTY": ""})
	tests := []struct {
		in, want, wantErr string
	}{
		{in: "plain", want: "plain"},
		{in: "https://${HOST}.example.com", want: "https://staging.example.com"},
		{in: "${HOST}-${HOST}", want: "staging-staging"},
		{in: "${MISSING:-fallback}", want: "fallback"},
		{in: "${EMPTY:-fallback}", want: "fallback"},
		{in: "${HOST:-fallback}", want: "staging"},
		{in: "${MISSING:-}", want: ""},
		{in: "cost $5 and $$HOST", want: "cost $5 and $HOST"},
		{in: "${MISSING}", wantErr: "MISSING is not set"},
		{in: "${EMPTY}", wantErr: "EMPTY is not set"},
		{in: "${1BAD}", wantErr: "bad variable name"},
		{in: "${}", wantErr: "bad variable name"},
		{in: "x${HOST", wantErr: "unterminated"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := expand(tt.in, env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("expand(%q) = %q, %v; want error containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("expand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestProfileValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Profile)
		wantErr string
	}{
		{"seed is valid", func(*Profile) {}, ""},
		{"https with a deeper path", func(p *Profile) { p.BaseURL = "https://api.example.com/pricing/v1" }, ""},
		{"form login", func(p *Profile) { p.LoginEncoding = "form" }, ""},
		{"no scheme", func(p *Profile) { p.BaseURL = "127.0.0.1:8080/v1" }, "PRICING_BASE_URL"},
		{"ftp", func(p *Profile) { p.BaseURL = "ftp://example.com/v1" }, "absolute http(s)"},
		{"no version segment", func(p *Profile) { p.BaseURL = "http://example.com/" }, "version segment"},
		{"query", func(p *Profile) { p.BaseURL = "http://example.com/v1?x=1" }, "query"},
		{"empty password", func(p *Profile) { p.Password = "" }, "PRICING_PASSWORD (password): is empty"},
		{"negative ids are integers", func(p *Profile) { p.PlanID = "-1" }, ""},
		{"fractional id", func(p *Profile) { p.PlatformID = "1.5" }, "PRICING_PLATFORM_ID"},
		{"hash of 41", func(p *Profile) { p.MarketappHash += "a" }, "PRICING_MARKETAPP_HASH"},
		{"empty login encoding", func(p *Profile) { p.LoginEncoding = "" }, "PRICING_LOGIN_ENCODING"},
		{"an email domain of one label", func(p *Profile) { p.EmailDomain = "localhost" }, "PRICING_EMAIL_DOMAIN"},
		{"an email domain with a bad label", func(p *Profile) { p.EmailDomain = "a_b.example.com" }, `bad label "a_b"`},
		{"an email domain too long for a 254-character address", func(p *Profile) { p.EmailDomain = strings.Repeat("a", 60) + "." + strings.Repeat("b", 60) + ".com" }, "at most 120"},
		{"clients per user", func(p *Profile) { p.ClientsPerUser = "one" }, ""},
		{"clients per user neither several nor one", func(p *Profile) { p.ClientsPerUser = "two" }, "PRICING_CLIENTS_PER_USER"},
		{"apps per marketapp", func(p *Profile) { p.AppsPerMarketapp = "many" }, "PRICING_APPS_PER_MARKETAPP"},
		{"one version form", func(p *Profile) { p.VersionForms = "v1" }, ""},
		{"a version form with a slash", func(p *Profile) { p.VersionForms = "v1,/v1.0" }, "PRICING_VERSION_FORMS"},
		{"an empty version form", func(p *Profile) { p.VersionForms = "v1,,v1.0" }, "PRICING_VERSION_FORMS"},
		{"a platforms path", func(p *Profile) { p.PlatformsPath = "/catalogue/platforms" }, ""},
		{"a platforms path without its slash", func(p *Profile) { p.PlatformsPath = "platforms" }, "PRICING_PLATFORMS_PATH"},
		{"a platforms path with a query", func(p *Profile) { p.PlatformsPath = "/platforms?all=1" }, "PRICING_PLATFORMS_PATH"},
		{"other phone country not an id", func(p *Profile) { p.OtherPhoneCountryID = "US" }, "PRICING_OTHER_PHONE_COUNTRY_ID"},
		{"two currencies", func(p *Profile) { p.Currencies = "1:GBP, 2:eur" }, ""},
		{"one currency", func(p *Profile) { p.Currencies = "1:GBP" }, "at least 2"},
		{"a currency code of four letters", func(p *Profile) { p.Currencies = "1:GBPX,2:EUR" }, "PRICING_CURRENCIES"},
		{"a currency id twice", func(p *Profile) { p.Currencies = "1:GBP,1:EUR" }, "the id 1 twice"},
		{"a currency without its code", func(p *Profile) { p.Currencies = "1,2" }, "id:word"},
		{"plans of one kind", func(p *Profile) { p.Plans = "1:lite,2:lite" }, ""},
		{"an unknown plan kind", func(p *Profile) { p.Plans = "1:lite,2:gold" }, "PRICING_PLANS"},
		{"a platform of another name", func(p *Profile) { p.Platforms = "1:Android,2:Windows" }, "PRICING_PLATFORMS"},
		{"a platform id that is not a number", func(p *Profile) { p.Platforms = "a:Android,2:iOS" }, "PRICING_PLATFORMS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := with(seedProfile(), tt.edit).Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Validate: %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Validate: %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestTagFilter(t *testing.T) {
	tests := []struct {
		user      string
		reference bool
		want      string
		wantErr   bool
	}{
		{user: "", want: "~@reference"},
		{user: "  ", want: "~@reference"},
		{user: "", reference: true, want: ""},
		{user: "@s5", want: "~@reference && @s5"},
		{user: "@s5,@s8", want: "~@reference && @s5,@s8"},
		{user: "@s5 && ~@mutates-A", want: "~@reference && @s5 && ~@mutates-A"},
		{user: "@s7.1", reference: true, want: "@s7.1"},
		{user: "s5", want: "~@reference && s5"}, // godog accepts a tag without @
		{user: "@s5 &&", wantErr: true},         // would panic inside godog
		{user: "@s5,,@s8", wantErr: true},
		{user: "~", wantErr: true},
		{user: "not @reference", wantErr: true},
		{user: "@s5 and @s8", wantErr: true},
		{user: "(@s5)", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.user, func(t *testing.T) {
			got, err := tagFilter(tt.user, tt.reference)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("tagFilter(%q) = %q, want an error", tt.user, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("tagFilter(%q, %v) = %q, %v; want %q", tt.user, tt.reference, got, err, tt.want)
			}
		})
	}
}

// Also found: after eval "$(pricing-mock --print-env)", --profile ran a
// hybrid of the mock's accounts and the file's lists without a word. The
// run now says which source won, and --profile-only ignores the variables.
func TestProfileFileAndEnvironment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "staging.profile")
	if err := os.WriteFile(path, []byte("email = a@staging.test\ncurrencies = 7:CHF,8:JPY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := mapEnv(map[string]string{"PRICING_EMAIL": "qa@example.com", "PRICING_CURRENCIES": "7:CHF,8:JPY", "PRICING_PLAN_ID": "3"})

	p, _, err := LoadProfile(path, env)
	if err != nil {
		t.Fatal(err)
	}
	if p.Email != "qa@example.com" || p.Origin("email") != originEnv {
		t.Errorf("email %q from %q, want the environment's", p.Email, p.Origin("email"))
	}
	want := []string{"PRICING_EMAIL from the environment overrides email of the file " + path + " (use --profile-only to ignore the environment)"}
	if !reflect.DeepEqual(p.Notes(), want) {
		t.Errorf("notes %q, want %q (a variable equal to the file's value, or setting a key the file does not, is no conflict)", p.Notes(), want)
	}

	p, _, err = LoadProfileOnly(path, env)
	if err != nil {
		t.Fatal(err)
	}
	if p.Email != "a@staging.test" || p.Origin("email") != "file "+path || len(p.Notes()) != 0 {
		t.Errorf("--profile-only: email %q from %q, notes %q; want the file's and no note", p.Email, p.Origin("email"), p.Notes())
	}
	if !p.Missing("plan_id") {
		t.Errorf("--profile-only: plan_id %q was taken from the environment", p.PlanID)
	}
}

// Against a target that is not the default mock, the seed keys not given
// are derived from the ones given, or stay unset: never the mock's values.
func TestCompleteForAnotherTarget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.profile")
	if err := os.WriteFile(path, []byte("currency_id = 1015\nplatforms = 1001:Android,1008:iOS\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, _, err := LoadProfile(path, mapEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	p.Complete(false)
	for key, want := range map[string]string{"currency_id": "1015", "currencies": "1015", "platform_id": "1001", "platforms": "1001:Android,1008:iOS"} {
		if got, _ := p.value(key); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	for _, key := range []string{"email", "plan_id", "plans", "marketapp_hash", "first_name", "other_phone_country_id"} {
		if !p.Missing(key) {
			v, _ := p.value(key)
			t.Errorf("%s = %q: a value of the mock's seed stood in for the target's", key, v)
		}
	}
	if got, _ := p.value("clients_per_user"); got != "several" {
		t.Errorf("clients_per_user = %q: a choice keeps its default everywhere", got)
	}

	q, _, _ := LoadProfile(path, mapEnv(nil))
	q.Complete(true)
	if got, _ := q.value("plan_id"); got != "1" || q.Missing("email") {
		t.Errorf("against the default mock: plan_id %q, email missing %v; want the seed's", got, q.Missing("email"))
	}
	if got, _ := q.value("currencies"); got != "1:GBP,2:EUR,3:USD" {
		t.Errorf("against the default mock, currencies = %q", got)
	}
}
