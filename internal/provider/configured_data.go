package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
)

// How resources, data sources, ephemeral resources and actions reach what
// the provider's Configure passed on (the client).

// configuredData unpacks what Configure passed on. Nil means the provider is
// not configured yet (its block holds unknown values during plan).
func configuredData(data any, diags *diag.Diagnostics) *providerData {
	if data == nil {
		return nil
	}
	d, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
	return d
}

// requireClient reports a missing client; resources call it before a call.
func requireClient(d *providerData, diags *diag.Diagnostics) bool {
	if d == nil || d.client == nil {
		diags.AddError("Provider not configured",
			"The rms provider has no client yet: its configuration holds values that are unknown until apply. Make base_url, customer_id, username and password known, or apply the resources they depend on first.")
		return false
	}
	return true
}

// batches is how the batch core reaches the service: the client, polled at
// batch_poll_interval (its default when the data was made without one).
func (d *providerData) batches() batchcore.Service {
	interval := d.batchPollInterval
	if interval <= 0 {
		interval = defaultBatchPollInterval
	}
	return batchcore.Service{Client: d.client, PollInterval: interval}
}
