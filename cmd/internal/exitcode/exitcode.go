// Package exitcode declares, once, the exit statuses of the pricing-contract
// binary: the suite (cmd/internal/contract), init and explore
// (cmd/internal/explore) end with these and no others.
package exitcode

const (
	// Pass: every scenario passed; the explorer found no divergence.
	Pass = 0
	// Fail: the contract failed: a failed, undefined or pending step, an
	// interrupted run, or a divergence the explorer found and reproduced.
	Fail = 1
	// Usage: a bad flag, profile or tag expression, or a file that cannot be
	// written.
	Usage = 2
	// Unusable: the target or the profile cannot be used at all (the
	// preflight failed, the target stopped answering), so the contract was
	// not judged.
	Unusable = 3
)
