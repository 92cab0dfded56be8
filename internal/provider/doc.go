// Package provider implements the rms Terraform provider on
// terraform-plugin-framework. Provider functions, generic validators and the
// dynamic-value <-> JSON conversion are leaf packages beside it
// (internal/functions, internal/validators, internal/dynamic) that it
// imports and that never import it; the contact sync core of rms_contact
// and rms_list_contacts is internal/contactsync.
//
// Three packages below it hold what its resources and actions share, one
// way down (depguard holds the directions, .golangci.yml):
//
//   - operation: what a resource and an action both run (the list import,
//     the statistics export, the transactional message send): the calls
//     and the diagnostics of their failures;
//   - batchcore: what every batch shares (the batch part of the state, its
//     schema fragment and timeouts, the wait), below every batch resource,
//     action and operation;
//   - apidiag: the wording of the client's errors, below everything that
//     reports them (diagnostics.go is the provider's name for it).
//
// A file is named for what it holds:
//
//   - provider.go, provider_config.go, provider_settings.go,
//     connection_config.go, tls_config.go: the provider, its configuration
//     and the client it makes, all reading the provider block of
//     provider_model.go;
//     configured_data.go how everything else reaches that client.
//   - One file per Terraform type and kind: *_resource.go, *_data_source.go,
//     *_ephemeral_resource.go, *_action.go, and *_query.go for the list
//     resources that `terraform query` runs. "list" alone always means the
//     service's recipient list (rms_list, rms_list_contacts,
//     rms_list_import); a paged read of the service is a listing.
//   - A resource's model, the struct its state decodes into, is in
//     *_model.go. The resource and the helper files beside it (its identity,
//     values, plan checks, guardrail) all use the model, so helpers sit below
//     the resource and never reach up to it: what a helper needs from the
//     resource it takes as an argument; a model file never uses its
//     resource's file either, and data sources and list resources read a
//     domain through its model file (project_model.go,
//     recipient_list_model.go, webhook_model.go). A large resource spreads
//     its own methods over files named <resource>_resource_<concern>.go
//     (list_contacts_resource_crud.go, list_contacts_resource_plan.go, ...):
//     those are the resource, not helpers.
//   - What a resource and an action both run is an operation, in package
//     operation; the arguments they both declare (descriptions,
//     validators, the model both embed) stay here, in *_args.go
//     (list_import_args.go, statistics_export_args.go,
//     transactional_message_args.go), beside the guardrails and checks that
//     read them. Resources and actions depend on the operation, never on
//     each other: what a resource and its action share is in *_args.go or
//     action_helpers.go, never in the resource's or the action's file.
//   - Pieces several types share are named for what they hold:
//     schema_attributes.go, state_values.go, diagnostics.go,
//     resource_state.go, identity_helpers.go, query_helpers.go, ids.go.
//
// A test file is named after the file it tests (foo.go: foo_test.go and
// foo_<aspect>_test.go), or, for a suite that crosses files, after the
// suite: wire, chaos, fleet, queries, actions, identity, orphans, outages,
// readback, functions, account_isolation, bad_input_catalogue, ...
//
// It maps Terraform values onto internal/client and holds no HTTP code:
// paths, headers, retries and error decoding belong to the client. Terraform
// types never reach internal/client.
package provider
