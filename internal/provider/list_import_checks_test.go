package provider_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccListImportResource_refusedAtPlan: a file the service could not
// read as declared (no identity column under the delimiter, bytes not valid
// in the encoding) is refused by the plan, naming the file and what to set;
// no import is created on the service.
func TestAccListImportResource_refusedAtPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		mustWrite(t, p, content)
		return p
	}
	semicolons := write("semicolons.csv", "originalId;email\na;a@example.com\n")
	noIdentity := write("no-identity.csv", "email,firstname\na@example.com,A\n")
	good := write("good.csv", "originalId,email\na,a@example.com\n")
	latin1 := write("latin1.csv", "originalId,lastname\nrenee,M\xfcller\n") // saved by Excel on Windows
	badUTF16 := write("utf16.csv", "\xff\xfeo\x00r\x00i\x00g\x00i\x00n\x00a\x00l\x00I\x00d\x00\n\x00a\x00\x00\xdc\n\x00")
	file := func(p string) string { return fmt.Sprintf("file = %q", p) }

	cases := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"semicolons under the default delimiter": {
			config: importConfig(list, "ADD", file(semicolons)),
			want: acctest.ExpectErrorParts("Import file refused", `the header row has no identity column "originalId" under delimiter "," (its columns: originalId;email); with delimiter = ";" it has: set delimiter = ";"`,
				"no import was created"),
		},
		"content with semicolons": {
			config: importConfig(list, "UNSUBSCRIBE", `content = "originalId;email\na;a@example.com\n"`),
			want:   acctest.ExpectErrorParts("Import file refused", `set delimiter = ";"`),
		},
		"no originalId column": {
			config: importConfig(list, "ADD", file(noIdentity)),
			want:   acctest.ExpectErrorParts("Import file refused", `no identity column "originalId" (its columns: email, firstname); set identity_column`),
		},
		"identity column missing": {
			config: importConfig(list, "REPLACE", file(good), `identity_column = "customer_no"`),
			want:   acctest.ExpectErrorParts("Import file refused", `no identity column "customer_no" (its columns: originalId, email)`),
		},
		"Latin-1 file read as UTF8": {
			config: importConfig(list, "ADD", file(latin1)),
			want:   acctest.ExpectErrorParts("Import file refused", latin1, "is not valid UTF8: line 2", `set encoding = "ANSI"`, "no import was created"),
		},
		"bad UTF16 file": {
			config: importConfig(list, "ADD", file(badUTF16), `encoding = "UTF16"`),
			want:   acctest.ExpectErrorParts("Import file refused", badUTF16, "is not valid UTF16: line 2", "Set encoding to the encoding the file was saved in"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: env.Config(tc.config), ExpectError: tc.want}},
			})
		})
	}
	t.Cleanup(func() {
		if n := env.Emulator.Requests().ByRoute[routeCreateImport]; n != 0 {
			t.Errorf("refused files created %d imports on the service", n)
		}
		wantUploads(t, env, 0)
	})
}

// TestAccListImportResource_refusedOnReplace: a file changed into one the
// service could not read is refused by the plan of the replacement; the
// import already made stays in the state.
func TestAccListImportResource_refusedOnReplace(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	p := filepath.Join(t.TempDir(), "contacts.csv")
	config := env.Config(importConfig(list, "ADD", fmt.Sprintf("file = %q", p)))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{PreConfig: func() { mustWrite(t, p, "originalId,lastname\nrenee,Muller\n") }, Config: config},
			{
				PreConfig:   func() { mustWrite(t, p, "originalId,lastname\nrenee,M\xfcller\n") },
				Config:      config,
				ExpectError: acctest.ExpectErrorParts("Import file refused", "is not valid UTF8: line 2"),
			},
		},
		CheckDestroy: func(*terraform.State) error {
			if n := env.Emulator.Requests().ByRoute[routeCreateImport]; n != 1 {
				return fmt.Errorf("%d imports created, want 1 (the first file's)", n)
			}
			return nil
		},
	})
}

// TestAccActionsRefusedFile: the rms_run_list_import action checks the
// file before it creates an import.
func TestAccActionsRefusedFile(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutActions},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(`
resource "rms_list" "target" {
  name                = "action target"
  deletion_protection = false
}

action "rms_run_list_import" "seed" {
  config {
    list_id = rms_list.target.id
    type    = "ADD"
    content = "originalId;email\na;a@example.com\n"
  }
}

resource "terraform_data" "pipeline" {
  input = rms_list.target.id
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.rms_run_list_import.seed]
    }
  }
}
`),
				ExpectError: acctest.ExpectErrorParts("rms_run_list_import: Import file refused", `set delimiter = ";"`, "no import was created"),
			},
		},
		CheckDestroy: checkOperations(env, operationCounts{}),
	})
}
