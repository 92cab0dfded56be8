// Package emulator is a faithful, stateful, in-memory implementation of the
// service's REST interface specification, with the wire choices of
// templates/guides/service-conventions.md wherever the interface says
// "not shown". the OpenAPI fragments in openapi/ (served merged at /mail/swagger) documents exactly what
// it implements.
//
// It owns: HTTP Basic authentication, {customerid} scoping, media-type rules,
// the generic resource pattern for every public domain, nested generic
// collections, retired (410) paths, validation errors, request statistics and
// the OpenAPI document served at /mail/swagger. Later files of this package add
// lists/contacts, imports, batches, statistics exports, webhooks and fault
// injection; each registers its routes in routes.go and documents them in
// the OpenAPI fragments.
//
// The provider's acceptance tests start one emulator per test (Listen), and
// users run it in their own CI through cmd/rms-emulator.
//
// It is written from the interface, never from the client: this package must
// not import internal/client or internal/provider, so that a misreading of the
// interface in the client cannot be mirrored here and go unnoticed. It holds no
// package-level mutable state: every Server is independent.
package emulator
