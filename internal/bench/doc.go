// Package bench is the harness behind `make bench`: it drives the real
// terraform CLI, with this repository's provider built once and installed
// through a dev_overrides CLI configuration, against an rms emulator served
// in-process on 127.0.0.1, and measures what a user of the provider pays:
// HTTP requests per resource (counted by the emulator, by route), wall time
// of terraform apply and plan against Terraform's own cost for the same
// number of terraform_data resources, and the peak resident memory of the
// provider process (read from /proc while Terraform runs it).
//
// It is a measuring tool, not part of the provider: it imports the emulator
// (to serve and count) and the client only for its poll schedule (to
// compute waits too long to run), never the provider, so what it measures
// is the shipped binary talking HTTP. The one exception is the floor
// provider (floorprovider), a second binary the floor scenario builds: it
// takes rms_contact's schema from the provider so that the floor cannot
// drift from it, and a depguard rule keeps the client and the emulator out
// of it. The command that runs it is ./cmd/rms-bench; BENCHMARKS.md records
// its figures.
package bench
