// Package discover is `pricing-contract init`: it asks a target what it
// can without changing anything (logins, the read extensions, the
// catalogues, the version forms, and by refused requests the catalogue ids
// no answer shows) and writes a profile file of it.
//
// It stands on steps/target, the one package that knows a target: the
// shared flags (--base-url, --timeout), the one HTTP client (no redirect
// followed, every answer bounded), the profile's keys and checks, the
// reading of the catalogues and the words of the plans. What is init's
// alone (the order of its requests, the probe of ids, the prompts, the
// text of the profile it writes) lives here, above it, so that the suite's
// step library does not carry it; cmd/internal/mocktarget runs it to make
// a profile of a lineage as a QA engineer would, with no command package
// in between.
package discover

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/exitcode"
	"github.com/pricing-contract/pricing-contract/cmd/internal/report"
	"github.com/pricing-contract/pricing-contract/cmd/internal/term"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// secretKeys are written to a profile as ${VAR} references, never in clear.
var secretKeys = map[string]bool{"password": true, "api_key": true, "other_password": true, "other_api_key": true}

// Init is `pricing-contract init`: it asks a target what it can without
// changing anything and writes a commented profile file, every key with
// the value found or a TODO saying what to fill in, each choice with the
// question it answers, and the secrets as ${VAR} references. The accounts
// come from flags, else the PRICING_* variables, else a prompt on a
// terminal. Exit 0 when the file is written, 2 on a usage error, 3 when the
// target or the accounts cannot be used.
func Init(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pricing-contract init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var tf target.Flags
	tf.RegisterTarget(fs)
	var (
		output = fs.String("output", "target.profile", "write the profile to `FILE` (- for stdout): mode 0600, never through a symbolic link")
		force  = fs.Bool("force", false, "replace FILE if it exists")
		acct   = map[string]*string{}
	)
	for _, key := range accountKeys {
		f, _ := target.Lookup(key)
		acct[key] = fs.String(strings.ReplaceAll(key, "_", "-"), "", fmt.Sprintf("the %s (default $%s)", strings.ReplaceAll(key, "_", " "), f.Env))
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitcode.Pass
		}
		return exitcode.Usage
	}
	base := strings.TrimRight(cmp.Or(tf.BaseURL, getenv("PRICING_BASE_URL")), "/")
	if err := target.CheckBaseURL(base); err != nil {
		fmt.Fprintf(stderr, "pricing-contract init: --base-url: %v\n", err)
		return exitcode.Usage
	}
	if err := tf.CheckTimeout(); err != nil {
		fmt.Fprintf(stderr, "pricing-contract init: %v\n", err)
		return exitcode.Usage
	}
	out := report.Output{Path: *output, Kind: report.ProfileOfInit, Force: *force}
	if *output != "-" {
		if err := out.Check(); err != nil {
			fmt.Fprintf(stderr, "pricing-contract init: --output: %v\n", err)
			return exitcode.Usage
		}
	}
	in := bufio.NewReader(stdin)
	values := map[string]string{}
	for _, key := range accountKeys {
		f, _ := target.Lookup(key)
		v := *acct[key]
		if v == "" {
			v = getenv(f.Env)
		}
		if v == "" && term.Is(stderr) { // a terminal: ask for what init was not given
			fmt.Fprintf(stderr, "%s (%s): ", strings.ReplaceAll(key, "_", " "), f.Env)
			line, _ := in.ReadString('\n')
			v = strings.TrimSpace(line)
		}
		if v == "" {
			fmt.Fprintf(stderr, "pricing-contract init: no %s: give --%s or set %s\n", key, strings.ReplaceAll(key, "_", "-"), f.Env)
			return exitcode.Usage
		}
		values[key] = v
	}
	d := &discovery{base: base, http: tf.Client(), found: map[string]string{}, notes: map[string]string{}}
	if err := d.run(ctx, values); err != nil {
		fmt.Fprintf(stderr, "pricing-contract init: %v\n", oneLine(err.Error()))
		return exitcode.Unusable
	}
	text := d.profileText(values)
	if *output == "-" {
		io.WriteString(stdout, text)
		return exitcode.Pass
	}
	if err := out.WriteBytes([]byte(text)); err != nil {
		fmt.Fprintf(stderr, "pricing-contract init: --output: %v\n", err)
		return exitcode.Usage
	}
	todo := strings.Count(text, "# TODO ")
	fmt.Fprintf(stderr, "pricing-contract init: wrote %s (%d %s to fill in); run: pricing-contract --profile %s\n", *output, todo, report.Plural(todo, "value", "values"), *output)
	return exitcode.Pass
}

