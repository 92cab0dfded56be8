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

// A property key (rms_contact's properties, rms_list_contacts' contacts
// map, a source file's column) that names no attribute of the account
// today is a warning at plan, not an error: the attribute may be made
// earlier in the same apply (an rms_resource of properties the contact
// resource depends on), and the first apply of a new account is one
// configuration. The apply reads the attributes again before its first
// write (contactsync.Attributes.Confirm) and refuses the resource, having
// written nothing, when the key still names none.

// unknownKey is a key that names no attribute of the account, where an
// input uses it: at is its path in the first contact (owner, in id order)
// that names it, more the number of other contacts that do.
type unknownKey struct {
	at    path.Path
	owner string
	err   *contactsync.UnknownAttributeError
	more  int
}

// unknownKeys are an input's keys that name no attribute, by key.
type unknownKeys map[string]*unknownKey

// note records that the contact owner names key at at.
func (u unknownKeys) note(key, owner string, at path.Path, err *contactsync.UnknownAttributeError) {
	k, seen := u[key]
	if !seen {
		u[key] = &unknownKey{at: at, owner: owner, err: err}
		return
	}
	k.more++
	if owner < k.owner {
		k.at, k.owner = at, owner
	}
}

// keys are the keys in sorted order.
func (u unknownKeys) keys() []string {
	keys := make([]string, 0, len(u))
	for k := range u {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// whereElse says how many more contacts name the key.
func (k *unknownKey) whereElse() string {
	switch k.more {
	case 0:
		return ""
	case 1:
		return " The key is also in 1 more contact."
	default:
		return fmt.Sprintf(" The key is also in %d more contacts.", k.more)
	}
}

// madeInSameApply says how an attribute the configuration itself makes
// exists in time.
const madeInSameApply = `An attribute made in the same apply must exist before this resource is applied: create it in this configuration (an rms_resource with collection = "properties") and add that resource to this one's depends_on.`

// warnNotYet warns at plan of each key: the apply fails unless it exists
// by then.
func (u unknownKeys) warnNotYet(diags *diag.Diagnostics) {
	for _, key := range u.keys() {
		k := u[key]
		subject := k.err.Subject
		if k.err.ID {
			subject += " (an attribute id)"
		}
		hint := ""
		if k.err.Spelling != "" {
			hint = "; " + k.err.Advice
		}
		// A summary of its own per key: Terraform folds warnings of one
		// summary into the first ("and 3 more similar warnings"), which
		// would hide every other key.
		diags.AddAttributeWarning(k.at, fmt.Sprintf("Contact attribute %q not in the account yet", key),
			fmt.Sprintf("%s: %s is not an attribute of the account yet: the apply fails before any write unless it exists by then (%s)%s.%s\n\n%s",
				k.at, subject, k.err.KnownList(), hint, k.whereElse(), madeInSameApply))
	}
}

// refuse refuses at apply each key, read again and still no attribute.
func (u unknownKeys) refuse(diags *diag.Diagnostics) {
	for _, key := range u.keys() {
		k := u[key]
		diags.AddAttributeError(k.at, "Unknown contact attribute",
			fmt.Sprintf("%s: %s.%s\n\nNothing was written: the apply checks every key before its first write. %s", k.at, k.err, k.whereElse(), madeInSameApply))
	}
}

// checkPropertyKeys checks the property keys of one contact (owner, its
// originalId) against the account's attributes, for rms_contact and for
// rms_list_contacts' contacts map alike. It returns the attribute name of
// every key that names one, keys taken in sorted order; a key that names
// none (contactsync.CheckAttributeKey, which names the spelling when only
// letter case differs) is noted in unknown at its own path below at, for
// the caller to warn of at plan or refuse at apply. Two keys of one
// attribute are refused at at itself, since the service refuses such a
// contact. When the account's attributes cannot be read it adds nothing
// and returns that error (contactsync.IsAttributesUnreadable), for the
// caller to say once or to leave to the apply.
func checkPropertyKeys(ctx context.Context, attrs contactsync.AttributeNames, owner string, keys []string, at path.Path, unknown unknownKeys, diags *diag.Diagnostics) (map[string]string, error) {
	names := make(map[string]string, len(keys))
	keyOf := make(map[string]string, len(keys)) // attribute name -> the key that set it
	for _, k := range keys {
		name, err := contactsync.CheckAttributeKey(ctx, k, attrs)
		if contactsync.IsAttributesUnreadable(err) {
			// No other key is tried: each try would wait through the
			// client's retries again.
			return nil, err
		}
		var absent *contactsync.UnknownAttributeError
		if errors.As(err, &absent) {
			unknown.note(k, owner, at.AtMapKey(k), absent)
			continue
		}
		if err != nil {
			return nil, err
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

// addedPropertyKeys are the keys of the planned properties, sorted, when
// the plan adds one that state lacks (keys the state already has were
// accepted by the service; state is null on a create), else nil. A map
// not known yet has none.
func addedPropertyKeys(plan contactModel, state types.Map) []string {
	if plan.Properties.IsNull() || plan.Properties.IsUnknown() {
		return nil
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
		return nil
	}
	slices.Sort(keys)
	return keys
}

// checkPropertyKeysAtPlan warns at plan of the property keys of an
// rms_contact that name no attribute of the account (the apply refuses
// them unless they exist by then), as rms_list_contacts does, and refuses
// an attribute named twice. A map not known yet is left to the apply; so
// is an account whose attributes cannot be read now (the plan goes on, as
// the credentials check lets it when the service is away). A plan that
// adds no key reads nothing.
func (r *contactResource) checkPropertyKeysAtPlan(ctx context.Context, plan contactModel, state types.Map, diags *diag.Diagnostics) {
	keys := addedPropertyKeys(plan, state)
	if r.data == nil || r.data.contacts == nil || keys == nil {
		return
	}
	unknown := unknownKeys{}
	if _, err := checkPropertyKeys(ctx, r.data.contacts.Attributes, plan.OriginalID.ValueString(), keys, path.Root("properties"), unknown, diags); err != nil {
		tflog.Debug(ctx, "the account's contact attributes could not be read; the property keys are left to the apply", map[string]any{"error": err.Error()})
		return
	}
	unknown.warnNotYet(diags)
}

// confirmPropertyKeys is the apply's check of the keys, before its first
// write: the attributes are read again when a key is not among those the
// run holds (contactsync.Attributes.Confirm), so an attribute made earlier
// in this apply counts, and a key that still names none is refused. It
// reports whether the apply goes on.
func (r *contactResource) confirmPropertyKeys(ctx context.Context, plan contactModel, state types.Map, diags *diag.Diagnostics) bool {
	keys := addedPropertyKeys(plan, state)
	if keys == nil {
		return true
	}
	attrs := r.data.contacts.Attributes
	if _, err := attrs.Confirm(ctx, keys); err != nil {
		diags.AddAttributeError(path.Root("properties"), "Unable to read the account's contact attributes",
			fmt.Sprintf("The apply checks the property keys against the account's attributes before its first write: %s\n\nNothing was written; apply again.", describeAPIError(err)))
		return false
	}
	unknown := unknownKeys{}
	if _, err := checkPropertyKeys(ctx, attrs, plan.OriginalID.ValueString(), keys, path.Root("properties"), unknown, diags); err != nil {
		diags.AddAttributeError(path.Root("properties"), "Unable to read the account's contact attributes", attributesUnreadableDetail(err)+"\n\nNothing was written; apply again.")
		return false
	}
	unknown.refuse(diags)
	return !diags.HasError()
}
