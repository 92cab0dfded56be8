package protocol

import (
	"context"
	"math/big"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The carry tests serve a provider of their own: "carry_thing" has a map
// of objects ("items"), which the server carries past the framework, and
// a computed "size". Its methods note what the framework showed them, so
// the tests can say the framework saw placeholders and the resource the
// real values.

type carryProvider struct{ seen *carrySeen }

func (carryProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "carry"
}
func (carryProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}
func (carryProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}
func (p carryProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return carryThing(p) }}
}
func (carryProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// carrySeen is what the resource saw in the last request.
type carrySeen struct {
	mu        sync.Mutex
	framework types.Map              // items as the framework handed them
	carried   map[Role]tftypes.Value // CarriedValue of each role that had one
	// readOut, when set, is what Read answers for items (SetCarriedValue).
	readOut *tftypes.Value
}

func (s *carrySeen) note(ctx context.Context, framework types.Map) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.framework = framework
	s.carried = map[Role]tftypes.Value{}
	for r := range roles {
		if v, ok := CarriedValue(ctx, r); ok {
			s.carried[r] = v
		}
	}
}

type carryThing carryProvider

type carryModel struct {
	ID    types.String `tfsdk:"id"`
	Items types.Map    `tfsdk:"items"`
	Size  types.Int64  `tfsdk:"size"`
}

func (carryThing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "carry_thing"
}

func (carryThing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id": schema.StringAttribute{Required: true},
		"items": schema.MapNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"value": schema.StringAttribute{Optional: true},
		}}},
		"size": schema.Int64Attribute{Computed: true},
	}}
}

func (r carryThing) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var m carryModel
	_ = req.Plan.Get(ctx, &m)
	r.seen.note(ctx, m.Items)
}

func (r carryThing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m carryModel
	_ = req.State.Get(ctx, &m)
	r.seen.note(ctx, m.Items)
	if r.seen.readOut != nil {
		SetCarriedValue(ctx, *r.seen.readOut)
	}
}

func (carryThing) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (carryThing) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (carryThing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// carryServer is the wrapped server of a carryProvider, carrying items.
func carryServer(seen *carrySeen) tfprotov6.ProviderServer {
	return Wrap(providerserver.NewProtocol6(carryProvider{seen: seen})(), Carry{TypeName: "carry_thing", Attribute: "items"})
}

// Types and values of carry_thing, in terraform-plugin-go's terms.
var (
	carryItemTF  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"value": tftypes.String}}
	carryItemsTF = tftypes.Map{ElementType: carryItemTF}
	carryThingTF = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "items": carryItemsTF, "size": tftypes.Number}}
)

// carryItems is a map of items from key=value pairs; a value "?" is
// unknown.
func carryItems(pairs ...string) tftypes.Value {
	m := map[string]tftypes.Value{}
	for _, p := range pairs {
		k, v, _ := strings.Cut(p, "=")
		val := tftypes.NewValue(tftypes.String, v)
		if v == "?" {
			val = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
		}
		m[k] = tftypes.NewValue(carryItemTF, map[string]tftypes.Value{"value": val})
	}
	return tftypes.NewValue(carryItemsTF, m)
}

// carryObject is a carry_thing with items and size (nil: null; "?":
// unknown).
func carryObject(items tftypes.Value, size any) tftypes.Value {
	var sv tftypes.Value
	switch size {
	case nil:
		sv = tftypes.NewValue(tftypes.Number, nil)
	case "?":
		sv = tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)
	default:
		sv = tftypes.NewValue(tftypes.Number, big.NewFloat(float64(size.(int))))
	}
	return tftypes.NewValue(carryThingTF, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, "x"), "items": items, "size": sv})
}
