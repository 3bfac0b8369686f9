// Package auth holds the servers that differ in authentication and
// permissions (spec 5, 7.2): which credentials, in which place, checked
// before what, and who may act on what.
package auth

import "github.com/pricing-contract/pricing-contract/mockserver/variants"

// Servers are the servers of this area, wrong and legal, in the order the
// catalogue lists them.
var Servers = variants.InArea(variants.Auth, orderServers, permissionsServers, schemesServers, formServers, togetherServers)
