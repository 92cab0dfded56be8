package floorprovider

import (
	"context"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/rms-labs/terraform-provider-rms/internal/provider"
)

// floorProvider is the real provider with rms_contact swapped for the
// floor and Configure doing nothing. Embedding keeps every other method of
// the real provider (its schema and the optional interfaces: functions,
// actions, list and ephemeral resources), so that Terraform gets the same
// GetProviderSchema answer from both.
type floorProvider struct {
	*provider.RMSProvider
}

var (
	_ fwprovider.Provider                       = floorProvider{}
	_ fwprovider.ProviderWithFunctions          = floorProvider{}
	_ fwprovider.ProviderWithActions            = floorProvider{}
	_ fwprovider.ProviderWithEphemeralResources = floorProvider{}
	_ fwprovider.ProviderWithListResources      = floorProvider{}
)

// New returns a constructor of the floor provider for providerserver.
func New(version string) func() fwprovider.Provider {
	return func() fwprovider.Provider {
		base, ok := provider.New(version)().(*provider.RMSProvider)
		if !ok {
			panic("provider.New no longer returns *provider.RMSProvider: update the floor provider")
		}
		return floorProvider{RMSProvider: base}
	}
}

// Configure builds no client: nothing of the floor talks to a service.
// The provider block is still validated against the real schema.
func (floorProvider) Configure(context.Context, fwprovider.ConfigureRequest, *fwprovider.ConfigureResponse) {
}

// Resources are the real provider's, with rms_contact the floor's.
func (p floorProvider) Resources(ctx context.Context) []func() resource.Resource {
	base := p.RMSProvider.Resources(ctx)
	out := make([]func() resource.Resource, 0, len(base))
	swapped := false
	for _, f := range base {
		if typeName(ctx, f()) == ContactType {
			out = append(out, newContact)
			swapped = true
			continue
		}
		out = append(out, f)
	}
	if !swapped {
		panic("the real provider has no " + ContactType + ": update the floor provider")
	}
	return out
}

// ContactType is the resource type the floor replaces.
const ContactType = "rms_contact"

func typeName(ctx context.Context, r resource.Resource) string {
	var resp resource.MetadataResponse
	r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "rms"}, &resp)
	return resp.TypeName
}
