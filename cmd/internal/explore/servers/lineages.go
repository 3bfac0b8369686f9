package servers

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/cmd/internal/lineage"
	"github.com/pricing-contract/pricing-contract/steps"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// LineageOrigin is the origin of a lineage's correct server, and
// LineageFaultOrigin that of its own faults.
func LineageOrigin(name string) string      { return "lineage " + name }
func LineageFaultOrigin(name string) string { return "lineage " + name + ": its faults" }

// Lineages are the independent implementations (cmd/internal/lineage):
// each correct server, and each with one of the faults its author wrote.
// Their profile is the one pricing-contract init writes from the base URL
// and the accounts, with the values the lineage documents.
func Lineages(pairs int) []explore.Server {
	var out []explore.Server
	for _, l := range lineage.All() {
		out = append(out, explore.Server{Name: l.Name, Origin: LineageOrigin(l.Name), Legal: true, Start: startLineage(l, "", pairs)})
		for _, f := range l.Faults {
			name := l.Name + "/" + f.Name
			out = append(out, explore.Server{Name: name, Origin: LineageFaultOrigin(l.Name), Legal: legalFaults[name] != "", Start: startLineage(l, f.Name, pairs)})
		}
	}
	return out
}

// legalFaults are faults a lineage's author wrote that the table "Where the
// spec is silent" allows (the README counts them correct, as the suite
// does), with why.
var legalFaults = map[string]string{
	"tables/missing-client-403": "an unknown id answered 403: freedom unknown-id (a server may refuse the caller before it looks the id up)",
}

func startLineage(l lineage.Lineage, fault string, pairs int) func() (explore.Target, error) {
	return func() (explore.Target, error) {
		tg, err := l.Start(max(pairs, 1), fault)
		if err != nil {
			return explore.Target{}, err
		}
		env := tg.Env()
		for k, v := range l.Known {
			env["PRICING_"+strings.ToUpper(k)] = v
		}
		for i, pr := range tg.Accounts[1:] {
			n := strconv.Itoa(i + 2)
			for k, v := range map[string]string{"EMAIL": pr[0].Email, "PASSWORD": pr[0].Password, "API_KEY": pr[0].APIKey,
				"OTHER_EMAIL": pr[1].Email, "OTHER_PASSWORD": pr[1].Password, "OTHER_API_KEY": pr[1].APIKey} {
				env["PRICING_"+k+"_"+n] = v
			}
		}
		getenv := func(k string) string { return env[k] }
		dir, err := os.MkdirTemp("", "explore-lineage-")
		if err != nil {
			tg.Close()
			return explore.Target{}, err
		}
		stop := func() { tg.Close(); os.RemoveAll(dir) }
		path := filepath.Join(dir, "target.profile")
		var stdout, stderr bytes.Buffer
		if code := contract.Init(context.Background(), []string{"--output", path}, getenv, strings.NewReader(""), &stdout, &stderr); code != 0 {
			stop()
			// A target init refuses is one the suite refuses: as the
			// preflight's refusal, exit 3.
			return explore.Target{}, &steps.UnusableError{Reason: fmt.Sprintf("init exits %d: %s", code, strings.TrimSpace(stderr.String()))}
		}
		p, _, err := target.LoadProfile(path, getenv)
		if err != nil {
			stop()
			return explore.Target{}, err
		}
		return explore.Target{Profile: p, Close: stop}, nil
	}
}
