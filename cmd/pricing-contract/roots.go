package main

// The CA roots of Mozilla's bundle, used only where the system has none: the
// container image (make image) holds no /etc/ssl, and a run there against an
// https staging server must still verify its certificate.
import _ "golang.org/x/crypto/x509roots/fallback"