// accountKeys are the profile keys of the accounts init is given.
var accountKeys = []string{"email", "password", "api_key", "other_email", "other_password", "other_api_key"}

// oneLine is s on one line: a target's answer may hold newlines.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// discovery is what init learned of a target.
type discovery struct {
	base  string
	http  *http.Client
	found map[string]string // profile key -> value
	notes map[string]string // profile key -> how it was found, or why not
	// what the logins showed, for the probes
	userA string
}

// do sends a request and returns the status and body; a transport error,
// a refused answer and a redirect (a 3xx: none is followed) are errors.
func (d *discovery) do(ctx context.Context, method, u string, header http.Header, body string) (int, []byte, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, strings.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := d.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	if err := target.Redirected(method, u, resp.StatusCode, resp.Header); err != nil {
		return resp.StatusCode, nil, resp.Header, err
	}
	b, err := io.ReadAll(resp.Body) // bounded by the client (target.MaxAnswer)
	return resp.StatusCode, b, resp.Header, err
}

// failed says why a request init needs has no answer it can use: a
// redirect (which names the request), an answer refused as it was read, or
// none at all.
func failed(method, u string, err error) error {
	var redirect *target.RedirectError
	switch {
	case errors.As(err, &redirect):
		return err
	case target.IsAnswerError(err):
		return fmt.Errorf("%s %s: %w", method, u, err)
	}
	return fmt.Errorf("the target does not answer: %s %s: %w", method, u, err)
}

// get reads p with account A's api key: a collection the spec leaves open
// may need credentials, and one that needs none takes them.
func (d *discovery) get(ctx context.Context, p string, key string) (gjson.Result, bool) {
	h := http.Header{}
	if key != "" {
		h.Set("Authorization", "api-key "+key)
	}
	status, b, _, err := d.do(ctx, http.MethodGet, d.base+p, h, "")
	if err != nil || status != http.StatusOK || !gjson.ValidBytes(b) {
		return gjson.Result{}, false
	}
	return gjson.ParseBytes(b), true
}

