package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/functions"
)

var (
	_ action.Action              = &exportListContactsCSVAction{}
	_ action.ActionWithConfigure = &exportListContactsCSVAction{}
)

// NewExportListContactsCSVAction returns rms_export_list_contacts_csv: it
// lists a list's contacts and writes them as a source_file of
// rms_list_contacts, the way to adopt a list too large for the map an
// import writes.
func NewExportListContactsCSVAction() action.Action { return &exportListContactsCSVAction{} }

type exportListContactsCSVAction struct {
	data *providerData
}

type exportListContactsCSVModel struct {
	ListID     types.String `tfsdk:"list_id"`
	OutputPath types.String `tfsdk:"output_path"`
}

const exportListContactsCSVActionType = "rms_export_list_contacts_csv"

func (a *exportListContactsCSVAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_export_list_contacts_csv"
}

func (a *exportListContactsCSVAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Writes a list's contacts to a local CSV file in the format of `rms_list_contacts.source_file` each time it is invoked (`terraform apply -invoke=action.rms_export_list_contacts_csv.<name>`), to adopt a list of more than 1,000 contacts, whose import gets no map: give the file as `source_file`, and the plan after the import has no changes. " +
			"It writes the same bytes as the `provider::rms::contacts_csv` function (Terraform 1.11+) renders from the `rms_contacts` data source. Requires Terraform 1.14 or later.",
		Attributes: map[string]schema.Attribute{
			"list_id": schema.StringAttribute{
				Required:    true,
				Description: "Id of the list whose contacts to write.",
				Validators:  []validator.String{listIDValidator},
			},
			"output_path": schema.StringAttribute{
				Required:    true,
				Description: "Local path of the CSV file (missing directories are created; the file is readable by its owner only; an existing file is replaced only once the whole file is written).",
				Validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

func (a *exportListContactsCSVAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (a *exportListContactsCSVAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	diags := &resp.Diagnostics
	defer func() { resp.Diagnostics = nameAction(exportListContactsCSVActionType, resp.Diagnostics) }()
	var cfg exportListContactsCSVModel
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() || !requireClient(a.data, diags) {
		return
	}
	listID, out := cfg.ListID.ValueString(), cfg.OutputPath.ValueString()
	var contacts []functions.CSVContact
	err := a.data.client.Contacts.EachPage(ctx, listID, 0, func(page []client.Contact) error {
		for _, c := range page {
			named, err := a.data.contacts.Attributes.ByName(ctx, c.Properties)
			if err != nil {
				return err
			}
			contacts = append(contacts, functions.CSVContact{OriginalID: c.OriginalID, Properties: named, EmailStatus: c.Status, MobileStatus: c.MobileStatus})
		}
		return nil
	})
	if err != nil {
		addAPIError(diags, "Unable to list the contacts of list "+listID, err, map[string]path.Path{"list_id": path.Root("list_id")})
		return
	}
	if err := writeContactsCSVFile(out, contacts); err != nil {
		diags.AddAttributeError(path.Root("output_path"), "Unable to write the contacts file",
			fmt.Sprintf("Writing the %d contacts of list %s to %s: %s. Fix the path (or the attribute named) and invoke the action again; nothing was written to the list.", len(contacts), listID, out, err))
		return
	}
	sendProgress(resp, fmt.Sprintf("%s: wrote the %d contacts of list %s to %s; give it as source_file of the list's rms_list_contacts", exportListContactsCSVActionType, len(contacts), listID, out))
}

// writeContactsCSVFile writes the file into a temporary file beside path
// first and renames it over path once whole, so a failure never leaves a
// partial file under the name source_file reads. It is readable by its
// owner only, since it holds the list's contacts.
func writeContactsCSVFile(path string, contacts []functions.CSVContact) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".rms-contacts-*.csv")
	if err != nil {
		return fmt.Errorf("creating a temporary file beside it: %w", err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // no-op after a successful rename
	err = functions.WriteContactsCSV(tmp, contacts)
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("closing %s: %w", tmp.Name(), cerr)
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("moving the file into place: %w", err)
	}
	return nil
}
