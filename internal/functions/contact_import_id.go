package functions

import (
	"context"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

var _ function.Function = &contactImportIDFunction{}

// NewContactImportID returns provider::rms::contact_import_id.
func NewContactImportID() function.Function { return &contactImportIDFunction{} }

type contactImportIDFunction struct{}

func (f *contactImportIDFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "contact_import_id"
}

func (f *contactImportIDFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The import id of a contact: its list's id and its originalId joined by a slash.",
		MarkdownDescription: "Builds the string id that imports an `rms_contact`: `\"<list_id>/<original_id>\"`, e.g. " +
			"`contact_import_id(\"12\", \"ada@example.com\")` is `\"12/ada@example.com\"`. Handy in `import` blocks with " +
			"`for_each` over contacts that already exist. The list id is checked to be numeric and the originalId to be " +
			"non-empty; the originalId may itself contain slashes, since only the first slash separates the two.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "list_id",
				MarkdownDescription: "Numeric id of the list that holds the contact (a number is accepted too).",
			},
			function.StringParameter{
				Name:                "original_id",
				MarkdownDescription: "The contact's `originalId`, its key inside the list.",
			},
		},
		Return: function.StringReturn{},
	}
}

func (f *contactImportIDFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var listID, originalID string
	if resp.Error = req.Arguments.Get(ctx, &listID, &originalID); resp.Error != nil {
		return
	}
	id, err := checkedContactImportID(listID, originalID)
	setFunctionResult(ctx, resp, id, err)
}

// checkedContactImportID checks the two parts of a contact's import id and
// joins them with a slash. It must build what rms_contact's import splits
// (contactImportID and splitContactImportID in internal/provider); a test
// there runs this function and splits its result.
func checkedContactImportID(listID, originalID string) (string, *argumentError) {
	if !isListID(listID) {
		return "", argErr(0, "The list id "+strconv.Quote(listID)+" is not a numeric list id, e.g. \"12\".")
	}
	if originalID == "" {
		return "", argErr(1, "The originalId is empty: give the key of the contact inside the list, e.g. its e-mail address.")
	}
	return listID + "/" + originalID, nil
}

// isListID reports whether s is a server-assigned list id: decimal digits,
// without spaces (the rule of isEntityID in internal/provider).
func isListID(s string) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}
