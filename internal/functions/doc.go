// Package functions holds the provider functions (provider::rms::...): one
// file per function, each a function.Function with a New... constructor that
// internal/provider registers, and its logic in a plain Go function free of
// framework types so that it is unit-tested directly. Their acceptance tests,
// which drive the Terraform CLI, stay in internal/provider (functions_test.go).
//
// It is a leaf: of this module it imports internal/client only, for the
// interface's own rules (client.DelimiterCode), never internal/provider or
// anything else above it.
package functions
