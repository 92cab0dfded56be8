package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// desiredOf reads what m wants. For a map input, prior (the state before
// this change; null on create) adds the removals: a property key the state
// had and m no longer names is removed from that contact, unless another
// key of m names the same attribute (rewriting "3" as "firstname"). A key
// or column that names no attribute of the account is kept under its own
// name, with a warning (the apply refuses it unless it exists by then:
// desiredAtApply, list_contacts_property_keys.go).
func (r listReader) desiredOf(ctx context.Context, m listContactsModel, prior types.Map) (*contactsync.Book, diag.Diagnostics) {
	book, unknown, diags := r.readInput(ctx, m, prior)
	unknown.warnNotYet(&diags)
	return book, diags
}

// readInput is desiredOf, answering the keys that name no attribute
// instead of warning of them.
func (r listReader) readInput(ctx context.Context, m listContactsModel, prior types.Map) (*contactsync.Book, unknownKeys, diag.Diagnostics) {
	var diags diag.Diagnostics
	unknown := unknownKeys{}
	if m.isFile() {
		book, err := r.data.contacts.SourceFile(ctx, m.fileOptions())
		if err != nil {
			summary, detail := sourceFileError(err)
			diags.AddAttributeError(path.Root("source_file"), summary, detail)
			return nil, unknown, diags
		}
		r.noteUnknownColumns(ctx, book, unknown)
		return book, unknown, diags
	}
	want, d := contactEntries(ctx, m.Contacts)
	diags.Append(d...)
	old, d := contactEntries(ctx, prior)
	diags.Append(d...)
	if diags.HasError() {
		return nil, unknown, diags
	}
	out := make([]contactsync.Desired, 0, len(want))
	for id, e := range want {
		if id == "" {
			// The service refuses a contact without an originalId: refused
			// here, at plan and before the apply's first write.
			diags.AddAttributeError(path.Root("contacts"), "Contact without an id",
				fmt.Sprintf("The contacts map has the key %q: a contact's key is its originalId, which the service requires to be non-empty.", id))
			continue
		}
		w := contactsync.Desired{ID: id, Props: map[string]string{}, Email: knownString(e.EmailStatus), Mobile: knownString(e.MobileStatus)}
		props, d := stringMap(ctx, e.Properties)
		diags.Append(d...)
		names, err := checkPropertyKeys(ctx, r.data.contacts.Attributes, id, contactsync.SortedKeys(props), path.Root("contacts").AtMapKey(id).AtName("properties"), unknown, &diags)
		if err != nil {
			// Said once, and no other contact is tried: each try would
			// wait through the client's retries again (a plan while the
			// service is away would take minutes to fail).
			diags.AddAttributeError(path.Root("contacts"), "Unable to read the account's contact attributes", attributesUnreadableDetail(err))
			return nil, unknown, diags
		}
		for k, name := range names {
			w.Props[name] = props[k]
		}
		for k := range props {
			if _, ok := names[k]; !ok && unknown[k] != nil {
				w.Props[k] = props[k] // no attribute yet: planned as written
			}
		}
		if o, had := old[id]; had {
			oldProps, d := stringMap(ctx, o.Properties)
			diags.Append(d...)
			for k := range oldProps {
				name, ok, err := r.data.contacts.Attributes.AttributeOf(ctx, k)
				if err != nil || !ok {
					continue // an attribute gone from the account has no value to remove
				}
				if _, kept := w.Props[name]; !kept {
					w.Props[name] = ""
				}
			}
		}
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return contactsync.BookOf(out), unknown, diags
}

// contactEntries converts the contacts map; null or unknown is empty.
func contactEntries(ctx context.Context, m types.Map) (map[string]listContactEntry, diag.Diagnostics) {
	if m.IsNull() || m.IsUnknown() {
		return map[string]listContactEntry{}, nil
	}
	// The framework's ElementsAs reflects over the struct (and compiles
	// a pattern per field) for every element: at 10,000 contacts that was
	// the largest cost of a plan. Known entries are read directly; a map
	// with a null or unknown entry goes to ElementsAs for its diagnostics.
	elems := m.Elements()
	out := make(map[string]listContactEntry, len(elems))
	for id, v := range elems {
		o, ok := v.(types.Object)
		if !ok || o.IsNull() || o.IsUnknown() {
			out = map[string]listContactEntry{}
			return out, m.ElementsAs(ctx, &out, false)
		}
		a := o.Attributes()
		props, okP := a["properties"].(types.Map)
		email, okE := a["email_status"].(types.String)
		mobile, okM := a["mobile_status"].(types.String)
		if !okP || !okE || !okM {
			out = map[string]listContactEntry{}
			return out, m.ElementsAs(ctx, &out, false)
		}
		out[id] = listContactEntry{Properties: props, EmailStatus: email, MobileStatus: mobile}
	}
	return out, nil
}

// refreshedEntries is the contacts map a refresh records: for each key of
// prior the contact as the service holds it (properties under prior's key
// form, statuses where prior manages them, through contactsync.Refreshed); a key
// whose contact the list no longer has is left out, so the plan adds it
// again.
func (r listReader) refreshedEntries(ctx context.Context, prior types.Map, service *contactsync.ServiceList, applied contactsync.Record, allow func(id string) bool) (types.Map, diag.Diagnostics) {
	entries, diags := contactEntries(ctx, prior)
	if diags.HasError() || prior.IsNull() || prior.IsUnknown() {
		return prior, diags
	}
	out := make(map[string]attr.Value, len(entries))
	for id, e := range entries {
		have, ok := service.Get(id)
		if !ok {
			continue
		}
		props, d := managedProperties(ctx, r.data.contacts.Attributes, have.Props, e.Properties)
		diags.Append(d...)
		props = keepEmptyValues(props, e.Properties)
		ae, am := applied.Lookup(id)
		email, mobile := e.EmailStatus, e.MobileStatus
		shown := contactsync.Refreshed([2]string{email.ValueString(), mobile.ValueString()}, [2]string{ae, am}, have, allow(id))
		if !email.IsNull() {
			email = types.StringValue(shown[0])
		}
		if !mobile.IsNull() {
			mobile = types.StringValue(shown[1])
		}
		v, d := types.ObjectValue(listContactEntryType.AttrTypes, map[string]attr.Value{
			"properties": props, "email_status": email, "mobile_status": mobile,
		})
		diags.Append(d...)
		out[id] = v
	}
	m, d := types.MapValue(listContactEntryType, out)
	diags.Append(d...)
	return m, diags
}

// keepEmptyValues gives back the keys of prior whose value is "" and that
// props (the service's values under prior's keys) lacks: an empty string in
// the map means "no value", as an empty cell of a file does, so a contact
// without the value is as configured and the key must not look like drift.
func keepEmptyValues(props, prior types.Map) types.Map {
	if props.IsNull() || props.IsUnknown() || prior.IsNull() || prior.IsUnknown() {
		return props
	}
	have := props.Elements() // a copy: out may extend it
	added := false
	for k, v := range prior.Elements() {
		s, ok := v.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() || s.ValueString() != "" {
			continue
		}
		if _, has := have[k]; !has {
			have[k], added = s, true
		}
	}
	if !added {
		return props
	}
	return types.MapValueMust(types.StringType, have)
}

// sourceFileError names what failed while reading a source file: the file
// itself, or the service (the reader asks it which attributes the columns
// name), so that an outage, the token endpoint's included, does not read
// as a broken file.
func sourceFileError(err error) (summary, detail string) {
	var apiErr *client.APIError
	var netErr *url.Error
	var tokenErr *client.TokenError
	if contactsync.IsAttributesUnreadable(err) || errors.As(err, &apiErr) || errors.As(err, &netErr) || errors.As(err, &tokenErr) {
		return "Unable to read the account's contact attributes", describeAPIError(err) +
			"\n\nThe source file was not the problem: its columns are checked against the account's contact attributes, which could not be read from the service. Plan again once the service answers."
	}
	return "Unable to read the source file", err.Error()
}
