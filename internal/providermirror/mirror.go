// Package providermirror lays a provider's release archives out as a
// directory in Terraform's provider network mirror protocol, ready for any
// static HTTPS host: per registry host name,
//
//	HOST/NAMESPACE/TYPE/index.json      {"versions":{"0.1.0":{}}}
//	HOST/NAMESPACE/TYPE/0.1.0.json      {"archives":{"linux_amd64":{"url":"...zip","hashes":["zh:..."]}}}
//	HOST/NAMESPACE/TYPE/<the zips>
//
// Terraform asks a mirror for HOST/NAMESPACE/TYPE of the provider's source
// address, so the same layout is written under registry.terraform.io and
// under registry.opentofu.org (OpenTofu's default host). The zh: hash is
// the SHA-256 of the zip, the scheme Terraform checks a mirror's archives
// against. It imports nothing of this module: the release scripts run it
// through its command, and its tests need neither provider nor emulator.
package providermirror

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Provider names the provider whose archives a mirror serves.
type Provider struct {
	// Hosts are the registry host names the layout is written under.
	Hosts []string
	// Namespace and Type: rms-labs and rms for rms-labs/rms.
	Namespace, Type string
	// Name is the archives' prefix: terraform-provider-rms.
	Name string
}

// RMS is this repository's provider, as Terraform and OpenTofu name it.
func RMS() Provider {
	return Provider{
		Hosts:     []string{"registry.terraform.io", "registry.opentofu.org"},
		Namespace: "rms-labs",
		Type:      "rms",
		Name:      "terraform-provider-rms",
	}
}

// Archive is one platform's release zip.
type Archive struct {
	Platform string // os_arch, as Terraform names it: linux_amd64
	Path     string
}

// Index is HOST/NAMESPACE/TYPE/index.json.
type Index struct {
	Versions map[string]struct{} `json:"versions"`
}

// Version is HOST/NAMESPACE/TYPE/VERSION.json.
type Version struct {
	Archives map[string]VersionArchive `json:"archives"`
}

// VersionArchive is one platform's entry of a Version: a URL relative to
// the VERSION.json that names it, and the hashes Terraform checks the
// download against.
type VersionArchive struct {
	URL    string   `json:"url"`
	Hashes []string `json:"hashes"`
}

// Dir is where the layout of host lives under a mirror's root.
func (p Provider) Dir(root, host string) string {
	return filepath.Join(root, host, p.Namespace, p.Type)
}

// Find lists the provider zips of version in a release folder (goreleaser's
// dist), named NAME_VERSION_OS_ARCH.zip, sorted by platform.
func (p Provider) Find(dist, version string) ([]Archive, error) {
	pattern := regexp.MustCompile(`^` + regexp.QuoteMeta(p.Name+"_"+version+"_") + `([a-z0-9]+_[a-z0-9]+)\.zip$`)
	entries, err := os.ReadDir(dist)
	if err != nil {
		return nil, fmt.Errorf("reading the release folder: %w", err)
	}
	var found []Archive
	for _, e := range entries {
		if m := pattern.FindStringSubmatch(e.Name()); m != nil && e.Type().IsRegular() {
			found = append(found, Archive{Platform: m[1], Path: filepath.Join(dist, e.Name())})
		}
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("no %s_%s_OS_ARCH.zip in %s", p.Name, version, dist)
	}
	return found, nil
}

