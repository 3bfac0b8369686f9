package mockserver

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// home handles GET /: a page for a person trying the mock. The endpoints come
// from the embedded document and the accounts from the seed's profile, so the
// page cannot drift from what the mock serves.
func (s *Server) home(c *gin.Context) {
	p := s.Profile()
	data := homeData{
		Origin: requestOrigin(c.Request),
		Accounts: []homeAccount{
			{Name: "A", Email: p.Email, Password: p.Password, APIKey: p.APIKey},
			{Name: "B", Email: p.OtherEmail, Password: p.OtherPassword, APIKey: p.OtherAPIKey},
		},
		Secrets:    s.showsSecrets(c.Request),
		AdminOn:    !s.opts.NoAdmin,
		AdminToken: s.admin.token != nil,
	}
	if !data.Secrets {
		// The demo passwords and keys only for those who could read them
		// from the admin API: not with --no-admin, not through another
		// host name or for a page of another origin.
		for i := range data.Accounts {
			data.Accounts[i].Password, data.Accounts[i].APIKey = "", ""
		}
	}
	// The API first, then the admin API, then the docs; /v1.0 repeats /v1,
	// so listing it once keeps the table readable.
	for _, part := range []func(string) bool{
		func(p string) bool { return strings.HasPrefix(p, "/v1/") },
		func(p string) bool { return strings.HasPrefix(p, adminPrefix+"/") },
		func(p string) bool { return !strings.HasPrefix(p, "/v1") && !strings.HasPrefix(p, adminPrefix+"/") },
	} {
		for _, r := range docRoutes() {
			if part(r.Path) {
				data.Routes = append(data.Routes, r)
			}
		}
	}
	var buf bytes.Buffer
	if err := homePage.Execute(&buf, data); err != nil {
		internalError(c, "The home page could not be rendered.")
		return
	}
	c.Data(http.StatusOK, "text/html; charset=utf-8", buf.Bytes())
}

type homeData struct {
	Origin     string
	Accounts   []homeAccount
	Routes     []docRoute
	Secrets    bool // the accounts' passwords and keys are shown
	AdminOn    bool
	AdminToken bool // the admin API needs a token
}

type homeAccount struct {
	Name, Email, Password, APIKey string
}