// run logs in both accounts and reads what the target shows: nothing it
// sends changes data.
func (d *discovery) run(ctx context.Context, acct map[string]string) error {
	key := acct["api_key"]
	status, _, hdr, err := d.do(ctx, http.MethodGet, d.base+"/platforms", http.Header{"Authorization": {"api-key " + key}}, "")
	if err != nil {
		return failed(http.MethodGet, d.base+"/platforms", err)
	}
	if hdr.Get(target.SeedHeader) == "default" {
		d.notes["base_url"] = "a pricing-mock serving the default seed"
	}
	if status == http.StatusOK {
		d.set("platforms_path", "/platforms", "GET /platforms answered 200")
	}
	var ids [2]gjson.Result
	for i, who := range [][3]string{{"email", "password", "api_key"}, {"other_email", "other_password", "other_api_key"}} {
		s, err := d.login(ctx, acct[who[0]], acct[who[1]])
		if err != nil {
			return err
		}
		ids[i] = s
		if err := d.checkKey(ctx, acct[who[0]], acct[who[2]], s.Get("userId").Raw); err != nil {
			return err
		}
	}
	if ids[0].Get("userId").Raw == ids[1].Get("userId").Raw || ids[0].Get("clientId").Raw == ids[1].Get("clientId").Raw {
		return fmt.Errorf("%s and %s log in as one user or as users of one client: account B must be a user of another client than A's", acct["email"], acct["other_email"])
	}
	userA, clientA := ids[0].Get("userId").Raw, ids[0].Get("clientId").Raw
	d.userA = userA

	d.user(ctx, userA, key, "")
	d.user(ctx, ids[1].Get("userId").Raw, acct["other_api_key"], "other_")
	if c, ok := d.get(ctx, "/clients/"+clientA, key); ok {
		d.set("currency_id", c.Get("currency.id").Raw, "GET /clients/"+clientA)
		for field, k := range map[string]string{"addressLine1": "address_line1", "addressLine2": "address_line2", "addressCity": "address_city",
			"addressPostcode": "address_postcode", "addressCountry": "address_country", "vat": "vat"} {
			if v := c.Get(field); v.Type == gjson.String && v.Str != "" {
				d.set(k, v.Str, "client A, GET /clients/"+clientA)
			}
		}
	}
	if _, domain, ok := strings.Cut(acct["email"], "@"); ok {
		d.set("email_domain", strings.ToLower(domain), "the domain of account A's email")
	}
	d.catalogues(ctx, key, clientA)
	d.currenciesOfClients(ctx, acct, ids)
	d.probeCatalogues(ctx, acct)
	d.phoneCountryField(ctx, acct)
	d.versions(ctx, key)
	return nil
}

// user reads the profile keys of an account's user (prefix "" for A,
// "other_" for B) from GET /users/:userId with its api key.
func (d *discovery) user(ctx context.Context, id, key, prefix string) {
	u, ok := d.get(ctx, "/users/"+id, key)
	if !ok {
		return
	}
	from := "GET /users/" + id
	d.set(prefix+"first_name", u.Get("firstName").String(), from)
	d.set(prefix+"last_name", u.Get("lastName").String(), from)
	d.set(prefix+"timezone", u.Get("timezone").String(), from)
	d.set(prefix+"phone_country_id", u.Get("phoneCountry.id").Raw, from)
	d.set(prefix+"phone_number", u.Get("phoneNumber").String(), from)
	if ext := u.Get("phoneExtension"); ext.Type == gjson.Null {
		d.set(prefix+"phone_extension", "null", from)
	} else {
		d.set(prefix+"phone_extension", ext.String(), from)
	}
}

// checkKey holds an account's api key to what the preflight asks of it: PUT
// /users/:userId of its own user with the key and an empty body is refused
// for the body (400) when the key is accepted, 401 when it is not. A key
// the target refuses is an error: a profile with it would fail every
// scenario that uses it.
func (d *discovery) checkKey(ctx context.Context, email, key, userID string) error {
	h := http.Header{"Authorization": {"api-key " + key}, "Content-Type": {"application/json"}}
	status, _, _, err := d.do(ctx, http.MethodPut, d.base+"/users/"+userID, h, "{}")
	switch {
	case err != nil:
		return failed(http.MethodPut, d.base+"/users/"+userID, err)
	case status == http.StatusUnauthorized:
		return fmt.Errorf("the api key of %s is refused: PUT /users/%s with it was answered 401; check the key", email, userID)
	case status >= 500:
		return fmt.Errorf("PUT /users/%s with the api key of %s and an empty body was answered %d", userID, email, status)
	}
	return nil
}

