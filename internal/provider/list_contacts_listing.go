package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// Private state of rms_list_contacts: what the consent rule must remember
// between applies, and the batches an apply stopped waiting for.
const (
	privateApplied = "applied"
	privateBatches = "batches"
)

func readListApplied(ctx context.Context, p privateGetter, file bool) (contactsync.Record, diag.Diagnostics) {
	rec := contactsync.Record{File: file}
	if p == nil {
		return rec, nil
	}
	raw, diags := p.GetKey(ctx, privateApplied)
	if len(raw) > 0 {
		var got contactsync.Record
		if json.Unmarshal(raw, &got) == nil && got.File == file {
			rec = got
		}
	}
	return rec, diags
}

func writeJSONKey(ctx context.Context, p privateSetter, key string, v any) diag.Diagnostics {
	raw, err := json.Marshal(v)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Unable to save private state", err.Error())
		return diags
	}
	return p.SetKey(ctx, key, raw)
}

// readBatches returns the import batches an earlier apply started and did
// not see finish.
func readBatches(ctx context.Context, p privateGetter) ([]string, diag.Diagnostics) {
	if p == nil {
		return nil, nil
	}
	raw, diags := p.GetKey(ctx, privateBatches)
	var ids []string
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &ids) // unreadable: nothing to resume
	}
	return ids, diags
}
