// Command terraform-provider-rms serves the rms Terraform provider.
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

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
	if err := quietUnreadLogsInProcess(debug); err != nil {
		log.Fatal(err.Error())
	}
	stopProfile, err := startCPUProfile(os.LookupEnv)
	if err != nil {
		log.Fatal(err.Error())
	}

	err = providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: registryAddress,
		Debug:   debug,
	})
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}
