// Package incoming holds the servers of the second blind audit (blind-2):
// wrong servers, each breaking one rule of the spec, and legal servers
// that choose otherwise where the spec is silent. The name is temporary.
package incoming

import "github.com/pricing-contract/pricing-contract/mockserver/variants"

// origin is the Origin of every server of this audit.
var origin = variants.Origin{Round: "blind-2", Date: "2026-11-26", Author: variants.Blind}

// Servers lists the servers of the audit, wrong ones first, area by area.
func Servers() []variants.Server {
	var all []variants.Server
	for _, part := range [][]variants.Server{authServers, userServers, clientServers, appServers, sessionServers, representationServers, legalServers} {
		all = append(all, part...)
	}
	return all
}
