// Package client is the typed REST client of the Recipient and Messaging
// Service: URLs below {base_url}/rest/{customerid}, the headers the interface
// prescribes, HTTP Basic credentials, JSON in UTF-8, typed errors, retries
// that never repeat a write the server may have acted on, batch polling and
// streaming uploads and downloads.
//
// Calls are grouped by the service's domains, as go-tfe groups its own:
// c.Lists.Create, c.Contacts.Get, c.Imports.UploadOnce, c.Batches.Wait. The
// Client holds the transport, credentials and configuration they share.
//
// It holds no Terraform types and must not import terraform-plugin-*
// packages, internal/provider or internal/emulator: the provider adapts its
// logging and configuration onto the small interfaces defined here.
package client
