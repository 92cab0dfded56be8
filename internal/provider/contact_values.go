package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// rms_contact is the resource users have by the thousand, and Read runs for
// each of them on every plan. The framework's State.Get and State.Set
// convert a model struct by reflection, and in terraform-plugin-framework
// v1.19 that compiles a regular expression for every struct field on every
// call (internal/reflect isValidFieldName): half the CPU of a contact's Read
// in a profile of a no-change plan of 1,000 contacts. Read therefore builds
// and reads the Terraform values itself (contactModel.terraformValue, with
// the type below, is shared with the rms_contact list resource).
// TestContactValues holds these types equal to the schemas' and the
// conversions equal to the framework's.

// contactObjectType is the Terraform type of rms_contact's schema.
var contactObjectType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"id":            tftypes.String,
	"list_id":       tftypes.String,
	"original_id":   tftypes.String,
	"properties":    tftypes.Map{ElementType: tftypes.String},
	"email_status":  tftypes.String,
	"mobile_status": tftypes.String,
	"date_created":  tftypes.String,
	"date_modified": tftypes.String,

	"allow_resubscribe":     tftypes.Bool,
	"service_email_status":  tftypes.String,
	"service_mobile_status": tftypes.String,
	"on_destroy":            tftypes.String,
	"suppression_list_id":   tftypes.String,
}}

// contactIdentityType is the Terraform type of rms_contact's identity.
var contactIdentityType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"list_id":     tftypes.String,
	"original_id": tftypes.String,
}}

// terraformValue is the identity as a value of contactIdentityType.
func (m contactIdentityModel) terraformValue(ctx context.Context) (tftypes.Value, error) {
	listID, err := m.ListID.ToTerraformValue(ctx)
	if err != nil {
		return tftypes.Value{}, fmt.Errorf("list_id: %w", err)
	}
	originalID, err := m.OriginalID.ToTerraformValue(ctx)
	if err != nil {
		return tftypes.Value{}, fmt.Errorf("original_id: %w", err)
	}
	return tftypes.NewValue(contactIdentityType, map[string]tftypes.Value{"list_id": listID, "original_id": originalID}), nil
}

// contactModelOf reads a value of contactObjectType (a whole state, known
// and not null) into a model.
func contactModelOf(ctx context.Context, v tftypes.Value) (contactModel, error) {
	var m contactModel
	var vals map[string]tftypes.Value
	if err := v.As(&vals); err != nil {
		return m, err
	}
	str := func(name string) (types.String, error) {
		a, err := types.StringType.ValueFromTerraform(ctx, vals[name])
		if err != nil {
			return types.String{}, fmt.Errorf("%s: %w", name, err)
		}
		return a.(types.String), nil
	}
	date := func(name string) (timetypes.RFC3339, error) {
		a, err := timetypes.RFC3339Type{}.ValueFromTerraform(ctx, vals[name])
		if err != nil {
			return timetypes.RFC3339{}, fmt.Errorf("%s: %w", name, err)
		}
		return a.(timetypes.RFC3339), nil
	}
	var err error
	if m.ID, err = str("id"); err != nil {
		return m, err
	}
	if m.ListID, err = str("list_id"); err != nil {
		return m, err
	}
	if m.OriginalID, err = str("original_id"); err != nil {
		return m, err
	}
	props, err := types.MapType{ElemType: types.StringType}.ValueFromTerraform(ctx, vals["properties"])
	if err != nil {
		return m, fmt.Errorf("properties: %w", err)
	}
	m.Properties = props.(types.Map)
	if m.EmailStatus, err = str("email_status"); err != nil {
		return m, err
	}
	if m.MobileStatus, err = str("mobile_status"); err != nil {
		return m, err
	}
	if m.DateCreated, err = date("date_created"); err != nil {
		return m, err
	}
	if m.DateModified, err = date("date_modified"); err != nil {
		return m, err
	}
	allow, err := types.BoolType.ValueFromTerraform(ctx, vals["allow_resubscribe"])
	if err != nil {
		return m, fmt.Errorf("allow_resubscribe: %w", err)
	}
	m.AllowResubscribe = allow.(types.Bool)
	if m.ServiceEmailStatus, err = str("service_email_status"); err != nil {
		return m, err
	}
	if m.ServiceMobileStatus, err = str("service_mobile_status"); err != nil {
		return m, err
	}
	if m.OnDestroy, err = str("on_destroy"); err != nil {
		return m, err
	}
	if m.SuppressionListID, err = str("suppression_list_id"); err != nil {
		return m, err
	}
	return m, nil
}

// managedProperties reads back the keys of prior from server (keyed by
// attribute name), each under the key the user wrote: an id key takes the
// value of the attribute with that id. A key whose value the contact no
// longer has is left out, so the next plan sets it again; keys the user does
// not manage are ignored. A null prior stays null.
func managedProperties(ctx context.Context, attrs *contactsync.Attributes, server client.PropertyValues, prior types.Map) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	if prior.IsNull() || prior.IsUnknown() {
		return types.MapNull(types.StringType), diags
	}
	server, err := attrs.ByName(ctx, server)
	if err != nil {
		diags.AddError("Unable to read the account's contact attributes", describeAPIError(err))
		return prior, diags
	}
	out := make(map[string]attr.Value, len(prior.Elements()))
	for key := range prior.Elements() {
		name, ok, err := attrs.NameOf(ctx, key)
		if err != nil {
			diags.AddError("Unable to read the account's contact attributes", describeAPIError(err))
			return prior, diags
		}
		if !ok {
			continue
		}
		if v, has := server[name]; has {
			out[key] = types.StringValue(v)
		}
	}
	m, d := types.MapValue(types.StringType, out)
	diags.Append(d...)
	return m, diags
}