// login opens a session with a JSON body, then a form, and records which.
func (d *discovery) login(ctx context.Context, email, password string) (gjson.Result, error) {
	var answered []string
	serverError := false
	for _, enc := range []string{"json", "form"} {
		h := http.Header{}
		var body string
		if enc == "json" {
			h.Set("Content-Type", "application/json")
			body = fmt.Sprintf(`{"email":%s,"password":%s}`, strconv.Quote(email), strconv.Quote(password))
		} else {
			h.Set("Content-Type", "application/x-www-form-urlencoded")
			body = url.Values{"email": {email}, "password": {password}}.Encode()
		}
		status, b, _, err := d.do(ctx, http.MethodPost, d.base+"/sessions", h, body)
		if err != nil {
			return gjson.Result{}, failed(http.MethodPost, d.base+"/sessions", err)
		}
		if status == http.StatusOK && gjson.GetBytes(b, "userId").Type == gjson.Number {
			if _, seen := d.found["login_encoding"]; !seen {
				d.set("login_encoding", enc, "POST /sessions answered 200 to a "+enc+" body")
			}
			return gjson.ParseBytes(b), nil
		}
		if status == http.StatusOK {
			return gjson.Result{}, fmt.Errorf("POST /sessions answered 200 to %s's %s body, but its userId is %s, not a number (spec 2.4): the target breaks the contract",
				email, enc, cmp.Or(gjson.GetBytes(b, "userId").Raw, "absent"))
		}
		answered = append(answered, fmt.Sprintf("%d to the %s body", status, enc))
		serverError = serverError || status >= 500
	}
	if serverError {
		// A server error says nothing of the credentials: asking the user
		// to check them would send them looking in the wrong place.
		return gjson.Result{}, fmt.Errorf("POST /sessions with %s's credentials was answered %s: a server error is the target's failure, not the profile's", email, strings.Join(answered, " and "))
	}
	return gjson.Result{}, fmt.Errorf("%s cannot log in with a JSON or a form body (POST /sessions answered %s): check the email and the password", email, strings.Join(answered, " and "))
}

// catalogues reads the collections the target has (the spec's platforms,
// the read extensions currencies, plans, phoneCountries, marketapps) and
// the apps of client A for a marketplace hash.
func (d *discovery) catalogues(ctx context.Context, key, clientA string) {
	get := func(p string) (gjson.Result, bool) { return d.get(ctx, p, key) }
	cat := target.ReadCatalogues(get, "/platforms")
	for _, c := range []struct {
		key, how string
		entries  []target.Entry
	}{{"platforms", "GET " + cat.Paths["platforms"], cat.Platforms}, {"currencies", "GET " + cat.Paths["currencies"], cat.Currencies},
		{"plans", "GET " + cat.Paths["plans"], cat.Plans}} {
		if len(c.entries) >= target.MinCatalogue {
			how := c.how
			if c.key == "plans" && cat.PlansByName {
				how += ", each plan's word from its name (it shows no flags): check them against the target's documentation"
			}
			d.set(c.key, target.CatalogueValue(c.entries), how)
		}
	}
	if len(cat.Plans) >= target.MinCatalogue {
		d.set("plan_id", cat.Plans[0].ID, "the first plan of GET "+cat.Paths["plans"])
	}
	if _, ok := d.found["phone_country_id"]; !ok && len(cat.PhoneCountries) > 0 {
		d.set("phone_country_id", cat.PhoneCountries[0].ID, "the first phone country of GET "+cat.Paths["phone_countries"])
	}
	// A hash: of an app of client A (surely a store app of the target),
	// else the first marketplace app of GET /marketapps.
	if v, ok := d.get(ctx, "/clients/"+clientA+"/apps", key); ok {
		for _, a := range v.Get("apps").Array() {
			if h := a.Get("marketapp.hash").String(); target.IsHash40(h) {
				d.set("marketapp_hash", strings.ToLower(h), "an app of client A, GET /clients/"+clientA+"/apps")
				d.set("platform_id", a.Get("platform.id").Raw, "the platform of that app")
				break
			}
		}
	}
	if v, ok := d.get(ctx, "/marketapps", key); ok {
		for _, m := range v.Get("marketapps").Array() {
			if h := m.Get("hash").String(); target.IsHash40(h) {
				d.set("marketapp_hash", strings.ToLower(h), "GET /marketapps")
				d.set("platform_id", m.Get("platform.id").Raw, "the platform of that marketplace app")
				break
			}
		}
	}
	if _, ok := d.found["platform_id"]; !ok {
		if p, ok := d.found["platforms"]; ok {
			d.set("platform_id", strings.Split(p, ":")[0], "the first platform of GET /platforms")
		}
	}
}

