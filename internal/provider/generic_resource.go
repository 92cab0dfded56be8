package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/dynamic"
)

var (
	_ resource.Resource                   = &genericResource{}
	_ resource.ResourceWithConfigure      = &genericResource{}
	_ resource.ResourceWithImportState    = &genericResource{}
	_ resource.ResourceWithIdentity       = &genericResource{}
	_ resource.ResourceWithValidateConfig = &genericResource{}
)

// NewGenericResource returns the rms_resource resource: any entity of a
// domain that follows the generic resource pattern, its body an HCL object.
func NewGenericResource() resource.Resource { return &genericResource{} }

type genericResource struct {
	data *providerData
}

func (r *genericResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_resource"
}

func (r *genericResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = genericResourceSchema()
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
	secrets := configSensitiveBody(ctx, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	plan.SensitiveBody = types.DynamicNull()
	collection := plan.Collection.ValueString()
	body, err := dynamic.ObjectToJSON(plan.Body)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("body"), "Invalid body", err.Error())
		return
	}
	secretKeys := slices.Sorted(maps.Keys(secrets))
	// The read-back after an interrupted create matches the plain keys only:
	// the service may keep the secrets without echoing them.
	e, err := r.data.client.Entities.CreateOnce(ctx, collection, withSecrets(body, secrets), secretKeys...)
	if err != nil {
		if id, made := client.MadeID(err); made {
			plan.ID, plan.Output = types.StringValue(id), types.DynamicNull()
			resp.Diagnostics.Append(setSensitiveKeys(ctx, resp.Private, secretKeys)...)
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
	tflog.Info(ctx, "created entity", map[string]any{"collection": collection, "id": id, "sensitive_keys": len(secretKeys)})
	plan.ID = types.StringValue(id)
	saveEntity(ctx, resp.Private, &resp.State, resp.Identity, plan, e, secretKeys, &resp.Diagnostics)
}

func (r *genericResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := readModel[genericResourceModel](ctx, req.State, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	collection, id := state.Collection.ValueString(), state.ID.ValueString()
	e, err := r.data.client.Entities.Get(ctx, collection, id)
	if errors.Is(err, client.ErrNotFound) {
		tflog.Info(ctx, "entity is gone; removing it from state", map[string]any{"collection": collection, "id": id})
		removeGone(ctx, resp, genericIdentity(state))
		return
	}
	if err != nil {
		addEntityError(&resp.Diagnostics, "Unable to read "+collection+"/"+id, collection, err)
		return
	}
	secretKeys, diags := sensitiveKeys(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	remote := withoutKeys(withoutReserved(e), secretKeys)
	var bodyJSON any = remote
	if !state.Body.IsNull() && !state.Body.IsUnderlyingValueNull() {
		// Compare only the keys the configuration wrote: server-added keys
		// stay out of body (and so out of every plan).
		prior, err := dynamic.ValueToJSON(state.Body)
		if err != nil {
			resp.Diagnostics.AddError("Unable to read the body in state", err.Error())
			return
		}
		bodyJSON = dynamic.ProjectJSON(remote, prior)
	}
	body, err := dynamic.FromJSON(bodyJSON, state.Body)
	if err != nil {
		resp.Diagnostics.AddError("Unable to convert the entity", fmt.Sprintf("%s/%s: %s", collection, id, err))
		return
	}
	state.Body = body
	resp.Diagnostics.Append(setOutput(&state, e, secretKeys)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	setIdentity(ctx, resp.Identity, genericIdentity(state), &resp.Diagnostics)
}

func (r *genericResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state genericResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	secrets := configSensitiveBody(ctx, req.Config, &resp.Diagnostics)
	priorSecretKeys, diags := sensitiveKeys(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	plan.SensitiveBody = types.DynamicNull()
	collection, id := state.Collection.ValueString(), state.ID.ValueString()
	planned, err := dynamic.ObjectToJSON(plan.Body)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("body"), "Invalid body", err.Error())
		return
	}
	prior, err := dynamic.ObjectToJSON(state.Body)
	if err != nil {
		resp.Diagnostics.AddError("Unable to read the body in state", err.Error())
		return
	}
	// The interface: "in general all fields as returned by a GET should be
	// sent". Read the entity now and lay the configuration over it.
	current, err := r.data.client.Entities.Get(ctx, collection, id)
	if err != nil {
		addEntityError(&resp.Diagnostics, "Unable to read "+collection+"/"+id+" before updating it", collection, err)
		return
	}
	put := dynamic.MergeBody(withoutReserved(current), planned, prior)
	// Every update sends the configured secrets: the configuration holds
	// them, and a service that replaces rather than merges on PUT would
	// otherwise lose keys it never echoes. A key dropped from sensitive_body
	// (and not moved to body) is removed, as a key dropped from body is.
	for _, k := range priorSecretKeys {
		_, inBody := planned[k]
		_, stillSecret := secrets[k]
		if !inBody && !stillSecret {
			put[k] = nil
		}
	}
	put = withSecrets(put, secrets)
	e, err := r.data.client.Entities.Update(ctx, collection, id, put)
	if err != nil {
		addEntityError(&resp.Diagnostics, "Unable to update "+collection+"/"+id, collection, err)
		return
	}
	plan.ID = state.ID
	secretKeys := slices.Sorted(maps.Keys(secrets))
	saveEntity(ctx, resp.Private, &resp.State, resp.Identity, plan, e, secretKeys, &resp.Diagnostics)
}

func (r *genericResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := readModel[genericResourceModel](ctx, req.State, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	collection := state.Collection.ValueString()
	if err := r.data.client.Entities.Delete(ctx, collection, state.ID.ValueString()); err != nil {
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

// saveEntity records an entity the service answered with after a create or
// an update: which keys are secret, its output, the state and the identity.
func saveEntity(ctx context.Context, p privateSetter, state *tfsdk.State, identity *tfsdk.ResourceIdentity, plan genericResourceModel, e client.Entity, secretKeys []string, diags *diag.Diagnostics) {
	diags.Append(setSensitiveKeys(ctx, p, secretKeys)...)
	diags.Append(setOutput(&plan, e, secretKeys)...)
	diags.Append(state.Set(ctx, plan)...)
	setIdentity(ctx, identity, genericIdentity(plan), diags)
}

// withSecrets is body with the top-level keys of secrets laid over it.
func withSecrets(body, secrets map[string]any) client.Entity {
	out := make(client.Entity, len(body)+len(secrets))
	for k, v := range body {
		out[k] = v
	}
	for k, v := range secrets {
		out[k] = v
	}
	return out
}

// configSensitiveBody reads sensitive_body as a JSON object (nil when not
// set). It is write-only, so it holds a value only in the configuration of
// the current operation, never in plan or state. Errors name the problem,
// never the value.
func configSensitiveBody(ctx context.Context, cfg tfsdk.Config, diags *diag.Diagnostics) map[string]any {
	var v types.Dynamic
	diags.Append(cfg.GetAttribute(ctx, path.Root("sensitive_body"), &v)...)
	if v.IsNull() || v.IsUnderlyingValueNull() {
		return nil
	}
	obj, err := dynamic.ObjectToJSON(v)
	if err != nil {
		diags.AddAttributeError(path.Root("sensitive_body"), "Invalid sensitive_body", err.Error())
		return nil
	}
	return obj
}

// setSensitiveKeys records the names of the sensitive_body keys sent (the
// names only; values never leave the configuration). No keys remove the
// record.
func setSensitiveKeys(ctx context.Context, p privateSetter, keys []string) diag.Diagnostics {
	if len(keys) == 0 {
		return p.SetKey(ctx, sensitiveKeysPrivate, nil)
	}
	raw, err := json.Marshal(keys)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Unable to record the sensitive_body keys", err.Error())
		return diags
	}
	return p.SetKey(ctx, sensitiveKeysPrivate, raw)
}

// ValidateConfig refuses a key in both body and sensitive_body, at plan
// time: a key is either plain (kept in state and compared) or secret
// (never stored); both at once would put the secret in state, or leave
// unclear which value the service gets. Only key names reach the message.
func (r *genericResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var body, secrets types.Dynamic
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("body"), &body)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("sensitive_body"), &secrets)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plain, ok := topLevelKeys(body)
	secret, ok2 := topLevelKeys(secrets)
	if !ok || !ok2 {
		return
	}
	for _, k := range secret {
		if slices.Contains(plain, k) {
			resp.Diagnostics.AddAttributeError(path.Root("sensitive_body"), "Key in both body and sensitive_body",
				fmt.Sprintf("%q is set in both body and sensitive_body. A key is either plain (in body: stored in state and compared on every plan) or secret (in sensitive_body: never stored, sent on create and updates). Remove it from one of them.", k))
		}
	}
}
