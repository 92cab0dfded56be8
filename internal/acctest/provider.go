package acctest

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/rms-labs/terraform-provider-rms/internal/provider"
)

// ProviderFactories serve the provider in-process to the terraform CLI.
func ProviderFactories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"rms": func() (tfprotov6.ProviderServer, error) { return provider.NewProtocol6Server("acctest")(), nil },
	}
}
