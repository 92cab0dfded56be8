package main

import (
	"flag"
	"fmt"
)

// usage is -h: the flags, then what they choose among (wire profiles) and
// the rules they change (webhook deliveries).
func usage(fs *flag.FlagSet) func() {
	return func() {
		out := fs.Output()
		_, _ = fmt.Fprintf(out, "Usage of %s:\n", fs.Name())
		fs.PrintDefaults()
		writeWireProfiles(out)
		writeWebhookRules(out)
	}
}
