// Package floorprovider is the floor the bench's floor scenario measures
// rms_contact against: the rms provider with every schema of the real one
// (provider block, resources, data sources, functions, ...), taken from
// internal/provider so that it cannot drift, but whose rms_contact does no
// I/O: Read returns the prior state as it is, Create and Update fill the
// computed values themselves, and Configure builds no client and checks no
// credentials. A no-change plan of N of its contacts is then what
// Terraform, gRPC, the plugin framework and the contact's schema
// (validators, plan modifiers, defaults) cost, without a line of the
// contact's own code.
//
// It is served by ./cmd, a main like the provider's own (the same protocol
// shim, log settings and RMS_CPU_PROFILE), which the bench builds next to
// the real provider. It is a measuring tool: nothing of the provider
// imports it.
package floorprovider
