package provider

import "github.com/rms-labs/terraform-provider-rms/internal/client"

// What resolving the provider block's credentials yields
// (connection_config.go, oauth2_config.go).

// credentials is the resolved authentication scheme.
type credentials struct {
	auth     client.Authenticator
	scheme   string // "basic", "bearer" or "oauth2", for the log
	username string // logged; empty for a token
	secrets  []string
}
