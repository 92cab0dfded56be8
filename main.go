// Command terraform-provider-rms serves the rms Terraform provider.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/rms-labs/terraform-provider-rms/internal/logging"
	"github.com/rms-labs/terraform-provider-rms/internal/profile"
	"github.com/rms-labs/terraform-provider-rms/internal/provider"
)

//go:generate go tool -modfile=tools/go.mod tfplugindocs generate --provider-name rms

// version is set by the release build through -ldflags "-X main.version=...".
var version = "dev"

// registryAddress is where the provider is published.
const registryAddress = "registry.terraform.io/rms-labs/rms"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if err := logging.QuietUnreadLogs(debug); err != nil {
		log.Fatal(err.Error())
	}
	stopProfile, err := profile.StartCPU(os.LookupEnv)
	if err != nil {
		log.Fatal(err.Error())
	}
	stopMemory, err := profile.StartMemory(os.LookupEnv)
	if err != nil {
		log.Fatal(err.Error())
	}

	// providerserver.Serve with the provider's own protocol server
	// (internal/protocol, which releases request contexts).
	var serveOpts []tf6server.ServeOpt
	if debug {
		serveOpts = append(serveOpts, tf6server.WithManagedDebug())
	}
	err = tf6server.Serve(registryAddress, provider.NewProtocol6Server(version), serveOpts...)
	stopProfile()
	stopMemory()
	if err != nil {
		log.Fatal(err.Error())
	}
}
