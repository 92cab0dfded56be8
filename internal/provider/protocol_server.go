package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/rms-labs/terraform-provider-rms/internal/protocol"
)

// NewProtocol6Server is providerserver.NewProtocol6 for this provider,
// wrapped by internal/protocol so that the framework does not keep every
// request's context until the provider stops, and so that the contacts map
// of rms_list_contacts crosses the framework out of band
// (list_contacts_carried.go). main.go serves it; acceptance tests use it
// too.
func NewProtocol6Server(version string) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		return protocol.Wrap(providerserver.NewProtocol6(New(version)())(), listContactsCarry)
	}
}
