package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

var (
	_ resource.Resource                = &genericResource{}
	_ resource.ResourceWithConfigure   = &genericResource{}
	_ resource.ResourceWithImportState = &genericResource{}
	_ resource.ResourceWithIdentity    = &genericResource{}
)

// NewGenericResource returns the rms_resource resource: any entity of a
// domain that follows the generic resource pattern, its body an HCL object.
func NewGenericResource() resource.Resource { return &genericResource{} }

type genericResource struct {
	data *providerData
}

type genericResourceModel struct {
	ID         types.String  `tfsdk:"id"`
	Collection types.String  `tfsdk:"collection"`
	Body       types.Dynamic `tfsdk:"body"`
	Output     types.Dynamic `tfsdk:"output"`
}

func (r *genericResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_resource"
}

func (r *genericResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Any entity of a domain of the service that follows the generic resource pattern (campaigns, filters, forms, placeholders, properties, scheduled, triggers, auto, ...), whose fields the interface does not show. " +
			"The entity is written as an HCL object in `body`; plans show a change per key, and only the keys written in `body` are compared with what the service holds, so fields the service adds never cause a diff. " +
			"The whole entity, server-added fields included, is in `output`.",
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
			"output": schema.DynamicAttribute{
				Computed:    true,
				Description: "The whole entity as the service holds it, including `id`, `dateCreated`, `dateModified` and fields the service added; navigate it directly, e.g. `rms_resource.campaign.output.status`.",
			},
		},
	}
}

// IdentitySchema: an entity is identified by its collection and its id
// there (Terraform 1.12+).
func (r *genericResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = genericIdentitySchema()
}

func (r *genericResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *genericResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan genericResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	collection := plan.Collection.ValueString()
	body, err := dynamicObjectToJSON(plan.Body)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("body"), "Invalid body", err.Error())
		return
	}
	e, err := r.data.client.CreateEntityOnce(ctx, collection, body)
	if err != nil {
		if id, made := client.MadeID(err); made {
			plan.ID, plan.Output = types.StringValue(id), types.DynamicNull()
			saveMade(ctx, &resp.State, resp.Identity, plan, genericIdentity(plan), &resp.Diagnostics)
		}
		addEntityError(&resp.Diagnostics, "Unable to create entity in "+collection, collection, err)
		return
	}
	id := client.EntityID(e)
	if id == "" {
		resp.Diagnostics.AddError("Entity created without an id",
			fmt.Sprintf("The service created an entity in %s but its answer holds no id, so Terraform cannot manage it. Check the collection; the entity may need removing by hand.", collection))
		return
	}
	tflog.Info(ctx, "created entity", map[string]any{"collection": collection, "id": id})
	plan.ID = types.StringValue(id)
	resp.Diagnostics.Append(setOutput(&plan, e)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	setIdentity(ctx, resp.Identity, genericIdentity(plan), &resp.Diagnostics)
}

func (r *genericResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state genericResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	collection, id := state.Collection.ValueString(), state.ID.ValueString()
	e, err := r.data.client.GetEntity(ctx, collection, id)
	if errors.Is(err, client.ErrNotFound) {
		tflog.Info(ctx, "entity is gone; removing it from state", map[string]any{"collection": collection, "id": id})
		removeGone(ctx, resp, genericIdentity(state))
		return
	}
	if err != nil {
		addEntityError(&resp.Diagnostics, "Unable to read "+collection+"/"+id, collection, err)
		return
	}
	remote := withoutReserved(e)
	var bodyJSON any = remote
	if !state.Body.IsNull() && !state.Body.IsUnderlyingValueNull() {
		// Compare only the keys the configuration wrote: server-added keys
		// stay out of body (and so out of every plan).
		prior, err := valueToJSON(state.Body)
		if err != nil {
			resp.Diagnostics.AddError("Unable to read the body in state", err.Error())
			return
		}
		bodyJSON = projectJSON(remote, prior)
	}
	body, err := dynamicFromJSON(bodyJSON, state.Body)
	if err != nil {
		resp.Diagnostics.AddError("Unable to convert the entity", fmt.Sprintf("%s/%s: %s", collection, id, err))
		return
	}
	state.Body = body
	resp.Diagnostics.Append(setOutput(&state, e)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	setIdentity(ctx, resp.Identity, genericIdentity(state), &resp.Diagnostics)
}

func (r *genericResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state genericResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	collection, id := state.Collection.ValueString(), state.ID.ValueString()
	planned, err := dynamicObjectToJSON(plan.Body)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("body"), "Invalid body", err.Error())
		return
	}
	prior, err := dynamicObjectToJSON(state.Body)
	if err != nil {
		resp.Diagnostics.AddError("Unable to read the body in state", err.Error())
		return
	}
	// The interface: "in general all fields as returned by a GET should be
	// sent". Read the entity now and lay the configuration over it.
	current, err := r.data.client.GetEntity(ctx, collection, id)
	if err != nil {
		addEntityError(&resp.Diagnostics, "Unable to read "+collection+"/"+id+" before updating it", collection, err)
		return
	}
	e, err := r.data.client.UpdateEntity(ctx, collection, id, mergeBody(withoutReserved(current), planned, prior))
	if err != nil {
		addEntityError(&resp.Diagnostics, "Unable to update "+collection+"/"+id, collection, err)
		return
	}
	plan.ID = state.ID
	resp.Diagnostics.Append(setOutput(&plan, e)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	setIdentity(ctx, resp.Identity, genericIdentity(plan), &resp.Diagnostics)
}

func (r *genericResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state genericResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	collection := state.Collection.ValueString()
	if err := r.data.client.DeleteEntity(ctx, collection, state.ID.ValueString()); err != nil {
		addEntityError(&resp.Diagnostics, "Unable to delete "+collection+"/"+state.ID.ValueString(), collection, err)
	}
}

// ImportState takes "collection/id" (the last segment is the id, so a
// nested entity imports as "campaigns/12/notes/5"), or
// `identity = { collection = "campaigns", id = "42" }` in an import block.
// body stays null, so that the following Read takes the whole entity.
func (r *genericResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	collection, id, ok := genericImportTarget(ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("collection"), collection)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("body"), types.DynamicNull())...)
	setIdentity(ctx, resp.Identity, genericIdentityModel{Collection: types.StringValue(collection), ID: types.StringValue(id)}, &resp.Diagnostics)
}

// setOutput stores the whole entity in m.Output.
func setOutput(m *genericResourceModel, e client.Entity) diag.Diagnostics {
	var diags diag.Diagnostics
	out, err := dynamicFromJSON(e, types.DynamicNull())
	if err != nil {
		diags.AddError("Unable to convert the entity", err.Error())
		return diags
	}
	m.Output = out
	return diags
}

// withoutReserved is a copy of e without the keys the server sets.
func withoutReserved(e client.Entity) client.Entity {
	out := make(client.Entity, len(e))
	for k, v := range e {
		out[k] = v
	}
	for _, k := range reservedBodyKeys {
		delete(out, k)
	}
	return out
}

// addEntityError reports a client error of a generic entity; a 410 names
// the collection and gives the service's reason.
func addEntityError(diags *diag.Diagnostics, summary, collection string, err error) {
	if apiErr, ok := client.AsAPIError(err); ok && errors.Is(err, client.ErrGone) {
		diags.AddError("Collection retired by the service",
			fmt.Sprintf("The service has retired %q and answers 410 Gone: %s\n\nIt cannot be managed through this path any more. If the entity should be forgotten, remove it from the configuration and from state (terraform state rm).", collection, apiErr.Reason()))
		return
	}
	addAPIError(diags, summary, err, nil)
}
