// Package sessions holds the servers that differ in POST /sessions and the
// session object (spec 2.4, 5).
package sessions

import "github.com/pricing-contract/pricing-contract/mockserver/variants"

// Servers are the servers of this area, wrong and legal, in the order the
// catalogue lists them.
var Servers = variants.InArea(variants.Sessions, loginServers, sessionServers, checkServers, resumeServers)
