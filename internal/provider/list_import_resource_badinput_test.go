package provider_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Bad inputs a user can write, refused at plan time, or by the service with
// a diagnostic naming the cause.
func TestAccListImportResource_badInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	mustWrite(t, good, "originalId,email\na,a@example.com\n")
	badQuote := filepath.Join(dir, "bad-quote.csv")
	mustWrite(t, badQuote, "originalId,firstname\na,A\"da\n")
	unknownColumn := filepath.Join(dir, "unknown-column.csv")
	mustWrite(t, unknownColumn, "originalId,shoe size\na,42\n")
	file := func(p string) string { return fmt.Sprintf("file = %q", p) }

	cases := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"unknown encoding": {
			config: importConfig(list, "ADD", file(good), `encoding = "UTF-8"`),
			want:   acctest.ExpectErrorParts("Invalid encoding", `"UTF-8" is not allowed; use "UTF8". Allowed values: UTF8, UTF16, ISO-8859-1, ANSI.`),
		},
		"two-character delimiter": {
			config: importConfig(list, "ADD", file(good), `delimiter = "ab"`),
			want:   acctest.ExpectErrorParts("Invalid delimiter", `the delimiter must be exactly one character, such as ",", ";" or "\t"; got "ab"`),
		},
		"line feed delimiter": {
			config: importConfig(list, "ADD", file(good), `delimiter = "\n"`),
			want:   acctest.ExpectErrorParts("Invalid delimiter", "cannot delimit columns"),
		},
		"missing file": {
			config: importConfig(list, "ADD", file(filepath.Join(dir, "nope.csv"))),
			want:   acctest.ExpectErrorParts("Import file not found", "There is no file at", "nope.csv"),
		},
		"file and content": {
			config: importConfig(list, "ADD", file(good), `content = "originalId\na\n"`),
			want:   acctest.ExpectErrorParts("Invalid Attribute Combination", "Exactly one of these attributes must be configured: [file,content]"),
		},
		"neither file nor content": {
			config: importConfig(list, "ADD"),
			want:   acctest.ExpectErrorParts("Missing Attribute Configuration", "Exactly one of these attributes must be configured: [file,content]"),
		},
		"lower-case type": {
			config: importConfig(list, "add", file(good)),
			want:   acctest.ExpectErrorParts("Invalid type", `"add" is not allowed; use "ADD"`),
		},
		"list id not a number": {
			config: importConfig("subscribers", "ADD", file(good)),
			want:   acctest.ExpectErrorParts("must be the numeric id of a list"),
		},
		"unknown list": {
			config: importConfig("999999", "ADD", file(good)),
			want:   acctest.ExpectErrorParts("List not found", `No list has id "999999" in this account`, "404 NOT_FOUND"),
		},
		"malformed file": {
			config: importConfig(list, "ADD", file(badQuote)),
			want:   acctest.ExpectErrorParts("Import file refused", "cannot be read as CSV: row 2 (line 2, column 4)", `bare " in non-quoted-field`),
		},
		"unknown column": {
			config: importConfig(list, "ADD", file(unknownColumn)),
			want:   acctest.ExpectErrorParts("Import file refused", `column "shoe size" names no contact attribute of the account (its attributes: email, mobile, firstname, lastname)`, "no import was created"),
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
		if got := listContacts(t, env, list); len(got) != 0 {
			t.Errorf("refused imports changed the list: %v", got)
		}
	})
}

func TestAccListImportResource_importBadID(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	config := env.Config(importConfig(list, "ADD", `content = "originalId\na\n"`))
	step := func(id string, want *regexp.Regexp) resource.TestStep {
		return resource.TestStep{Config: config, ResourceName: importAddr, ImportState: true, ImportStateId: id, ExpectError: want}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			step("12", acctest.ExpectErrorParts("Invalid import id", "<list_id>/<type>/<import_id>/<batch_id>", `got "12"`)),
			step(list+"/MERGE/1/2", acctest.ExpectErrorParts("Invalid import id", `"MERGE" is not an import type`)),
			step(list+"/ADD/1/999999", acctest.ExpectErrorParts("Cannot import non-existent remote object")),
		},
	})
}