// The journal script only reads the admin API and writes with textContent:
// journal entries carry whatever clients sent, so they are never HTML.
var homePage = template.Must(template.New("home").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>pricing-mock</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
code, pre, td.mono { font-family: ui-monospace, monospace; font-size: 13px; }
pre { background: #f4f4f4; padding: .6em .8em; overflow-x: auto; }
table { border-collapse: collapse; margin: .5em 0 1.5em; }
th, td { text-align: left; padding: .2em .8em .2em 0; border-bottom: 1px solid #ddd; vertical-align: top; }
.s2 { color: #175; } .s4 { color: #a50; } .s5 { color: #b00; }
#journal-state { color: #666; }
</style>
</head>
<body>
<h1>pricing-mock</h1>
<p>The reference mock of the Pricing Service API. Both <code>/v1</code> and <code>/v1.0</code> serve the API;
the full description is <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.0).</p>

<h2>Demo accounts</h2>
{{if .Secrets}}<table>
<tr><th>account</th><th>email</th><th>password</th><th>API key</th></tr>
{{range .Accounts}}<tr><td>{{.Name}}</td><td class="mono">{{.Email}}</td><td class="mono">{{.Password}}</td><td class="mono">{{.APIKey}}</td></tr>
{{end}}</table>
{{with index .Accounts 0}}<pre>curl -s {{$.Origin}}/v1/sessions -H 'Content-Type: application/json' \
  -d '{"email":"{{.Email}}","password":"{{.Password}}"}'
# then, with the userId of the answer:
curl -s {{$.Origin}}/v1/users/USER_ID -H 'Authorization: api-key {{.APIKey}}'</pre>{{end}}
{{else}}<table>
<tr><th>account</th><th>email</th></tr>
{{range .Accounts}}<tr><td>{{.Name}}</td><td class="mono">{{.Email}}</td></tr>
{{end}}</table>
<p id="secrets-hidden">Passwords and API keys are shown only on the mock's own address (localhost, 127.0.0.1) with the admin API on
(no <code>--no-admin</code>); see the README's demo accounts.</p>
{{end}}
<h2>Endpoints</h2>
<p>Credentials: <code>Authorization: api-key KEY</code>, a <code>session-token: TOKEN</code> header or a
<code>sessionToken=TOKEN</code> query argument, with the token of <code>POST /v1/sessions</code>.
The admin API (<code>/__admin</code>) is off with <code>--no-admin</code>.</p>
<table>
<tr><th>method</th><th>path</th><th>credentials</th><th>what it does</th></tr>
{{range .Routes}}<tr><td class="mono">{{.Method}}</td><td class="mono">{{.Path}}</td><td>{{if .Auth}}yes{{else}}no{{end}}</td><td>{{.Summary}}</td></tr>
{{end}}</table>

<h2>Request journal</h2>
<p>The last API requests, newest first, refreshed every 2 seconds. Namespace
<input id="ns" size="16" placeholder="(default)" aria-label="X-Mock-Namespace">
{{if .AdminToken}}Admin token <input id="token" type="password" size="16" aria-label="admin token">{{end}}
<span id="journal-state">loading…</span></p>
<table id="journal">
<thead><tr><th>method</th><th>path</th><th>status</th><th>duration</th><th>bodies</th></tr></thead>
<tbody></tbody>
</table>
<script>
(function () {
  var state = document.getElementById('journal-state');
  var tbody = document.querySelector('#journal tbody');
  var ns = document.getElementById('ns');
  function cell(tr, text, cls) {
    var td = document.createElement('td');
    td.textContent = text == null ? '' : String(text);
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }
  function show(v) { return typeof v === 'string' ? v : JSON.stringify(v, null, 2); }
  function render(entries) {
    tbody.textContent = '';
    entries.forEach(function (e) {
      var tr = document.createElement('tr');
      cell(tr, e.method, 'mono');
      cell(tr, (e.path || '') + (e.query ? '?' + e.query : ''), 'mono');
      cell(tr, e.status, 'mono s' + String(e.status).charAt(0));
      cell(tr, e.durationMs == null ? '' : e.durationMs.toFixed(1) + ' ms', 'mono');
      var td = cell(tr, '');
      var bodies = [['request', e.requestBody], ['response', e.responseBody]];
      bodies.forEach(function (b) {
        if (b[1] == null || b[1] === '') return;
        var d = document.createElement('details');
        var s = document.createElement('summary');
        s.textContent = b[0];
        var pre = document.createElement('pre');
        pre.textContent = show(b[1]);
        d.appendChild(s);
        d.appendChild(pre);
        td.appendChild(d);
      });
      tbody.appendChild(tr);
    });
  }
  function poll() {
    var headers = {};
    if (ns.value) headers['X-Mock-Namespace'] = ns.value;
    var token = document.getElementById('token');
    if (token && token.value) headers['Authorization'] = 'Bearer ' + token.value;
    fetch('/__admin/requests', {headers: headers}).then(function (r) {
      if (r.status === 404) { state.textContent = 'journal off (the mock runs with --no-admin)'; tbody.textContent = ''; return; }
      if (r.status === 401) { state.textContent = 'journal: enter the admin token (--admin-token)'; tbody.textContent = ''; return; }
      if (r.status === 403) { state.textContent = 'journal: the admin API answers only on the mock\'s own address'; tbody.textContent = ''; return; }
      if (!r.ok) { state.textContent = 'journal: HTTP ' + r.status; return; }
      return r.json().then(function (j) {
        var entries = j.requests || [];
        state.textContent = entries.length + ' request(s)';
        render(entries);
      });
    }).catch(function (err) {
      state.textContent = 'journal unreachable: ' + err;
    });
  }
  poll();
  setInterval(poll, 2000);
})();
</script>
</body>
</html>
`))
