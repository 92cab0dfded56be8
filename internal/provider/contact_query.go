package provider

import (
	"context"
	"fmt"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// NewContactQuery returns the rms_contact list resource, which
// `terraform query` uses to find the contacts of a list.
func NewContactQuery() list.ListResource { return &contactQuery{} }

// contactQuery is the rms_contact list resource; benchmarks build it directly.
type contactQuery = configuredQuery[contactQueryConfig]

type contactQueryConfig struct {
	ListID       types.String `tfsdk:"list_id"`
	EmailStatus  types.String `tfsdk:"email_status"`
	MobileStatus types.String `tfsdk:"mobile_status"`
}

func (contactQueryConfig) describe() (string, schema.Schema) {
	statusFilter := func(what string) schema.StringAttribute {
		return schema.StringAttribute{
			Optional:    true,
			Description: "Only contacts whose " + what + " subscription status is this: `SUBSCRIBED` or `UNSUBSCRIBED`.",
			Validators:  []validator.String{stringvalidator.OneOf(subscriptionStates...)},
		}
	}
	return "_contact", schema.Schema{
		Description: "Finds the contacts of one list for `terraform query` (Terraform 1.14+), in the service's order (order of creation): each result is a contact's identity (`list_id`, `original_id`), its original id and e-mail address as display name and, with `include_resource` or `-generate-config-out`, the whole `rms_contact` with every property it holds, as an import reads it. " +
			"The list is read page by page while Terraform receives the results, so a list of any size is never held in memory; set `limit` in the `list` block (Terraform's default is 100) to the number of contacts you want.",
		Attributes: map[string]schema.Attribute{
			"list_id": schema.StringAttribute{
				Required:    true,
				Description: "Id of the list whose contacts to find.",
				Validators:  []validator.String{listIDValidator},
			},
			"email_status":  statusFilter("e-mail"),
			"mobile_status": statusFilter("mobile (SMS)"),
		},
	}
}

func (cfg contactQueryConfig) results(ctx context.Context, d *providerData, req list.ListRequest) iter.Seq[list.ListResult] {
	listID := cfg.ListID.ValueString()
	wantEmail, wantMobile := knownString(cfg.EmailStatus), knownString(cfg.MobileStatus)
	filtered := wantEmail != "" || wantMobile != ""
	run := func(ctx context.Context, e *resultEmitter) error {
		return d.client.Contacts.EachPage(ctx, listID, queryPageSize(req.Limit, filtered), func(page []client.Contact) error {
			for _, c := range page {
				if (wantEmail != "" && c.Status != wantEmail) || (wantMobile != "" && c.MobileStatus != wantMobile) {
					continue
				}
				named, err := d.contacts.Attributes.ByName(ctx, c.Properties)
				if err != nil {
					return err
				}
				c.Properties = named
				identity := map[string]string{"list_id": listID, "original_id": c.OriginalID}
				err = e.emit(contactDisplayName(c), identity, func() (any, diag.Diagnostics) {
					m, diags := importedContactModel(ctx, d.contacts.Attributes, listID, &c)
					if diags.HasError() {
						return nil, diags
					}
					v, err := m.terraformValue(ctx, e.resourceType)
					if err != nil {
						diags.AddError("Unable to convert the contact", fmt.Sprintf("%s: %s", contactImportID(listID, c.OriginalID), err))
						return nil, diags
					}
					return v, diags
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
	}
	return streamResults(ctx, req, fmt.Sprintf("Unable to list the contacts of list %s", listID), func(ctx context.Context, e *resultEmitter) error {
		err := run(ctx, e)
		if client.IsNotFound(err) {
			return fmt.Errorf("%w\n\nNo list has id %q in this account: check list_id", err, listID)
		}
		return err
	})
}

// terraformValue is the contact as a value of the rms_contact resource type
// typ. It does what tfsdk.Resource.Set does for a contactModel without the
// framework's reflection, which costs several times the rest of a listed
// contact; a test checks that both give the same value.
func (m contactModel) terraformValue(ctx context.Context, typ tftypes.Type) (tftypes.Value, error) {
	fields := map[string]attr.Value{
		"id": m.ID, "list_id": m.ListID, "original_id": m.OriginalID, "properties": m.Properties,
		"email_status": m.EmailStatus, "mobile_status": m.MobileStatus,
		"date_created": m.DateCreated, "date_modified": m.DateModified,
		"allow_resubscribe": m.AllowResubscribe, "service_email_status": m.ServiceEmailStatus, "service_mobile_status": m.ServiceMobileStatus,
		"on_destroy": m.OnDestroy, "suppression_list_id": m.SuppressionListID,
	}
	obj, ok := typ.(tftypes.Object)
	if !ok || len(obj.AttributeTypes) != len(fields) {
		return tftypes.Value{}, fmt.Errorf("the rms_contact schema does not have the %d attributes of contactModel", len(fields))
	}
	vals := make(map[string]tftypes.Value, len(fields))
	for name, v := range fields {
		if _, ok := obj.AttributeTypes[name]; !ok {
			return tftypes.Value{}, fmt.Errorf("the rms_contact schema has no attribute %q", name)
		}
		tv, err := v.ToTerraformValue(ctx)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("%s: %w", name, err)
		}
		vals[name] = tv
	}
	return tftypes.NewValue(typ, vals), nil
}

// contactDisplayName is "original id <e-mail>", or the original id alone
// for a contact without an address.
func contactDisplayName(c client.Contact) string {
	if email := c.Properties["email"]; email != "" {
		return c.OriginalID + " <" + email + ">"
	}
	return c.OriginalID
}
