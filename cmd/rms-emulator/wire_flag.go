package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// wireFlag is -wire NAME[,NAME...]: the emulator's wire profiles
// (emulator.ParseWire), e.g. -wire all.
type wireFlag struct{ wire emulator.Wire }

func (f *wireFlag) String() string { return f.wire.String() }

func (f *wireFlag) Set(v string) error {
	w, err := emulator.ParseWire(v)
	if err != nil {
		return err
	}
	f.wire = w
	return nil
}

// writeWireProfiles lists every wire profile for -h.
func writeWireProfiles(out io.Writer) {
	_, _ = fmt.Fprintln(out, "\nWire profiles (-wire NAME[,NAME...]); each switches one open choice of the service's answers:")
	for _, p := range emulator.WireProfiles() {
		_, _ = fmt.Fprintf(out, "  %-22s %s\n", p.Name, p.Description)
	}
	_, _ = fmt.Fprintf(out, "  %-22s %s\n", emulator.WireAllName, "one alternative per dimension: "+strings.Join(emulator.AllWire.Names(), ","))
}
