package provider

import "github.com/hashicorp/terraform-plugin-framework/types"

// genericResourceModel is the state of an rms_resource; its identity, its
// move from another resource type and its list resource fill it too.
type genericResourceModel struct {
	ID         types.String  `tfsdk:"id"`
	Collection types.String  `tfsdk:"collection"`
	Body       types.Dynamic `tfsdk:"body"`
	// SensitiveBody is write-only: it holds a value only in the
	// configuration, never in plan or state.
	SensitiveBody        types.Dynamic `tfsdk:"sensitive_body"`
	SensitiveBodyVersion types.String  `tfsdk:"sensitive_body_version"`
	Output               types.Dynamic `tfsdk:"output"`
}
