package functions

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ function.Function = &contactsCSVFunction{}

// NewContactsCSV returns provider::rms::contacts_csv.
func NewContactsCSV() function.Function { return &contactsCSVFunction{} }

type contactsCSVFunction struct{}

// CSVContact is one contact as ContactsCSV writes it: the originalId, the
// properties by attribute name and the statuses the service shows ("" for
// none).
type CSVContact struct {
	OriginalID   string
	Properties   map[string]string
	EmailStatus  string
	MobileStatus string
}

// Column names of the file source_file of rms_list_contacts reads
// (contactsync.ParseSourceFile): the default identity column and the two
// status columns.
const (
	csvIdentityColumn     = "originalId"
	csvEmailStatusColumn  = "email_status"
	csvMobileStatusColumn = "mobile_status"
)

// WriteContactsCSV writes contacts as a source_file of rms_list_contacts:
// a header of originalId, every property any contact has (by attribute
// name, sorted), email_status and mobile_status; then one row per contact,
// sorted by originalId, with an empty cell where a contact has no value
// (which source_file reads as "must not have one") or no status (left to
// the service). The function and the rms_export_list_contacts_csv action
// both write through it, so the same contacts give the same bytes.
func WriteContactsCSV(w io.Writer, contacts []CSVContact) error {
	keys := map[string]bool{}
	for _, c := range contacts {
		for k := range c.Properties {
			keys[k] = true
		}
	}
	for _, reserved := range []string{csvIdentityColumn, csvEmailStatusColumn, csvMobileStatusColumn} {
		if keys[reserved] {
			return fmt.Errorf("a contact has a property named %q, which source_file reads as its own column: rename the attribute, or write the file with identity_column set", reserved)
		}
	}
	props := make([]string, 0, len(keys))
	for k := range keys {
		props = append(props, k)
	}
	sort.Strings(props)
	rows := make([]CSVContact, len(contacts))
	copy(rows, contacts)
	sort.Slice(rows, func(i, j int) bool { return rows[i].OriginalID < rows[j].OriginalID })

	cw := csv.NewWriter(w)
	header := append(append([]string{csvIdentityColumn}, props...), csvEmailStatusColumn, csvMobileStatusColumn)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("writing the header row: %w", err)
	}
	rec := make([]string, len(header))
	for i, c := range rows {
		if c.OriginalID == "" {
			return fmt.Errorf("contact %d has an empty originalId", i+1)
		}
		if i > 0 && rows[i-1].OriginalID == c.OriginalID {
			return fmt.Errorf("originalId %q appears twice; a list holds each contact once", c.OriginalID)
		}
		rec[0] = c.OriginalID
		for p, k := range props {
			rec[p+1] = c.Properties[k]
		}
		rec[len(rec)-2], rec[len(rec)-1] = c.EmailStatus, c.MobileStatus
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("writing contact %q: %w", c.OriginalID, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing the file: %w", err)
	}
	return nil
}

// ContactsCSV is WriteContactsCSV into a string.
func ContactsCSV(contacts []CSVContact) (string, error) {
	var b bytes.Buffer
	if err := WriteContactsCSV(&b, contacts); err != nil {
		return "", err
	}
	return b.String(), nil
}

// csvContactType is the element type the function takes: the fields of
// an element of the rms_contacts data source's contacts that the file
// holds (Terraform drops the others when it converts the argument).
var csvContactType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"original_id":   types.StringType,
	"properties":    types.MapType{ElemType: types.StringType},
	"email_status":  types.StringType,
	"mobile_status": types.StringType,
}}

// csvContactModel is one element of the argument.
type csvContactModel struct {
	OriginalID   types.String `tfsdk:"original_id"`
	Properties   types.Map    `tfsdk:"properties"`
	EmailStatus  types.String `tfsdk:"email_status"`
	MobileStatus types.String `tfsdk:"mobile_status"`
}

func (f *contactsCSVFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "contacts_csv"
}

func (f *contactsCSVFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The contacts of an rms_contacts data source as the CSV text rms_list_contacts reads from source_file.",
		MarkdownDescription: "Renders the `contacts` of the `rms_contacts` data source as a CSV file in the format of `rms_list_contacts.source_file`: " +
			"a header `originalId`, a column per property (by attribute name, sorted), `email_status`, `mobile_status`; one row per contact, sorted by originalId. " +
			"It is for adopting a list of more than 1,000 contacts on Terraform 1.11+: write the text to a file (`terraform output -raw`) and give it as `source_file`; on Terraform 1.14+ the `rms_export_list_contacts_csv` action writes the same bytes straight from the service. " +
			"The contacts pass through Terraform as a value (and the data source's state): fine for thousands, slow for hundreds of thousands.",
		Parameters: []function.Parameter{
			function.ListParameter{
				Name:                "contacts",
				ElementType:         csvContactType,
				MarkdownDescription: "The `contacts` attribute of an `rms_contacts` data source (or a list of objects with `original_id`, `properties`, `email_status` and `mobile_status`).",
			},
		},
		Return: function.StringReturn{},
	}
}

func (f *contactsCSVFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var in []csvContactModel
	if resp.Error = req.Arguments.Get(ctx, &in); resp.Error != nil {
		return
	}
	contacts := make([]CSVContact, 0, len(in))
	for i, m := range in {
		c := CSVContact{OriginalID: m.OriginalID.ValueString(), EmailStatus: m.EmailStatus.ValueString(), MobileStatus: m.MobileStatus.ValueString()}
		if !m.Properties.IsNull() {
			c.Properties = make(map[string]string, len(m.Properties.Elements()))
			for k, v := range m.Properties.Elements() {
				s, ok := v.(types.String)
				if !ok || s.IsNull() {
					continue
				}
				c.Properties[k] = s.ValueString()
			}
		}
		if m.OriginalID.IsNull() {
			setFunctionResult(ctx, resp, "", argErr(0, fmt.Sprintf("Contact %d has no original_id: give the contacts of an rms_contacts data source.", i+1)))
			return
		}
		contacts = append(contacts, c)
	}
	out, err := ContactsCSV(contacts)
	if err != nil {
		setFunctionResult(ctx, resp, "", argErr(0, "The contacts cannot be written as a source_file: "+err.Error()+"."))
		return
	}
	setFunctionResult(ctx, resp, out, nil)
}
