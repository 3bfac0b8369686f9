package report

import (
	"fmt"
	"io"
	"time"
)

// The console's lines of a run beside godog's own output.

// Progress writes a line to w each time another tenth of the scenarios has
// finished, for runs whose chosen formats print nothing on the console (a
// CI log would otherwise stay silent for minutes).
func Progress(w io.Writer) func(done, total int, counts map[string]int, elapsed time.Duration) {
	return func(done, total int, counts map[string]int, elapsed time.Duration) {
		step := max(1, (total+9)/10)
		if done%step != 0 && done != total {
			return
		}
		fmt.Fprintf(w, "pricing-contract: %d/%d scenarios done: %s (%s)\n",
			done, total, CountsText(counts), elapsed.Round(time.Second))
	}
}

// WriteSkipped lists on w, once for the whole run, the skipped scenarios
// grouped by their reason, names resolved, then one line per profile value
// that was missing (missing, steps.MissingSummary's) and how to write a
// profile that has it.
func WriteSkipped(w io.Writer, skipped []Scenario, missing []string, baseURL string) {
	if len(skipped) == 0 {
		return
	}
	var reasons []string
	byReason := map[string][]Scenario{}
	for _, s := range skipped {
		if _, ok := byReason[s.Reason]; !ok {
			reasons = append(reasons, s.Reason)
		}
		byReason[s.Reason] = append(byReason[s.Reason], s)
	}
	fmt.Fprintf(w, "pricing-contract: %d %s skipped, by reason:\n", len(skipped), Plural(len(skipped), "scenario", "scenarios"))
	for _, reason := range reasons {
		fmt.Fprintf(w, "  %s\n", FirstLine(reason, 300))
		for _, s := range byReason[reason] {
			fmt.Fprintf(w, "    %s  %s\n", Location(s), s.Name)
		}
	}
	for _, line := range missing {
		fmt.Fprintf(w, "pricing-contract: %s\n", line)
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "pricing-contract: `pricing-contract init --base-url %s --output FILE` writes a profile with every key, "+
			"each value read from the target or marked TODO; run with --profile FILE\n", baseURL)
	}
}
