// Package emulator is a faithful, stateful, in-memory implementation of the
// service's REST interface specification, with the wire choices of
// templates/guides/service-conventions.md wherever the interface says
// "not shown". The OpenAPI fragments in openapi/ (served merged at
// /mail/swagger) document exactly what it implements.
//
// # Where things are
//
// Each domain is read in the files named after it; each registers its own
// routes from routes.go, which lists them all, and documents them in the
// OpenAPI fragments:
//
//   - lists and contacts: contacts.go (routes), contacts_store.go,
//     contacts_events.go (their webhook events), contacts_wire.go (their
//     wire profiles), contacts_seed.go (seeding from Go);
//   - contact attributes: properties.go;
//   - imports: imports.go, imports_snapshot.go;
//   - statistics exports: exports.go, exports_results.go (the stand-in
//     object storage their files download from), exports_snapshot.go;
//   - batches, which run imports and exports: batches.go, batches_wire.go,
//     batches_snapshot.go;
//   - webhooks and deliveries: webhooks.go, webhooks_delivery.go,
//     webhooks_health.go, webhooks_targets.go;
//   - triggers and transactional messages: triggers.go;
//   - the generic resource pattern, nested collections included: generic.go,
//     with the table of its domains in domains.go;
//   - authentication, accounts and retired (410) paths: auth.go,
//     accounts.go, retired.go; the Token domain (OAuth 2.0 client
//     credentials at /oauth2/token): oauth2_token.go;
//   - the OpenAPI document and its page: openapi.go, swagger_ui.go,
//     swagger_negotiation.go.
//
// Below them, the plumbing every domain uses: mux.go (registration), ids.go,
// paging.go, media.go, validation.go, respond.go, errors.go, the wire
// profiles (wire*.go), faults.go, stats.go and store.go (the account's
// collections, with a place for the contacts and the sent messages). Above
// them, what puts an account together: server.go (New and the request
// pipeline), open.go, fixtures.go, persist.go, snapshot.go with
// store_snapshot.go, listen.go and tls.go.
//
// The provider's acceptance tests start one emulator per test (Listen), and
// users run it in their own CI through cmd/rms-emulator.
//
// It is written from the interface, never from the client: this package must
// not import internal/client or internal/provider, so that a misreading of the
// interface in the client cannot be mirrored here and go unnoticed. It holds no
// package-level mutable state: every Server is independent.
package emulator
