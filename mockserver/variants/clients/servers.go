// Package clients holds the servers that differ in the client endpoints and
// the client object (spec 2.2, 4.3, 4.4): its fields, and what POST and PUT
// answer and store.
package clients

import "github.com/pricing-contract/pricing-contract/mockserver/variants"

// Servers are the servers of this area, wrong and legal, in the order the
// catalogue lists them.
var Servers = variants.InArea(variants.Clients, fieldsServers, writesServers, checkServers)
