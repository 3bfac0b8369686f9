package apps

import (
	"slices"
)

// Servers are the servers of this area, in the order the catalogue lists them.
var Servers = slices.Concat(appServers, createServers)