// versions tries the forms of the base URL's version segment.
func (d *discovery) versions(ctx context.Context, key string) {
	u, err := url.Parse(d.base)
	if err != nil {
		return
	}
	dir, _ := pathSplit(u.Path)
	var served []string
	for _, v := range []string{"v1", "v1.0"} {
		w := *u
		w.Path = dir + v + "/platforms"
		if status, _, _, err := d.do(ctx, http.MethodGet, w.String(), http.Header{"Authorization": {"api-key " + key}}, ""); err == nil && status == http.StatusOK {
			served = append(served, v)
		}
	}
	if len(served) > 0 {
		d.set("version_forms", strings.Join(served, ","), "GET /platforms under v1 and v1.0")
	}
}

func pathSplit(p string) (dir, last string) {
	p = strings.TrimRight(p, "/")
	i := strings.LastIndex(p, "/")
	return p[:i+1], p[i+1:]
}

// set keeps the first value found for key, if the profile accepts it.
func (d *discovery) set(key, v, how string) {
	if _, seen := d.found[key]; seen || v == "" {
		return
	}
	if target.Check(key, v) != nil {
		return
	}
	d.found[key], d.notes[key] = v, how
}

// profileText writes every key of the profile: the value found, the
// accounts given (secrets as ${VAR}), or a TODO.
func (d *discovery) profileText(acct map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Target profile written by pricing-contract init on %s for %s.\n", time.Now().UTC().Format(time.RFC3339), d.base)
	b.WriteString("# Secrets are ${VAR} references: set those variables, never write the values here.\n")
	b.WriteString("# Run: pricing-contract --profile THIS_FILE\n\n")
	for _, f := range target.Fields() {
		switch {
		case f.Key == "base_url":
			fmt.Fprintf(&b, "base_url = %s\n", d.base)
		case secretKeys[f.Key]:
			fmt.Fprintf(&b, "%s = ${%s}\n", f.Key, f.Env)
		case acct[f.Key] != "":
			fmt.Fprintf(&b, "%s = %s\n", f.Key, acct[f.Key])
		case f.Key == "seed_defaults":
			continue
		default:
			q := f.Question
			if q != "" {
				fmt.Fprintf(&b, "# %s\n", q)
			}
			// A # after a value is part of it (passwords may hold one), so
			// every note has a line of its own.
			if v, ok := d.found[f.Key]; ok {
				fmt.Fprintf(&b, "# found: %s\n%s = %s\n", d.notes[f.Key], f.Key, quoteIfSpaced(v))
				continue
			}
			if !f.Seed {
				fmt.Fprintf(&b, "# not found: the default holds unless the target refuses it\n# %s = %s\n", f.Key, f.Default)
				continue
			}
			fmt.Fprintf(&b, "# TODO not found: %s\n", todoHint(f.Key))
			if why := d.notes[f.Key]; why != "" {
				fmt.Fprintf(&b, "# %s\n", why)
			}
			fmt.Fprintf(&b, "# %s = \n", f.Key)
		}
	}
	return b.String()
}

// quoteIfSpaced quotes a value with surrounding spaces or a #.
func quoteIfSpaced(v string) string {
	if strings.TrimSpace(v) != v {
		return `"` + v + `"`
	}
	return v
}

// todoHint says what a key not found should hold.
func todoHint(key string) string {
	hints := map[string]string{
		"currency_id": "a currency id of the target", "plan_id": "a plan id of the target", "platform_id": "a platform id of the target",
		"phone_country_id": "a phone country id of the target", "marketapp_hash": "the 40-hex hash of a marketplace app of the target, on platform_id",
		"currencies": "two currencies or more, id:code (1:GBP,2:EUR)", "plans": "two plans or more, id:lite|pro|dynamic|none",
		"platforms": "the platforms, id:Android,id:iOS",
	}
	if h, ok := hints[key]; ok {
		return h
	}
	return "only needed to restore an account on a target without GET /users/:id"
}
