package providermirror

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// release writes fake zips named as goreleaser names them into a new dist
// folder, one per platform, and returns the folder and the zh: hash of each.
func release(t *testing.T, version string, platforms ...string) (string, map[string]string) {
	t.Helper()
	dist := t.TempDir()
	sums := map[string]string{}
	for _, p := range platforms {
		body := []byte("zip of " + p)
		if err := os.WriteFile(filepath.Join(dist, "terraform-provider-rms_"+version+"_"+p+".zip"), body, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(body)
		sums[p] = "zh:" + hex.EncodeToString(sum[:])
	}
	return dist, sums
}

func TestWriteLaysOutTheProtocolUnderBothHosts(t *testing.T) {
	p := RMS()
	dist, sums := release(t, "0.1.0", "linux_amd64", "darwin_arm64")
	archives, err := p.Find(dist, "0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dist, "mirror")
	if err := p.Write(root, "0.1.0", archives, ""); err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		dir := filepath.Join(root, host, "rms-labs", "rms")
		// The raw JSON, as Terraform's mirror source decodes it.
		var index map[string]map[string]map[string]any
		readJSONFile(t, filepath.Join(dir, "index.json"), &index)
		if diff := cmp.Diff(map[string]map[string]map[string]any{"versions": {"0.1.0": {}}}, index); diff != "" {
			t.Errorf("%s index.json (-want +got):\n%s", host, diff)
		}
		var version map[string]map[string]map[string]any
		readJSONFile(t, filepath.Join(dir, "0.1.0.json"), &version)
		want := map[string]map[string]map[string]any{"archives": {
			"linux_amd64":  {"url": "terraform-provider-rms_0.1.0_linux_amd64.zip", "hashes": []any{sums["linux_amd64"]}},
			"darwin_arm64": {"url": "terraform-provider-rms_0.1.0_darwin_arm64.zip", "hashes": []any{sums["darwin_arm64"]}},
		}}
		if diff := cmp.Diff(want, version); diff != "" {
			t.Errorf("%s 0.1.0.json (-want +got):\n%s", host, diff)
		}
		for _, platform := range []string{"linux_amd64", "darwin_arm64"} {
			got, err := os.ReadFile(filepath.Join(dir, "terraform-provider-rms_0.1.0_"+platform+".zip"))
			if err != nil {
				t.Fatalf("%s: the zip is not beside the JSON: %v", host, err)
			}
			if string(got) != "zip of "+platform {
				t.Errorf("%s: %s zip holds %q", host, platform, got)
			}
		}
	}
	if err := p.Check(root, "0.1.0", []string{"darwin_arm64", "linux_amd64"}); err != nil {
		t.Errorf("Check of what Write wrote: %v", err)
	}
}

func TestWriteKeepsThePublishedVersions(t *testing.T) {
	p := RMS()
	dist, _ := release(t, "0.2.0", "linux_amd64")
	published := t.TempDir()
	for _, host := range p.Hosts {
		dir := p.Dir(published, host)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "index.json"), []byte(`{"versions":{"0.1.0":{}}}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	archives, err := p.Find(dist, "0.2.0")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dist, "mirror")
	if err := p.Write(root, "0.2.0", archives, published); err != nil {
		t.Fatal(err)
	}
	for _, host := range p.Hosts {
		var index Index
		readJSONFile(t, filepath.Join(p.Dir(root, host), "index.json"), &index)
		if diff := cmp.Diff(Index{Versions: map[string]struct{}{"0.1.0": {}, "0.2.0": {}}}, index); diff != "" {
			t.Errorf("%s index.json (-want +got):\n%s", host, diff)
		}
	}
}

func TestFindTakesOnlyTheVersionsProviderZips(t *testing.T) {
	dist := t.TempDir()
	for _, name := range []string{
		"terraform-provider-rms_0.1.0_linux_amd64.zip",
		"terraform-provider-rms_0.1.0_windows_386.zip",
		"terraform-provider-rms_0.1.1_linux_amd64.zip", // another version
		"rms-emulator_0.1.0_windows_amd64.zip",         // the emulator's
		"terraform-provider-rms_0.1.0_SHA256SUMS",
		"terraform-provider-rms_0.1.0_manifest.json",
	} {
		if err := os.WriteFile(filepath.Join(dist, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := RMS().Find(dist, "0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"linux_amd64", "windows_386"}, Platforms(got)); diff != "" {
		t.Errorf("platforms (-want +got):\n%s", diff)
	}
	if _, err := RMS().Find(dist, "9.9.9"); err == nil || !strings.Contains(err.Error(), "no terraform-provider-rms_9.9.9_OS_ARCH.zip") {
		t.Errorf("Find of a version with no zips: %v", err)
	}
}

func TestCheckFindsWhatIsWrong(t *testing.T) {
	p := RMS()
	tests := []struct {
		name      string
		platforms []string
		spoil     func(t *testing.T, root string)
		want      string
	}{
		{
			name:      "an archive changed after its hash was written",
			platforms: []string{"linux_amd64"},
			spoil: func(t *testing.T, root string) {
				write(t, filepath.Join(p.Dir(root, "registry.opentofu.org"), "terraform-provider-rms_0.1.0_linux_amd64.zip"), "another build")
			},
			want: "registry.opentofu.org/terraform-provider-rms_0.1.0_linux_amd64.zip: sha256",
		},
		{
			name:      "a platform the release has is missing",
			platforms: []string{"linux_amd64", "linux_arm"},
			want:      "names [linux_amd64], want [linux_amd64 linux_arm]",
		},
		{
			name:      "the index does not list the version",
			platforms: []string{"linux_amd64"},
			spoil: func(t *testing.T, root string) {
				write(t, filepath.Join(p.Dir(root, "registry.terraform.io"), "index.json"), `{"versions":{"0.0.9":{}}}`)
			},
			want: "registry.terraform.io/index.json does not list 0.1.0",
		},
		{
			name:      "an archive missing",
			platforms: []string{"linux_amd64"},
			spoil: func(t *testing.T, root string) {
				if err := os.Remove(filepath.Join(p.Dir(root, "registry.terraform.io"), "terraform-provider-rms_0.1.0_linux_amd64.zip")); err != nil {
					t.Fatal(err)
				}
			},
			want: "no such file",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dist, _ := release(t, "0.1.0", "linux_amd64")
			archives, err := p.Find(dist, "0.1.0")
			if err != nil {
				t.Fatal(err)
			}
			root := filepath.Join(dist, "mirror")
			if err := p.Write(root, "0.1.0", archives, ""); err != nil {
				t.Fatal(err)
			}
			if tt.spoil != nil {
				tt.spoil(t, root)
			}
			err = p.Check(root, "0.1.0", tt.platforms)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestWriteRefuses(t *testing.T) {
	p := RMS()
	dist, _ := release(t, "0.1.0", "linux_amd64")
	zip := filepath.Join(dist, "terraform-provider-rms_0.1.0_linux_amd64.zip")
	tests := []struct {
		name     string
		version  string
		archives []Archive
		want     string
	}{
		{"no version", "", []Archive{{"linux_amd64", zip}}, "not a version"},
		{"a version that is a path", "../0.1.0", []Archive{{"linux_amd64", zip}}, "not a version"},
		{"no archives", "0.1.0", nil, "no archives"},
		{"one platform twice", "0.1.0", []Archive{{"linux_amd64", zip}, {"linux_amd64", zip}}, "two archives for linux_amd64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := p.Write(t.TempDir(), tt.version, tt.archives, "")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Write = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func write(t *testing.T, path, body string) {
	t.Helper()
	// A new file, not the hard link's other name.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