// Write lays out version's archives under root, for every host of p. The
// zips are hard-linked beside the JSON files where the file system allows
// it, copied otherwise. When previous names the root of a mirror already
// published (fetched from the host; "" for none), the versions its
// index.json files list stay listed, so a lock file of an earlier version
// keeps installing after the new one is published over it.
func (p Provider) Write(root, version string, archives []Archive, previous string) error {
	if version == "" || strings.ContainsAny(version, `/\`) {
		return fmt.Errorf("not a version: %q", version)
	}
	if len(archives) == 0 {
		return errors.New("no archives to lay out")
	}
	entries := make(map[string]VersionArchive, len(archives))
	for _, a := range archives {
		if _, dup := entries[a.Platform]; dup {
			return fmt.Errorf("two archives for %s", a.Platform)
		}
		sum, err := sha256File(a.Path)
		if err != nil {
			return err
		}
		entries[a.Platform] = VersionArchive{URL: filepath.Base(a.Path), Hashes: []string{"zh:" + sum}}
	}
	for _, host := range p.Hosts {
		dir := p.Dir(root, host)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("making the mirror folder: %w", err)
		}
		for _, a := range archives {
			if err := linkOrCopy(a.Path, filepath.Join(dir, filepath.Base(a.Path))); err != nil {
				return fmt.Errorf("placing %s in the mirror: %w", filepath.Base(a.Path), err)
			}
		}
		if err := writeJSON(filepath.Join(dir, version+".json"), Version{Archives: entries}); err != nil {
			return err
		}
		var index Index
		if previous != "" {
			if err := readJSON(filepath.Join(p.Dir(previous, host), "index.json"), &index); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("reading the published index: %w", err)
			}
		}
		if index.Versions == nil {
			index.Versions = map[string]struct{}{}
		}
		index.Versions[version] = struct{}{}
		if err := writeJSON(filepath.Join(dir, "index.json"), index); err != nil {
			return err
		}
	}
	return nil
}

// Check reads back the layout of version under root for every host of p:
// index.json lists version, VERSION.json names exactly platforms, and each
// archive it names is there with the SHA-256 its zh: hash says.
func (p Provider) Check(root, version string, platforms []string) error {
	var problems []error
	for _, host := range p.Hosts {
		dir := p.Dir(root, host)
		var index Index
		if err := readJSON(filepath.Join(dir, "index.json"), &index); err != nil {
			problems = append(problems, err)
		} else if _, ok := index.Versions[version]; !ok {
			problems = append(problems, fmt.Errorf("%s/index.json does not list %s", host, version))
		}
		var v Version
		if err := readJSON(filepath.Join(dir, version+".json"), &v); err != nil {
			problems = append(problems, err)
			continue
		}
		got := make([]string, 0, len(v.Archives))
		for platform := range v.Archives {
			got = append(got, platform)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(platforms))
		if !slices.Equal(got, want) {
			problems = append(problems, fmt.Errorf("%s/%s.json names %v, want %v", host, version, got, want))
		}
		for _, platform := range got {
			a := v.Archives[platform]
			if a.URL != filepath.Base(a.URL) {
				problems = append(problems, fmt.Errorf("%s/%s.json: %s is not beside it", host, version, a.URL))
				continue
			}
			sum, err := sha256File(filepath.Join(dir, a.URL))
			if err != nil {
				problems = append(problems, err)
				continue
			}
			if !slices.Contains(a.Hashes, "zh:"+sum) {
				problems = append(problems, fmt.Errorf("%s/%s: sha256 %s is not among its hashes %v", host, a.URL, sum, a.Hashes))
			}
		}
	}
	return errors.Join(problems...)
}

// Platforms are the platforms of archives, sorted.
func Platforms(archives []Archive) []string {
	out := make([]string, 0, len(archives))
	for _, a := range archives {
		out = append(out, a.Platform)
	}
	slices.Sort(out)
	return out
}

func sha256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("hashing an archive: %w", err)
	}
	defer func() { _ = f.Close() }() // read only: Close has nothing to report
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// linkOrCopy places src at dst: a hard link on the same file system (13
// zips under two hosts would otherwise double a release's size), a copy
// elsewhere.
func linkOrCopy(src, dst string) error {
	if err := os.Remove(dst); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }() // read only: Close has nothing to report
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close() // the copy's error is the one to report
		return err
	}
	return out.Close()
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", filepath.Base(path), err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing the mirror: %w", err)
	}
	return nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading the mirror: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	return nil
}
