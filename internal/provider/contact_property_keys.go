package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// checkPropertyKeys checks the property keys of one contact (owner, its
// originalId) against the account's attributes, for rms_contact and for
// rms_list_contacts' contacts map alike: a key that names no attribute of
// the account (contactsync.CheckAttributeKey, which names the spelling
// when only letter case differs) is refused at its own path below at, and
// two keys of one attribute at at itself, since the service refuses such a
// contact. It returns the attribute name of every key it accepts, keys
// taken in sorted order. When the account's attributes cannot be read it
// adds nothing and returns that error (contactsync.IsAttributesUnreadable),
// for the caller to say once or to leave to the apply.
func checkPropertyKeys(ctx context.Context, attrs contactsync.AttributeNames, owner string, keys []string, at path.Path, diags *diag.Diagnostics) (map[string]string, error) {
	names := make(map[string]string, len(keys))
	keyOf := make(map[string]string, len(keys)) // attribute name -> the key that set it
	for _, k := range keys {
		name, err := contactsync.CheckAttributeKey(ctx, k, attrs)
		if contactsync.IsAttributesUnreadable(err) {
			// No other key is tried: each try would wait through the
			// client's retries again.
			return nil, err
		}
		if err != nil {
			diags.AddAttributeError(at.AtMapKey(k), "Unknown contact attribute", fmt.Sprintf("%s: %s.", at.AtMapKey(k), err))
			continue
		}
		// Two keys for one attribute would write one value, read back the
		// other, and change on every apply.
		if first, dup := keyOf[name]; dup {
			diags.AddAttributeError(at, "Contact attribute named twice",
				fmt.Sprintf("Contact %q names attribute %q twice: by key %q and by key %q. Keep one of the two keys.", owner, name, first, k))
			continue
		}
		keyOf[name] = k
		names[k] = name
	}
	return names, nil
}

// attributesUnreadableDetail is the detail of a diagnostic for the
// account's attributes failing to be read (err from checkPropertyKeys).
func attributesUnreadableDetail(err error) string {
	return "reading the account's contact attributes: " + describeAPIError(errors.Unwrap(err))
}

// refuseUnknownPropertyKeys refuses at plan the property keys of an
// rms_contact that name no attribute of the account, as rms_list_contacts
// does, instead of the service's 400 at apply. A map not known yet is
// left to the apply; so is an account whose attributes cannot be read now
// (the plan goes on, as the credentials check lets it when the service is
// away). Keys the state already has were accepted by the service: a plan
// that adds no key reads nothing for them (state is null on a create).
func (r *contactResource) refuseUnknownPropertyKeys(ctx context.Context, plan contactModel, state types.Map, diags *diag.Diagnostics) {
	if r.data == nil || r.data.contacts == nil || plan.Properties.IsNull() || plan.Properties.IsUnknown() {
		return
	}
	had := state.Elements() // empty for a null or unknown map
	keys := make([]string, 0, len(plan.Properties.Elements()))
	added := false
	for k := range plan.Properties.Elements() {
		keys = append(keys, k)
		if _, ok := had[k]; !ok {
			added = true
		}
	}
	if !added {
		return
	}
	slices.Sort(keys)
	if _, err := checkPropertyKeys(ctx, r.data.contacts.Attributes, plan.OriginalID.ValueString(), keys, path.Root("properties"), diags); err != nil {
		tflog.Debug(ctx, "the account's contact attributes could not be read; the property keys are left to the apply", map[string]any{"error": err.Error()})
	}
}
