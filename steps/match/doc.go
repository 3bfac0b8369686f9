// Package match holds what the step vocabulary compares, with no HTTP and
// no scenario in it: response shapes (the #markers of fixtures/shapes),
// ISO 8601 values as ranges of instants, the forms a password may leak in,
// gjson paths checked before use, and the unescaping of quoted step
// arguments.
package match
