// Package lookup finds an entry of a lineage's catalogue (its platforms,
// plans, currencies, phone countries, marketplace apps), for the lineages
// to share the loop; what a catalogue holds and how it matches stays the
// lineage's own.
package lookup

// First is the first element of xs that match takes, as a pointer into xs,
// or nil where none does.
func First[T any](xs []T, match func(*T) bool) *T {
	for i := range xs {
		if match(&xs[i]) {
			return &xs[i]
		}
	}
	return nil
}
