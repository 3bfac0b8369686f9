package clients

import (
	"slices"
)

// Servers are the servers of this area, in the order the catalogue lists them.
var Servers = slices.Concat(fieldsServers, writesServers)
