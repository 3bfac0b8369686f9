package report

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/steps/coverage"
)

// WriteHTML writes the report as one HTML file with its CSS inline and no
// script or external asset, so that it opens from a CI artifact, a mail or a
// file share as it is.
func (r *Report) WriteHTML(w io.Writer) error {
	return htmlReport.Execute(w, r)
}

// htmlCoverage is the coverage matrix as the page shows it.
type htmlCoverage struct {
	Codes []string
	Rows  []htmlCoverageRow
	Gaps  []coverage.Gap
}

type htmlCoverageRow struct {
	Endpoint string
	InSpec   bool
	Cells    []htmlCell
}

type htmlCell struct {
	Text, Class, Title string
}

func (r *Report) CoverageMatrix() htmlCoverage {
	var m htmlCoverage
	seen := map[string]bool{}
	for _, e := range r.Coverage.Endpoints {
		for code := range e.Statuses {
			seen[code] = true
		}
	}
	for code := range seen {
		m.Codes = append(m.Codes, code)
	}
	sort.Strings(m.Codes)
	for _, e := range r.Coverage.Endpoints {
		row := htmlCoverageRow{Endpoint: e.Endpoint, InSpec: coverage.Named(e.Endpoint)}
		for _, code := range m.Codes {
			n, ok := e.Statuses[code]
			cell := htmlCell{Text: strconv.Itoa(n)}
			switch {
			case !ok:
				cell = htmlCell{Text: "-", Class: "none", Title: "not named by the spec for this endpoint, not received"}
			case n == 0:
				g := coverage.GapFor(e.Endpoint, code, e.Asked[code])
				cell.Class, cell.Title = g.Class(), g.Why
				cell.Text = g.Mark()
			default:
				cell.Class = "hit"
			}
			row.Cells = append(row.Cells, cell)
		}
		m.Rows = append(m.Rows, row)
	}
	m.Gaps = r.Coverage.Gaps()
	return m
}

func (r *Report) ScenarioCount() int { return r.Total }

// StatusOrder lists the statuses the summary shows, in a fixed order.
func (r *Report) StatusOrder() []string {
	return statuses
}

func (r *Report) Failed() []Scenario {
	var out []Scenario
	for _, f := range r.Features {
		for _, s := range f.Scenarios {
			switch s.Status {
			case Failed, Undefined, Pending:
				out = append(out, s)
			}
		}
	}
	return out
}

// Skipped are the scenarios that were skipped, each with its reason.
func (r *Report) Skipped() []Scenario {
	var out []Scenario
	for _, f := range r.Features {
		for _, s := range f.Scenarios {
			if s.Status == Skipped {
				out = append(out, s)
			}
		}
	}
	return out
}

var htmlFuncs = template.FuncMap{
	"class": func(status string) string { return strings.ReplaceAll(status, " ", "-") },
	"where": Location,
	"dur":   func(d time.Duration) string { return d.Round(time.Millisecond).String() },
	"when":  func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") },
	"count": func(m map[string]int, k string) int { return m[k] },
	"anchor": func(id string) string {
		return "scenario-" + id
	},
	"open": func(status string) bool {
		return status == Failed || status == Undefined || status == Pending
	},
	"outcomeClass": func(outcome string) string { return ReplayStatus(outcome) },
	"seed": func(n int64) string {
		if n == 0 {
			return "file order"
		}
		return fmt.Sprintf("random, --godog.random=%d", n)
	},
}

