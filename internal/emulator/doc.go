// Package emulator is a faithful, stateful, in-memory implementation of the
// service's REST interface specification, with the wire choices of
// templates/guides/service-conventions.md wherever the interface says
// "not shown". The OpenAPI fragments in openapi/ (served merged at
// /mail/swagger) document exactly what it implements.
//
// # Where things are
//
// Three layers, each importing only the ones below it:
//
//   - the account's state, the package state: collections, contacts, sent
//     messages, and the data directory (snapshot, journal, the persister
//     that keeps it up to date); its refusals, and the handlers', are the
//     one error type of the package apierr;
//   - the HTTP handlers, grouped by domain, one type each on the plumbing
//     they share (base.go: the options, the state, the mux and where events
//     go, with registration in mux.go, ids.go, paging.go, media.go,
//     validation.go, respond.go, errors.go and the wire profiles, wire*.go);
//   - the account put together: server.go (the Server type), new.go (New and
//     the routes of routes.go), pipeline.go (faults.go, auth.go, retired.go
//     and the mux in the order a request meets them), wire_rewrite.go,
//     server_api.go (the Go API besides HTTP), and what it starts from:
//     open.go (a data directory or fixtures.go), snapshot.go (the parts the
//     data directory keeps besides the store); listen.go and tls.go serve it
//     over TCP.
//
// Each domain is read in the files named after it, and documents its routes
// in the OpenAPI fragments:
//
//   - lists and contacts (contactsAPI, contacts_api.go): contacts.go (routes),
//     contacts_events.go (their webhook events), contacts_wire.go (their
//     wire profiles), contacts_seed.go and seed.go (seeding from Go);
//   - contact attributes: properties.go;
//   - imports (importsAPI): imports.go (the steps, the interface's values),
//     imports_routes.go, imports_view.go (an import as the listing shows
//     it), imports_csv.go (reading the file), imports_job.go (the batch's
//     work), imports_rows.go (the parsed rows, kept compactly),
//     imports_snapshot.go; the imports made are state.Imports;
//   - statistics exports (exportsAPI): exports.go, exports_routes.go,
//     exports_results.go (the stand-in object storage their files download
//     from), exports_snapshot.go;
//   - batches, which run imports and exports (batchesAPI): batches.go
//     (starting them, the clock, their view; the batches themselves are
//     state.Batches, which knows no kind of work: each saves and restores
//     its own), batches_routes.go, batches_wire.go, batches_snapshot.go;
//   - webhooks (webhooksAPI) and their deliveries: webhooks.go,
//     webhooks_events.go (the account's events to their subscribers),
//     webhooks_delivery.go, webhooks_health.go, webhooks_targets.go;
//   - triggers and transactional messages (triggersAPI): triggers.go;
//   - the generic resource pattern, nested collections included
//     (genericAPI): generic.go, with the table of its domains in domains.go;
//   - authentication, accounts and retired (410) paths: auth.go,
//     accounts.go, retired.go; the Token domain (tokensAPI: OAuth 2.0
//     client credentials at /oauth2/token): oauth2_token.go;
//   - the OpenAPI document and its page (docsAPI): openapi.go,
//     swagger_ui.go, swagger_negotiation.go;
//   - the console, read-only HTML pages of what the account holds, for
//     people and outside the service's interface (consoleAPI): console.go
//     (routes, credentials, rendering), console_pages.go (each page, over
//     the read methods of state/contacts_overview.go), console_templates.go
//     and the templates in console/, console_accounts.go (the index of
//     several accounts), request_log.go (the last requests it lists).
//
// A handler reaches another domain only through the pointer its type holds
// (importsAPI.batchesAPI, say), never through the Server.
//
// The provider's acceptance tests start one emulator per test (Listen), and
// users run it in their own CI through cmd/rms-emulator.
//
// It is written from the interface, never from the client: this package must
// not import internal/client or internal/provider, so that a misreading of the
// interface in the client cannot be mirrored here and go unnoticed. It holds no
// package-level mutable state: every Server is independent.
package emulator
