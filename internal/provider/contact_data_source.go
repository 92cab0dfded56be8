package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

var (
	_ datasource.DataSource              = &contactDataSource{}
	_ datasource.DataSourceWithConfigure = &contactDataSource{}
)

// NewContactDataSource returns the rms_contact data source.
func NewContactDataSource() datasource.DataSource { return &contactDataSource{} }

type contactDataSource struct {
	data *providerData
}

type contactDataModel struct {
	ListID       types.String      `tfsdk:"list_id"`
	OriginalID   types.String      `tfsdk:"original_id"`
	Exists       types.Bool        `tfsdk:"exists"`
	Properties   types.Map         `tfsdk:"properties"`
	EmailStatus  types.String      `tfsdk:"email_status"`
	MobileStatus types.String      `tfsdk:"mobile_status"`
	DateCreated  timetypes.RFC3339 `tfsdk:"date_created"`
	DateModified timetypes.RFC3339 `tfsdk:"date_modified"`
}

func (d *contactDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_contact"
}

func (d *contactDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Checks whether a recipient exists in a list and reads it. A contact that does not exist is not an error: `exists` is false and the other attributes are null. A list that does not exist is an error.",
		Attributes: map[string]schema.Attribute{
			"list_id": schema.StringAttribute{
				Required: true, Description: "Id of the list.",
				Validators: []validator.String{listIDValidator},
			},
			"original_id": schema.StringAttribute{
				Required: true, Description: "The contact's original id in the list.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"exists":        schema.BoolAttribute{Computed: true, Description: "Whether the list has a contact with this original id."},
			"properties":    schema.MapAttribute{Computed: true, ElementType: types.StringType, Description: "Every attribute value of the contact, keyed by attribute name."},
			"email_status":  schema.StringAttribute{Computed: true, Description: "`SUBSCRIBED` or `UNSUBSCRIBED` for e-mail."},
			"mobile_status": schema.StringAttribute{Computed: true, Description: "`SUBSCRIBED` or `UNSUBSCRIBED` for mobile."},
			"date_created":  schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{}, Description: "When the contact was created (RFC 3339)."},
			"date_modified": schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{}, Description: "When the contact was last changed (RFC 3339)."},
		},
	}
}

func (d *contactDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *contactDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg contactDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	listID, originalID := cfg.ListID.ValueString(), cfg.OriginalID.ValueString()
	m := contactDataModel{
		ListID: cfg.ListID, OriginalID: cfg.OriginalID, Exists: types.BoolValue(false),
		Properties:   types.MapNull(types.StringType),
		EmailStatus:  types.StringNull(),
		MobileStatus: types.StringNull(),
		DateCreated:  timetypes.NewRFC3339Null(),
		DateModified: timetypes.NewRFC3339Null(),
	}
	c, err := d.data.client.Contacts.Lookup(ctx, listID, originalID)
	switch {
	case errors.Is(err, client.ErrNotFound):
		// Absent contact, or absent list? Only the first is an answer.
		if _, lerr := d.data.client.Lists.Get(ctx, listID); errors.Is(lerr, client.ErrNotFound) {
			resp.Diagnostics.AddAttributeError(path.Root("list_id"), "List not found",
				fmt.Sprintf("No list has id %q in this account, so it cannot be searched for contact %q. Check list_id.", listID, originalID))
			return
		} else if lerr != nil {
			addAPIError(&resp.Diagnostics, "Unable to read list", lerr, nil)
			return
		}
	case err != nil:
		addAPIError(&resp.Diagnostics, "Unable to read contact", err, nil)
		return
	default:
		named, err := d.data.contacts.Attributes.ByName(ctx, c.Properties)
		if err != nil {
			addAPIError(&resp.Diagnostics, "Unable to read the account's contact attributes", err, nil)
			return
		}
		props, diags := types.MapValueFrom(ctx, types.StringType, nonNilMap(named))
		resp.Diagnostics.Append(diags...)
		m.Exists = types.BoolValue(true)
		m.Properties = props
		// A service that does not show statuses leaves them null.
		m.EmailStatus = nullIfEmpty(c.Status)
		m.MobileStatus = nullIfEmpty(c.MobileStatus)
		m.DateCreated = rfc3339(c.DateCreated)
		m.DateModified = rfc3339(c.DateModified)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func nonNilMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