var htmlReport = template.Must(template.New("report").Funcs(htmlFuncs).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="generator" content="pricing-contract">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pricing API {{if .Replay}}replay{{else}}contract{{end}}: {{.CountsText}}</title>
<style>
:root { --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; max-width: 1200px; padding: 1.5rem; color: #1f2328; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; } h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .3rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
nav a { margin-right: 1rem; }
.summary { display: flex; flex-wrap: wrap; gap: .75rem; margin: 1rem 0; }
.tile { border: 1px solid var(--line); border-radius: 8px; padding: .6rem 1rem; min-width: 8rem; background: var(--bg); }
.tile b { display: block; font-size: 1.6rem; }
.tile.passed b { color: var(--pass); } .tile.failed b, .tile.undefined b, .tile.pending b { color: var(--fail); } .tile.not-run b, .tile.skipped b { color: var(--warn); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; font-family: ui-monospace, monospace; }
.banner { border: 2px solid var(--fail); background: #ffebe9; border-radius: 8px; padding: .8rem 1rem; margin: 1rem 0; }
.badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: .05rem .45rem; border-radius: 1rem; color: #fff; background: var(--muted); text-transform: uppercase; }
.badge.passed { background: var(--pass); } .badge.failed, .badge.undefined, .badge.pending { background: var(--fail); } .badge.not-run, .badge.skipped { background: var(--warn); }
details.scenario { border: 1px solid var(--line); border-radius: 6px; margin: .35rem 0; }
details.scenario > summary { cursor: pointer; padding: .35rem .6rem; list-style-position: inside; }
details.scenario.failed, details.scenario.undefined, details.scenario.pending { border-color: var(--fail); }
.where, .tags, .dur { color: var(--muted); font-size: .85rem; margin-left: .4rem; }
ol.steps { margin: 0; padding: .3rem .8rem .6rem 2.4rem; }
ol.steps li { padding: .1rem 0; } ol.steps li.failed, ol.steps li.undefined, ol.steps li.pending { color: var(--fail); font-weight: 600; }
ol.steps li.skipped, ol.steps li.not-run { color: var(--muted); }
.kw { font-weight: 600; }
pre { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: .6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-word; font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; color: #1f2328; font-weight: normal; }
pre.err { border-color: var(--fail); }
table { border-collapse: collapse; margin: .5rem 0; } th, td { border: 1px solid var(--line); padding: .25rem .55rem; text-align: left; vertical-align: top; }
th { background: var(--bg); } td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.hit { color: var(--pass); } td.gap { background: #ffebe9; color: var(--fail); font-weight: 600; } td.unreachable { background: #fff8c5; color: var(--warn); } td.missed { background: #ffebe9; color: var(--fail); } td.none { color: var(--muted); }
td.result.passed { color: var(--pass); font-weight: 600; } td.result.failed { color: var(--fail); font-weight: 600; } td.result.not-run, td.result.no-scenario { color: var(--warn); }
ul.plain { margin: 0; padding-left: 1.1rem; }
.legend { color: var(--muted); font-size: .9rem; }
.reason { color: var(--warn); font-size: .9rem; margin: .2rem 0; }
</style></head>
<body>
<header>
<h1>Pricing API {{if .Replay}}replay{{else}}contract{{end}} report</h1>
<nav><a href="#summary">Summary</a>{{if .Exploration}}<a href="#exploration">Exploration</a>{{end}}{{if .Replay}}<a href="#replay">Recorded requests</a>{{end}}<a href="#features">Scenarios</a>{{if not .Replay}}<a href="#coverage">Coverage</a><a href="#traceability">Spec traceability</a>{{end}}</nav>
</header>

<section id="summary">
<h2>Summary</h2>
<p class="total"><b>{{.Total}} {{if .Replay}}recorded requests{{else}}scenarios{{end}}</b>: {{.CountsText}}{{if .Duration}}, in {{.DurationText}}{{end}}.</p>
<div class="summary">
{{- range $s := .StatusOrder}}{{with count $.Counts $s}}
<div class="tile {{class $s}}"><b>{{.}}</b>{{$s}}</div>{{end}}{{end}}
</div>
<dl class="facts">
<dt>target</dt><dd>{{.Target}}</dd>
{{- with .Replay}}
<dt>recording</dt><dd>{{.Recording}} ({{.Format}})</dd>
<dt>its API base</dt><dd>{{.Base}}</dd>
{{- else}}
<dt>tags</dt><dd>{{.Tags}}</dd>
<dt>order</dt><dd>{{seed .Seed}}</dd>
<dt>concurrency</dt><dd>{{.Concurrency}}</dd>
{{- end}}
<dt>started</dt><dd>{{when .Started}}</dd>
</dl>
{{- if .Stopped}}
<div class="banner" id="stopped"><b>{{if .Preflight}}The preflight failed: no scenario was run.{{else}}The run stopped early.{{end}}</b>
<p>{{.Stopped}}</p>{{if .StoppedDetail}}<pre class="err">{{.StoppedDetail}}</pre>{{end}}</div>
{{- end}}
{{- if .Missing}}
<div class="banner" id="missing"><b>Scenarios not run for want of a profile value:</b>
<ul>{{range .Missing}}<li>{{.}}</li>{{end}}</ul>
<p><code>pricing-contract init --base-url {{.Target}} --output FILE</code> writes a profile with every key, each value read from the target or marked TODO.</p></div>
{{- end}}
{{- with .Failed}}
<h3>{{if $.Replay}}Diverging requests{{else}}Failing scenarios{{end}}</h3>
<ul class="plain" id="failing">{{range .}}
<li><a href="#{{anchor .ID}}">{{.Name}}</a> <span class="where">{{where .}}</span></li>{{end}}
</ul>
{{- end}}
{{- with .Skipped}}
<h3>{{if $.Replay}}Skipped requests{{else}}Skipped scenarios{{end}}</h3>
<ul class="plain" id="skipped">{{range .}}
<li><a href="#{{anchor .ID}}">{{.Name}}</a> <span class="where">{{where .}}</span><br><span class="reason">{{.Reason}}</span></li>{{end}}
</ul>
{{- end}}
</section>
{{- with .Exploration}}

<section id="exploration">
<h2>Exploration (pricing-contract explore)</h2>
{{- if .Err}}<p class="banner">The explorer could not run: {{.Err}}</p>{{else}}
<p><b>{{.Divergences}} divergences</b>, each a failed case below with its reproducer{{if .NotReported}}; {{.NotReported}} more found whose reproducer passed against the target, not reported{{end}}.</p>
<dl class="facts">
<dt>budget</dt><dd>{{.Budget}}, --explore-seed {{.Seed}}</dd>
<dt>sent</dt><dd>{{.Sequences}} sequences, {{.Requests}} requests ({{.RequestsPerSecond}}/s), {{.Wire}} on the wire in all, in {{.Took}}</dd>
<dt>input space</dt><dd>{{.Exercised}} of {{.Cells}} cells (operation, position, operator) exercised</dd>
</dl>
{{- end}}
</section>
{{- end}}

{{- with .Replay}}

<section id="replay">
<h2>Recorded requests (pricing-contract replay)</h2>
<p>Each request of the recording: <b>matched</b> (sent, and the target's answer is one the spec allows, the reference and the freedoms of the explorer judging it),
<b>diverged</b> (sent, and the answer departs from the reference: a failed scenario below, with its reproducer, which fails against the target),
<b>unconfirmed</b> (a divergence whose reproducer passed against the target: not reported), or <b>skipped</b> (never sent, and why).
The recording's answers were not the oracle. {{.Wire}} requests went on the wire in all: the recorded ones, the reads back, the restores of the accounts, the reproducers.</p>
{{- with .Notes}}<ul class="plain">{{range .}}<li class="reason">{{.}}</li>{{end}}</ul>{{end}}
{{- with .Accounts}}
<h3>Accounts</h3>
<ul class="plain" id="accounts">{{range .}}<li>{{.}}</li>{{end}}</ul>
{{- end}}
<table id="requests">
<tr><th>#</th><th>request</th><th>outcome</th><th>answer, or why</th></tr>
{{- range .Rows}}
<tr class="{{.Outcome}}"><td class="num">{{.N}}</td><td><a href="#{{anchor .Anchor}}">{{.Name}}</a></td><td class="result {{outcomeClass .Outcome}}">{{.Outcome}}</td><td>{{.Detail}}{{if .File}}<br><span class="where">reproducer: {{.File}}</span>{{end}}</td></tr>
{{- end}}
</table>
</section>
{{- end}}

<section id="features">
<h2>{{if .Replay}}Each recorded request as a scenario{{else}}Scenarios by feature{{end}}</h2>
{{- range .Features}}
<h3>{{.Name}} <span class="where">{{.URI}}</span></h3>
{{- range .Scenarios}}
<details class="scenario {{class .Status}}" id="{{anchor .ID}}"{{if open .Status}} open{{end}}>
<summary><span class="badge {{class .Status}}">{{.Status}}</span> {{.Name}} <span class="where">{{where .}}</span>{{if .Duration}} <span class="dur">{{dur .Duration}}</span>{{end}} <span class="tags">{{range .Tags}}{{.}} {{end}}</span></summary>
<ol class="steps">{{range .Steps}}
<li class="{{class .Status}}"><span class="kw">{{.Keyword}}</span> {{.Text}} <span class="badge {{class .Status}}">{{.Status}}</span>
{{- if .Arg}}<pre>{{.Arg}}</pre>{{end}}
{{- if .Err}}<pre class="err failure">{{.Err}}</pre>{{end}}</li>{{end}}
</ol>
{{- if and .Reason (eq .Status "skipped")}}<p class="reason"><b>Skipped:</b> {{.Reason}}</p>
{{- else if and .Err (not (open .Status))}}<pre class="err">{{.Err}}</pre>{{end}}
</details>
{{- end}}
{{- end}}
</section>

{{- if not .Replay}}
<section id="coverage">
<h2>Coverage: endpoints and the statuses the spec names</h2>
{{- with .CoverageMatrix}}
<table>
<tr><th>endpoint</th>{{range .Codes}}<th>{{.}}</th>{{end}}</tr>
{{- range .Rows}}
<tr><td>{{.Endpoint}}{{if not .InSpec}} <span class="where">(not in the spec)</span>{{end}}</td>{{range .Cells}}<td class="num {{.Class}}" title="{{.Title}}">{{.Text}}</td>{{end}}</tr>
{{- end}}
</table>
<p class="legend">Each cell counts the scenarios that received that status from that endpoint.
<b>0 !</b>: the spec names the status and a condition a scenario could cause, but no scenario of this run asked for it (a scenario not selected, or a gap in the suite).
<b>0 x</b>: scenarios asked for it and the target answered otherwise (see their failures).
<b>0 ~</b>: the spec names the status but no condition a scenario could cause on every correct server.
<b>-</b>: neither named by the spec for that endpoint nor received.</p>
{{- with .Gaps}}
<table id="gaps"><tr><th>endpoint</th><th>status</th><th>why no scenario received it</th></tr>
{{- range .}}
<tr><td>{{.Endpoint}}</td><td>{{.Status}}</td><td>{{.Why}}</td></tr>{{end}}
</table>
{{- end}}
{{- end}}
</section>

<section id="traceability">
<h2>Spec traceability: rule, scenarios, result</h2>
{{- if .TraceErr}}<p class="banner">{{.TraceErr}}</p>{{end}}
<table>
<tr><th>§</th><th>rule</th><th>scenarios of this run</th><th>result</th></tr>
{{- range .Trace}}
<tr><td>{{.Section}}</td><td>{{.Rule}}</td><td>{{if .Scenarios}}<ul class="plain">{{range .Scenarios}}<li><a href="#{{anchor .ID}}">{{.Name}}</a> <span class="badge {{class .Status}}">{{.Status}}</span></li>{{end}}</ul>{{else if .Untested}}<span class="where untested">no scenario asserts it: {{.Untested}}</span>{{else}}<span class="where">none selected</span>{{end}}</td><td class="result {{class .Result}}">{{.Result}}</td></tr>
{{- end}}
</table>
</section>
{{- end}}
</body></html>
`))
