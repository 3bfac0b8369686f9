package contract

import (
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v21"
)

var lineSuffix = regexp.MustCompile(`:([0-9]+)$`)

func hasLine(p string) bool { return lineSuffix.MatchString(p) }

// resolveScenarioLine turns name.feature:LINE into the line of the scenario
// that holds LINE. godog selects a scenario only by the line of its
// Scenario keyword: any other line, a step or a doc string, matches nothing
// and the run then fails with a message about the tag filter. A line before
// the first scenario, or past the end of the file, is an error that says
// so. fsys nil means the disk, as for godog.
func resolveScenarioLine(fsys fs.FS, p string) (string, error) {
	m := lineSuffix.FindStringSubmatchIndex(p)
	if m == nil {
		return p, nil
	}
	file := p[:m[0]]
	line, err := strconv.ParseInt(p[m[2]:m[3]], 10, 64)
	if err != nil || line < 1 {
		return "", fmt.Errorf("--godog.paths %s: %q is not a line number", p, p[m[2]:m[3]])
	}
	opts := godog.Options{FS: fsys, Paths: []string{file}}
	feats, err := (godog.TestSuite{Options: &opts}).RetrieveFeatures()
	if err != nil {
		return "", fmt.Errorf("--godog.paths %s: %w", p, err)
	}
	if len(feats) != 1 || feats[0].GherkinDocument == nil || feats[0].GherkinDocument.Feature == nil {
		return "", fmt.Errorf("--godog.paths %s: %s is not one feature file", p, file)
	}
	lines := int64(strings.Count(strings.TrimRight(string(feats[0].Content), "\n"), "\n") + 1)
	if line > lines {
		return "", fmt.Errorf("--godog.paths %s: %s has %d lines", p, file, lines)
	}
	spans := scenarioSpans(feats[0].GherkinDocument)
	i := sort.Search(len(spans), func(i int) bool { return spans[i].first > line }) - 1
	if i < 0 {
		return "", fmt.Errorf("--godog.paths %s: line %d is before the first scenario (the Feature header or Background); give the line of a scenario or of one of its steps", p, line)
	}
	return file + ":" + strconv.FormatInt(spans[i].keyword, 10), nil
}

// span is one scenario: the first line of its tags (or its keyword line)
// and the line of its Scenario keyword. It lasts until the next one.
type span struct{ first, keyword int64 }

func scenarioSpans(doc *godog.GherkinDocument) []span {
	var out []span
	// add is the span of a scenario (none: nil): from its first tag, or
	// from its keyword.
	add := func(sc *messages.Scenario) {
		if sc == nil {
			return
		}
		first := sc.Location.Line
		for _, t := range sc.Tags {
			first = min(first, t.Location.Line)
		}
		out = append(out, span{first, sc.Location.Line})
	}
	for _, c := range doc.Feature.Children {
		add(c.Scenario)
		if c.Rule == nil {
			continue
		}
		for _, rc := range c.Rule.Children {
			add(rc.Scenario)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].first < out[j].first })
	return out
}
