// Package outofband sends requests straight to an account of the emulator
// (or of any server of the interface), as a user of the account would
// outside Terraform: tests make drift and look at the record with it, the
// bench sets up lists and imports. It is a leaf of the standard library
// only, so that the acceptance-test helpers and the bench, which may not
// import each other, share it, and it is no client: it neither retries nor
// interprets an answer, and says only what status and body came back.
package outofband
