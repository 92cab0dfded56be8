package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

var (
	_ resource.Resource                = &projectResource{}
	_ resource.ResourceWithConfigure   = &projectResource{}
	_ resource.ResourceWithImportState = &projectResource{}
	_ resource.ResourceWithIdentity    = &projectResource{}
	_ resource.ResourceWithMoveState   = &projectResource{}
)

// NewProjectResource returns the rms_project resource.
func NewProjectResource() resource.Resource { return &projectResource{} }

type projectResource struct {
	data *providerData
}

// projectFields maps the service's field names onto attributes for
// validation errors.
var projectFields = map[string]path.Path{
	"name":        path.Root("name"),
	"description": path.Root("description"),
}

func (r *projectResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_project"
}

func (r *projectResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A project of the account (the service's Projects domain). Projects are updated in place; destroy deletes the project. " +
			"A project first managed as `rms_resource` (collection `projects`) moves here without being re-created, keeping its id: replace the block and add `moved { from = rms_resource.<name>  to = rms_project.<name> }` (Terraform 1.8+, OpenTofu 1.10+; see the guide \"Managing any domain with rms_resource\").",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("project"),
			"name": schema.StringAttribute{
				Required:    true,
				Description: "Name of the project. Mandatory for the service; must not be empty.",
				Validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"description": schema.StringAttribute{
				Optional:    true,
				Description: "Free-text description. Removing it from the configuration removes it from the project.",
			},
			"date_created":  dateCreatedAttribute("project"),
			"date_modified": dateModifiedAttribute("project"),
		},
	}
}

// IdentitySchema: a project is identified by its id (Terraform 1.12+).
func (r *projectResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema("project")
}

func (r *projectResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *projectResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	projectCRUD.Create(ctx, r.data, req, resp)
}

func (r *projectResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	projectCRUD.Read(ctx, r.data, req, resp)
}

func (r *projectResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	projectCRUD.Update(ctx, r.data, req, resp)
}

func (r *projectResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	projectCRUD.Delete(ctx, r.data, req, resp)
}

// ImportState accepts the numeric id as the import string or as
// `identity = { id = "42" }` in an import block.
func (r *projectResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByEntityID(ctx, "rms_project", req, resp)
}

// MoveState takes an rms_resource of the collection "projects"
// (`moved { from = rms_resource.x  to = rms_project.x }`).
func (r *projectResource) MoveState(_ context.Context) []resource.StateMover {
	return []resource.StateMover{moveFromGeneric(typedMove{
		typeName:   "rms_project",
		collection: "projects",
		keys:       []string{"name", "description"},
		toState: func(ctx context.Context, src movedEntity, resp *resource.MoveStateResponse) {
			var p client.Project
			if !src.decode(&p, "rms_project", &resp.Diagnostics) {
				return
			}
			m := projectToModel(&p, projectModel{Description: src.bodyString("description")})
			saveWithIdentity(ctx, &resp.TargetState, resp.TargetIdentity, m, idIdentity(m.ID), &resp.Diagnostics)
		},
	})}
}

// projectCRUD is the service's side of rms_project.
var projectCRUD = namedEntityCRUD[projectModel, client.ProjectInput, client.Project]{
	noun:    "project",
	fields:  projectFields,
	id:      func(m projectModel) types.String { return m.ID },
	input:   projectInput,
	toModel: projectToModel,
	made: func(m projectModel, id string) projectModel {
		m.ID, m.DateCreated, m.DateModified = types.StringValue(id), timetypes.NewRFC3339Null(), timetypes.NewRFC3339Null()
		return m
	},
	createOnce: func(c *client.Client, ctx context.Context, in client.ProjectInput) (*client.Project, error) {
		return c.Projects.CreateOnce(ctx, in)
	},
	get: func(c *client.Client, ctx context.Context, id string) (*client.Project, error) {
		return c.Projects.Get(ctx, id)
	},
	update: func(c *client.Client, ctx context.Context, id string, in client.ProjectInput) (*client.Project, error) {
		return c.Projects.Update(ctx, id, in)
	},
	remove: func(c *client.Client, ctx context.Context, id string) error { return c.Projects.Delete(ctx, id) },
}

func projectInput(m projectModel) client.ProjectInput {
	return client.ProjectInput{Name: m.Name.ValueString(), Description: stringPointer(m.Description)}
}
