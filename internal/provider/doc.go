// Package provider implements the rms Terraform provider on
// terraform-plugin-framework: the provider configuration, and one file per
// resource, data source, ephemeral resource and action. Provider functions,
// generic validators and the dynamic-value <-> JSON conversion are leaf
// packages beside it (internal/functions, internal/validators,
// internal/dynamic) that it imports and that never import it.
//
// It maps Terraform values onto internal/client and holds no HTTP code:
// paths, headers, retries and error decoding belong to the client. Terraform
// types never reach internal/client.
package provider
