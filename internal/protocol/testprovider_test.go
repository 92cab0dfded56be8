package protocol

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The package may not import this module's provider (it is a leaf), so the
// tests serve a provider of their own: one resource, "repro_thing", whose
// Read keeps the state it is given. The same provider is the reproduction
// in dev/upstream.md.

type reproProvider struct{}

func (reproProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "repro"
}

func (reproProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (reproProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (reproProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return reproThing{} }}
}

func (reproProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

type reproThing struct{}

func (reproThing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "repro_thing"
}

func (reproThing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id": schema.StringAttribute{Required: true},
	}}
}

func (reproThing) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (reproThing) Read(context.Context, resource.ReadRequest, *resource.ReadResponse)       {}
func (reproThing) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (reproThing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// newFramework is the framework's own protocol 6 server for reproProvider,
// as providerserver.Serve would serve it.
func newFramework() tfprotov6.ProviderServer {
	return providerserver.NewProtocol6(reproProvider{})()
}
