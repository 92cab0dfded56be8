package provider

import (
	"context"
	"fmt"
	"strings"

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
	_ datasource.DataSource              = &contactsDataSource{}
	_ datasource.DataSourceWithConfigure = &contactsDataSource{}
)

// NewContactsDataSource returns the rms_contacts data source.
func NewContactsDataSource() datasource.DataSource { return &contactsDataSource{} }

type contactsDataSource struct {
	data *providerData
}

const defaultDuplicateKey = "email"

type contactsDataModel struct {
	ListID          types.String              `tfsdk:"list_id"`
	DuplicateKey    types.String              `tfsdk:"duplicate_key"`
	IncludeContacts types.Bool                `tfsdk:"include_contacts"`
	Count           types.Int64               `tfsdk:"contact_count"`
	Contacts        []contactsDataItemModel   `tfsdk:"contacts"`
	Duplicates      map[string][]types.String `tfsdk:"duplicates"`
}

type contactsDataItemModel struct {
	OriginalID   types.String      `tfsdk:"original_id"`
	DateCreated  timetypes.RFC3339 `tfsdk:"date_created"`
	DateModified timetypes.RFC3339 `tfsdk:"date_modified"`
	Properties   types.Map         `tfsdk:"properties"`
	EmailStatus  types.String      `tfsdk:"email_status"`
	MobileStatus types.String      `tfsdk:"mobile_status"`
}

func (d *contactsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_contacts"
}

func (d *contactsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Reads all contacts of a list, paging through it completely, and answers whether a recipient appears more than once: `duplicates` groups the original ids of contacts that share a value of one attribute (by default `email`).",
		Attributes: map[string]schema.Attribute{
			"list_id": schema.StringAttribute{
				Required: true, Description: "Id of the list.",
				Validators: []validator.String{listIDValidator},
			},
			"duplicate_key": schema.StringAttribute{
				Optional: true, Computed: true,
				Description: "The contact attribute (name, or id written as a string) whose values are compared to find duplicates. Defaults to `email`.",
				Validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"include_contacts": schema.BoolAttribute{
				Optional: true, Computed: true,
				Description: "Whether to return the contacts themselves in `contacts`. Defaults to `true`; set `false` for a large list when only `contact_count` and `duplicates` are wanted, so that the contacts are not written to state.",
			},
			"contact_count": schema.Int64Attribute{Computed: true, Description: "Number of contacts in the list."},
			"contacts": schema.ListNestedAttribute{
				Computed:    true,
				Description: "The contacts, in the service's order (order of creation); null when `include_contacts` is false.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"original_id":   schema.StringAttribute{Computed: true, Description: "The contact's original id."},
					"properties":    schema.MapAttribute{Computed: true, ElementType: types.StringType, Description: "Attribute values keyed by attribute name."},
					"email_status":  schema.StringAttribute{Computed: true, Description: "`SUBSCRIBED` or `UNSUBSCRIBED` for e-mail."},
					"mobile_status": schema.StringAttribute{Computed: true, Description: "`SUBSCRIBED` or `UNSUBSCRIBED` for mobile."},
					"date_created":  schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{}, Description: "When the contact was created (RFC 3339)."},
					"date_modified": schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{}, Description: "When the contact was last changed (RFC 3339)."},
				}},
			},
			"duplicates": schema.MapAttribute{
				Computed:    true,
				ElementType: types.ListType{ElemType: types.StringType},
				Description: "For each value of `duplicate_key` held by more than one contact, the original ids of those contacts, in list order. Values are compared with surrounding spaces removed and case ignored (`Ada@Example.com` and `ada@example.com` are the same address), and the map key is that normalised value. Contacts without a value are not compared. Empty when the list has no duplicates.",
			},
		},
	}
}

func (d *contactsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *contactsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg contactsDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	listID := cfg.ListID.ValueString()
	key := defaultDuplicateKey
	if !cfg.DuplicateKey.IsNull() {
		key = cfg.DuplicateKey.ValueString()
	}
	include := cfg.IncludeContacts.IsNull() || cfg.IncludeContacts.ValueBool()
	name, ok, err := d.data.contacts.Attributes.NameOf(ctx, key)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read the account's contact attributes", err, nil)
		return
	}
	if !ok {
		resp.Diagnostics.AddAttributeError(path.Root("duplicate_key"), "Unknown contact attribute",
			fmt.Sprintf("The account has no contact attribute with id %s. Give the name or the id of one of its attributes, e.g. %q.", key, defaultDuplicateKey))
		return
	}

	m := contactsDataModel{
		ListID: cfg.ListID, DuplicateKey: types.StringValue(key), IncludeContacts: types.BoolValue(include),
		Duplicates: map[string][]types.String{},
	}
	if include {
		m.Contacts = []contactsDataItemModel{}
	}
	groups := map[string][]types.String{}
	var count int64
	err = d.data.client.Contacts.EachPage(ctx, listID, 0, func(page []client.Contact) error {
		for _, c := range page {
			count++
			named, err := d.data.contacts.Attributes.ByName(ctx, c.Properties)
			if err != nil {
				return err
			}
			c.Properties = named
			if v := strings.ToLower(strings.TrimSpace(c.Properties[name])); v != "" {
				groups[v] = append(groups[v], types.StringValue(c.OriginalID))
			}
			if !include {
				continue
			}
			props, diags := types.MapValueFrom(ctx, types.StringType, nonNilMap(c.Properties))
			resp.Diagnostics.Append(diags...)
			m.Contacts = append(m.Contacts, contactsDataItemModel{
				OriginalID: types.StringValue(c.OriginalID), Properties: props,
				EmailStatus: nullIfEmpty(c.Status), MobileStatus: nullIfEmpty(c.MobileStatus),
				DateCreated: rfc3339(c.DateCreated), DateModified: rfc3339(c.DateModified),
			})
		}
		return nil
	})
	if client.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("list_id"), "List not found",
			fmt.Sprintf("No list has id %q in this account. Check list_id.", listID))
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read the contacts of the list", err, nil)
		return
	}
	for v, ids := range groups {
		if len(ids) > 1 {
			m.Duplicates[v] = ids
		}
	}
	m.Count = types.Int64Value(count)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
