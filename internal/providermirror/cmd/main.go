// Command cmd writes (or checks) the provider network mirror of a release:
// scripts/release.sh runs it after goreleaser as
//
//	go run ./internal/providermirror/cmd -dist dist -version 0.1.0
//
// which lays the provider zips of dist out under dist/mirror for
// registry.terraform.io and registry.opentofu.org; -check reads the layout
// back instead (scripts/release-check.sh); -previous names a copy of the
// mirror already published, whose versions stay listed.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rms-labs/terraform-provider-rms/internal/providermirror"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		_, _ = fmt.Fprintln(os.Stderr, "providermirror:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("providermirror", flag.ContinueOnError)
	dist := fs.String("dist", "dist", "the release folder holding the provider zips")
	version := fs.String("version", "", "the release's version (goreleaser's, as in the zips' names)")
	out := fs.String("out", "", "the mirror's root (default DIST/mirror)")
	previous := fs.String("previous", "", "a copy of the mirror already published, whose index.json versions stay listed")
	check := fs.Bool("check", false, "check the layout under -out against the zips of -dist instead of writing it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *version == "" {
		return fmt.Errorf("-version is required")
	}
	root := *out
	if root == "" {
		root = filepath.Join(*dist, "mirror")
	}
	p := providermirror.RMS()
	archives, err := p.Find(*dist, *version)
	if err != nil {
		return err
	}
	if *check {
		if err := p.Check(root, *version, providermirror.Platforms(archives)); err != nil {
			return fmt.Errorf("checking %s: %w", root, err)
		}
		_, _ = fmt.Printf("providermirror: %s serves %s for %d platforms under %v\n", root, *version, len(archives), p.Hosts)
		return nil
	}
	if err := p.Write(root, *version, archives, *previous); err != nil {
		return fmt.Errorf("writing %s: %w", root, err)
	}
	_, _ = fmt.Printf("providermirror: wrote %s: %s for %d platforms under %v\n", root, *version, len(archives), p.Hosts)
	return nil
}
