// Package provider implements the rms Terraform provider on
// terraform-plugin-framework: the provider configuration, and one file per
// resource, data source, ephemeral resource and action. Provider functions,
// generic validators and the dynamic-value <-> JSON conversion are leaf
// packages beside it (internal/functions, internal/validators,
// internal/dynamic) that it imports and that never import it.
//
// What a resource and an action both run is an operation, in a file of its
// own (list_import_operation.go, statistics_export_operation.go,
// transactional_message_operation.go): its arguments, their descriptions,
// validators and defaults, and its calls. What every batch shares (the
// batch part of the state, its schema fragment, the wait) is the batch
// core, batch_state.go, batch_schema.go and batch_wait.go. Resources and
// actions depend on their operation, operations on the core, never the
// other way: TestFileDependencies checks it.
//
// It maps Terraform values onto internal/client and holds no HTTP code:
// paths, headers, retries and error decoding belong to the client. Terraform
// types never reach internal/client.
package provider
