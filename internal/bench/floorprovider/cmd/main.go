// Command floorprovider serves the floor provider of the bench's floor
// scenario (package floorprovider) the way the real provider's main serves
// it: the same protocol shim, log settings and RMS_CPU_PROFILE, so that
// the two binaries differ only in rms_contact.
package main

import (
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/rms-labs/terraform-provider-rms/internal/bench/floorprovider"
	"github.com/rms-labs/terraform-provider-rms/internal/logging"
	"github.com/rms-labs/terraform-provider-rms/internal/profile"
	"github.com/rms-labs/terraform-provider-rms/internal/protocol"
)

// registryAddress and the version "dev" are the real provider's as the bench
// builds it (go build, no ldflags): the bench points it at this
// binary through a dev_overrides CLI configuration of its own.
const registryAddress = "registry.terraform.io/rms-labs/rms"

func main() {
	if err := logging.QuietUnreadLogs(false); err != nil {
		log.Fatal(err.Error())
	}
	stopProfile, err := profile.StartCPU(os.LookupEnv)
	if err != nil {
		log.Fatal(err.Error())
	}
	err = tf6server.Serve(registryAddress, func() tfprotov6.ProviderServer {
		return protocol.Wrap(providerserver.NewProtocol6(floorprovider.New("dev")())())
	})
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}
