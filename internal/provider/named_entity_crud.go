package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// namedEntityCRUD is the create, read, update and delete of a resource over
// one plain domain of the service (rms_project, rms_list): an object known
// by its server-assigned id alone, written whole from the model and read
// back whole into it. Such resources differ only in their calls, their model
// and the noun their diagnostics use, so the steps are written once here;
// a domain with more to do (write-only values, private state, several
// calls per step) keeps its own CRUD.
//
// M is the resource's model, I the client's input for create and update,
// E the client's object.
type namedEntityCRUD[M, I, E any] struct {
	noun   string               // "project": in diagnostics and logs
	fields map[string]path.Path // the service's field names onto attributes, for validation errors

	id      func(M) types.String
	input   func(M) I
	toModel func(obj *E, prior M) M
	// made is the plan of a create whose object was made but whose answer
	// could not be read (client.MadeID): the id set, and every value only
	// the service could give null.
	made func(plan M, id string) M

	createOnce func(*client.Client, context.Context, I) (*E, error)
	get        func(*client.Client, context.Context, string) (*E, error)
	update     func(*client.Client, context.Context, string, I) (*E, error)
	remove     func(*client.Client, context.Context, string) error
	// beforeDelete, when set, forgets what this run holds about the object
	// that its deletion makes stale.
	beforeDelete func(d *providerData, id string)
}

func (c namedEntityCRUD[M, I, E]) Create(ctx context.Context, d *providerData, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := loadModel[M](ctx, d, req.Plan.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	obj, err := c.createOnce(d.client, ctx, c.input(plan))
	if err != nil {
		if id, made := client.MadeID(err); made {
			m := c.made(plan, id)
			saveMade(ctx, &resp.State, resp.Identity, m, idIdentity(c.id(m)), &resp.Diagnostics)
		}
		addAPIError(&resp.Diagnostics, "Unable to create "+c.noun, err, c.fields)
		return
	}
	m := c.toModel(obj, plan)
	tflog.Info(ctx, "created "+c.noun, map[string]any{"id": c.id(m).ValueString()})
	saveWithIdentity(ctx, &resp.State, resp.Identity, m, idIdentity(c.id(m)), &resp.Diagnostics)
}

func (c namedEntityCRUD[M, I, E]) Read(ctx context.Context, d *providerData, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := loadModel[M](ctx, d, req.State.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	id := c.id(state)
	obj, err := c.get(d.client, ctx, id.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		tflog.Info(ctx, c.noun+" is gone; removing it from state", map[string]any{"id": id.ValueString()})
		removeGone(ctx, resp, idIdentity(id))
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read "+c.noun, err, nil)
		return
	}
	m := c.toModel(obj, state)
	saveWithIdentity(ctx, &resp.State, resp.Identity, m, idIdentity(c.id(m)), &resp.Diagnostics)
}

func (c namedEntityCRUD[M, I, E]) Update(ctx context.Context, d *providerData, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(d, &resp.Diagnostics) {
		return
	}
	obj, err := c.update(d.client, ctx, c.id(state).ValueString(), c.input(plan))
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to update "+c.noun, err, c.fields)
		return
	}
	m := c.toModel(obj, plan)
	saveWithIdentity(ctx, &resp.State, resp.Identity, m, idIdentity(c.id(m)), &resp.Diagnostics)
}

func (c namedEntityCRUD[M, I, E]) Delete(ctx context.Context, d *providerData, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := loadModel[M](ctx, d, req.State.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	id := c.id(state).ValueString()
	if c.beforeDelete != nil {
		c.beforeDelete(d, id)
	}
	if err := c.remove(d.client, ctx, id); err != nil {
		addAPIError(&resp.Diagnostics, "Unable to delete "+c.noun, err, nil)
	}
}

// loadModel reads what a step starts from (its plan or its state) into a
// model; false means the step cannot go on, and diags say why.
func loadModel[M any](ctx context.Context, d *providerData, get func(context.Context, any) diag.Diagnostics, diags *diag.Diagnostics) (M, bool) {
	var m M
	diags.Append(get(ctx, &m)...)
	return m, !diags.HasError() && requireClient(d, diags)
}
