package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-validators/dynamicvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/dynamic"
)

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

// genericResourceSchema is rms_resource's schema, which the model decodes
// from; a move from rms_resource reads its source state with it too.
func genericResourceSchema() schema.Schema {
	return schema.Schema{
		Description: "Any entity of a domain of the service that follows the generic resource pattern (campaigns, filters, forms, placeholders, properties, scheduled, triggers, auto, ...), whose fields the interface does not show. " +
			"The entity is written as an HCL object in `body`, compared per key and only on the keys written, and read whole into `output`. " +
			"Secret fields go in the write-only `sensitive_body` (Terraform 1.11+ or OpenTofu 1.11+), never stored in plan or state.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("entity"),
			"collection": schema.StringAttribute{
				Required: true,
				Description: "Path of the collection after `/{customerid}/`: a public domain such as `campaigns`, `filters`, `forms`, `placeholders`, `properties`, `scheduled`, `triggers` or `auto`, " +
					"or a nested collection under an existing entity, `parent/{id}/name` (e.g. `campaigns/12/notes`). Internal-only domains are refused. Changing it replaces the entity.",
				Validators:    []validator.String{collectionValidator{}},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"body": schema.DynamicAttribute{
				Required: true,
				Description: "The entity as an HCL object, e.g. `{ name = \"Spring sale\", rule = { field = \"status\" } }`; numbers, booleans, nested objects and lists keep their JSON types on the wire. " +
					"Not a JSON string: pass the object itself rather than `jsonencode(...)`. `id`, `dateCreated` and `dateModified` are set by the service and refused. " +
					"Drift is reported on these keys only (recursively). Removing a key removes it from the entity. Updates send the whole entity as last read with this object laid over it, as the interface recommends.",
				Validators: []validator.Dynamic{bodyValidator{}},
			},
			"sensitive_body": schema.DynamicAttribute{
				Optional:  true,
				Sensitive: true,
				WriteOnly: true,
				Description: "Secret fields of the entity as an HCL object, e.g. `{ apiKey = var.api_key }`: write-only (Terraform 1.11 and later, OpenTofu 1.11 and later), so never stored in plan or state. " +
					"Its top-level keys are laid over `body` on create and on every update, and may not also appear in `body`. " +
					"Changing only `sensitive_body` plans nothing: change `sensitive_body_version` to send it. Keys the service echoes are left out of `output` and of drift detection. " +
					"Required with `sensitive_body_version`. See Secrets: `sensitive_body` on this page.",
				Validators: []validator.Dynamic{
					bodyValidator{},
					dynamicvalidator.AlsoRequires(path.MatchRoot("sensitive_body_version")),
				},
			},
			"sensitive_body_version": schema.StringAttribute{
				Optional: true,
				Description: "Version of `sensitive_body`, a number or a string (kept as a string, so `2` and `\"2\"` are the same version): any change sends the configured `sensitive_body` on the next apply. Required with `sensitive_body`. " +
					"After `terraform import` the version is unset, so the first apply with `sensitive_body` sends it without a version change.",
				Validators: nonEmptyAnd(stringvalidator.AlsoRequires(path.MatchRoot("sensitive_body"))),
			},
			"output": schema.DynamicAttribute{
				Computed: true,
				Description: "The whole entity as the service holds it, including `id`, `dateCreated`, `dateModified` and fields the service added; navigate it directly, e.g. `rms_resource.campaign.output.status`. " +
					"Keys of `sensitive_body` are left out, even when the service echoes them (except after an import, until the first apply with `sensitive_body`).",
			},
		},
	}
}

// sensitiveKeys are the names of the sensitive_body keys last sent, from
// private state (none after an import).
func sensitiveKeys(ctx context.Context, p privateGetter) ([]string, diag.Diagnostics) {
	raw, diags := p.GetKey(ctx, sensitiveKeysPrivate)
	if diags.HasError() || len(raw) == 0 {
		return nil, diags
	}
	var keys []string
	if err := json.Unmarshal(raw, &keys); err != nil {
		diags.AddError("Unable to read the private state of rms_resource", "The names of the sensitive_body keys kept in private state are not a JSON list of strings: "+err.Error()+". Apply again to record them anew.")
	}
	return keys, diags
}

// withoutReserved is a copy of e without the keys the server sets.
func withoutReserved(e client.Entity) client.Entity {
	return withoutKeys(e, reservedBodyKeys)
}

// sensitiveKeysPrivate is the private-state key under which the names (never
// the values) of the sensitive_body keys last sent are kept: Read never sees
// write-only values, and needs the names to leave them out of output, also
// in a later run of the provider.
const sensitiveKeysPrivate = "sensitive_body_keys"

// setOutput stores the whole entity in m.Output, without the keys of
// sensitive_body: a service that echoes a secret must not put it in state.
func setOutput(m *genericResourceModel, e client.Entity, secretKeys []string) diag.Diagnostics {
	var diags diag.Diagnostics
	out, err := dynamic.FromJSON(withoutKeys(e, secretKeys), types.DynamicNull())
	if err != nil {
		diags.AddError("Unable to convert the entity", err.Error())
		return diags
	}
	m.Output = out
	return diags
}

// withoutKeys is a copy of e without keys.
func withoutKeys(e client.Entity, keys []string) client.Entity {
	out := make(client.Entity, len(e))
	for k, v := range e {
		out[k] = v
	}
	for _, k := range keys {
		delete(out, k)
	}
	return out
}
