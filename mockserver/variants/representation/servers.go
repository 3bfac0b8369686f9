// Package representation holds the servers that differ in what every answer
// looks like (spec 1, 2, 2.5, 4, 7, 9): JSON, ids, dates, the error array,
// statuses, base paths, and the 4xx a client's mistake earns.
package representation

import "github.com/pricing-contract/pricing-contract/mockserver/variants"

// Servers are the servers of this area, wrong and legal, in the order the
// catalogue lists them.
var Servers = variants.InArea(variants.Representation, datesServers, errorsServers, floorServers, jsonServers, pathsServers, shapeServers)
