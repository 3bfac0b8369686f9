package replay

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/exitcode"
)

// The exit statuses of the suite: 2 for what the user must fix in the
// command (a flag, the recording), 3 for a target that cannot be used.
func TestExitStatuses(t *testing.T) {
	journal := writeFile(t, "session.json", []byte(`[{"id":1,"method":"GET","path":"/v1/platforms","headers":{},"status":200}]`))
	static := writeFile(t, "static.json", []byte(`[{"id":1,"method":"GET","path":"/app.js","headers":{},"status":200}]`))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String() + "/v1"
	ln.Close() // nothing answers there now
	for _, tc := range []struct {
		args []string
		want int
		says string
	}{
		{[]string{"--no-such-flag", journal}, exitcode.Usage, "flag provided but not defined"},
		{[]string{"--base-url", down}, exitcode.Usage, "give the RECORDING"},
		{[]string{"--base-url", down, journal, journal}, exitcode.Usage, "one recording at a time"},
		{[]string{"--base-url", down, "/no/such/file.har"}, exitcode.Usage, "no such file"},
		{[]string{"--base-url", down, "--account", "qa@example.com=C", journal}, exitcode.Usage, "want EMAIL=A"},
		{[]string{"--base-url", down, static}, exitcode.Usage, "no request of the recording names the API"},
		{[]string{"--base-url", down, "--report", "/no/such/dir/r.html", journal}, exitcode.Usage, "--report"},
		{[]string{"--base-url", down, "--timeout", "2s", journal}, exitcode.Unusable, "target or profile not usable"},
		{[]string{"--help"}, exitcode.Pass, "Usage: pricing-contract replay"},
	} {
		var out, errs strings.Builder
		code := Main(context.Background(), tc.args, func(string) string { return "" }, &out, &errs)
		if code != tc.want || !strings.Contains(out.String()+errs.String(), tc.says) {
			t.Errorf("%q: exit %d, want %d saying %q:\n%s%s", tc.args, code, tc.want, tc.says, out.String(), errs.String())
		}
	}
}
