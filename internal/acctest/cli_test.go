package acctest

import "testing"

func TestParseCLIVersion(t *testing.T) {
	tests := []struct {
		name, out         string
		wantName, wantVer string // wantName "": an error
	}{
		{"terraform", "Terraform v1.11.4\non linux_amd64\n", "Terraform", "1.11.4"},
		{"opentofu", "OpenTofu v1.10.10\non linux_amd64\n", "OpenTofu", "1.10.10"},
		{"prerelease", "Terraform v1.16.0-dev\n", "Terraform", "1.16.0-dev"},
		// OpenTofu 1.12 prints CLI configuration warnings on stdout first.
		{"warnings first", "\nWarning: Unable to open CLI configuration file\n\nThe CLI configuration file at \"/root/.terraformrc\" does not exist.\nOpenTofu v1.12.6\non linux_amd64\n", "OpenTofu", "1.12.6"},
		{"a version inside a sentence", "uses Terraform v1.11.4 too\n", "", ""},
		{"another program", "Packer v1.9.0\n", "", ""},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseCLIVersion([]byte(tt.out))
			if tt.wantName == "" {
				if err == nil {
					t.Fatalf("parsed %s from %q, want an error", c, tt.out)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseCLIVersion(%q): %v", tt.out, err)
			}
			if c.Name != tt.wantName || c.Version.String() != tt.wantVer {
				t.Errorf("parsed %s %s, want %s %s", c.Name, c.Version, tt.wantName, tt.wantVer)
			}
		})
	}
}
