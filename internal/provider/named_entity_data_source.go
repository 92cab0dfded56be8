package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// namedEntityDataSource reads one object of a plain domain (rms_project,
// rms_list) by its id or by its name, which must then match exactly one
// object. Such data sources differ only in their calls, their model and
// the noun their diagnostics use, so the lookup is written once here.
//
// M is the data source's model, E the client's object.
type namedEntityDataSource[M, E any] struct {
	data *providerData

	noun   string // "list": in diagnostics, and the type name after the provider's
	schema func() schema.Schema

	idAndName func(cfg M) (id, name types.String)
	toModel   func(obj *E, cfg M) M
	// objName and objID are what a lookup by name compares and reports.
	objName func(obj *E) string
	objID   func(obj *E) string

	get func(c *client.Client, ctx context.Context, id string) (*E, error)
	all func(c *client.Client, ctx context.Context) ([]E, error)
}

var (
	_ datasource.DataSource                     = &namedEntityDataSource[listModel, client.List]{}
	_ datasource.DataSourceWithConfigure        = &namedEntityDataSource[listModel, client.List]{}
	_ datasource.DataSourceWithConfigValidators = &namedEntityDataSource[projectModel, client.Project]{}
)

func (d *namedEntityDataSource[M, E]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.noun
}

func (d *namedEntityDataSource[M, E]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = d.schema()
}

func (d *namedEntityDataSource[M, E]) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
	}
}

func (d *namedEntityDataSource[M, E]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *namedEntityDataSource[M, E]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	cfg, ok := loadModel[M](ctx, d.data, req.Config.Get, &resp.Diagnostics)
	if !ok {
		return
	}
	id, name := d.idAndName(cfg)
	var obj *E
	if !id.IsNull() {
		var err error
		obj, err = d.get(d.data.client, ctx, id.ValueString())
		if errors.Is(err, client.ErrNotFound) {
			resp.Diagnostics.AddAttributeError(path.Root("id"), strings.ToUpper(d.noun[:1])+d.noun[1:]+" not found",
				fmt.Sprintf("No %s has id %q in this account. Check the id, or look the %s up by name.", d.noun, id.ValueString(), d.noun))
			return
		}
		if err != nil {
			addAPIError(&resp.Diagnostics, "Unable to read "+d.noun, err, nil)
			return
		}
	} else {
		found, err := d.findByName(ctx, name.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Unable to find "+d.noun+" by name", describeAPIError(err))
			return
		}
		obj = found
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, d.toModel(obj, cfg))...)
}

func (d *namedEntityDataSource[M, E]) findByName(ctx context.Context, name string) (*E, error) {
	all, err := d.all(d.data.client, ctx)
	if err != nil {
		return nil, err
	}
	var match []*E
	for i := range all {
		if d.objName(&all[i]) == name {
			match = append(match, &all[i])
		}
	}
	switch len(match) {
	case 0:
		return nil, fmt.Errorf("no %s is named %q in this account", d.noun, name)
	case 1:
		return match[0], nil
	default:
		return nil, fmt.Errorf("%d %ss are named %q (ids %s and more); look the %s up by id instead", len(match), d.noun, name, d.objID(match[0]), d.noun)
	}
}
