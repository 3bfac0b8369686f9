// Package apps holds the servers that differ in POST /apps, the app object
// and the platforms collection (spec 2.3, 2.5, 4.2, 4.5).
package apps

import "github.com/pricing-contract/pricing-contract/mockserver/variants"

// Servers are the servers of this area, wrong and legal, in the order the
// catalogue lists them.
var Servers = variants.InArea(variants.Apps, appServers, createServers, checkServers)
