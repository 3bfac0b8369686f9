// Package users holds the servers that differ in PUT /users/:userId and the
// user object (spec 2.1, 4.1, 7.3, 8): the email, the password, the names,
// the phone, what an update stores, and that a password never comes back.
package users

import "github.com/pricing-contract/pricing-contract/mockserver/variants"

// Servers are the servers of this area, wrong and legal, in the order the
// catalogue lists them.
var Servers = variants.InArea(variants.Users, emailServers, leaksServers, namesServers, passwordServers, phoneServers, updateServers, checkServers)
