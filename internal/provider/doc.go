// Package provider implements the rms Terraform provider on
// terraform-plugin-framework: the provider configuration, and one file per
// resource, data source, ephemeral resource, action and function.
//
// It maps Terraform values onto internal/client and holds no HTTP code:
// paths, headers, retries and error decoding belong to the client. Terraform
// types never leave this package.
package provider
