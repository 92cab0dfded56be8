package provider_test

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Bad values are refused at plan time, before any export is started.
func TestAccStatisticsExportResource_badInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	cases := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"unknown export type": {
			config: exportConfig("BOUNCES", "TODAY"),
			want:   acctest.ExpectErrorParts("Invalid export_type", `"BOUNCES" is not allowed. Allowed values: LISTS, CAMPAIGNS, MESSAGES, OPENS, SENT, CLICKS, PROJECTS, HARD_BOUNCES, SOFT_BOUNCES, OPTOUTS.`),
		},
		"OPENED from the interface's sample": {
			config: exportConfig("OPENED", "TODAY"),
			want:   acctest.ExpectErrorParts("Invalid export_type", `"OPENED" is not allowed; use "OPENS"`),
		},
		"lower case": {
			config: exportConfig("opens", "TODAY"),
			want:   acctest.ExpectErrorParts("Invalid export_type", `"opens" is not allowed; use "OPENS"`),
		},
		"period LAST_MONTH": {
			config: exportConfig("OPENS", "LAST_MONTH"),
			want: acctest.ExpectErrorParts("Invalid period", `"LAST_MONTH" is not allowed. Allowed values: TODAY, LAST_DAY, LAST_3_DAYS, LAST_WEEK, LAST_2_WEEKS.`,
				"The service exports at most the last two weeks"),
		},
		"missing period": {
			config: `resource "rms_statistics_export" "test" { export_type = "OPENS" }`,
			want:   acctest.ExpectErrorParts(`The argument "period" is required`),
		},
		"empty output_path": {
			config: exportConfig("OPENS", "TODAY", `output_path = ""`),
			want:   acctest.ExpectErrorParts("output_path", "string length must be at least 1"),
		},
		"bad timeout": {
			config: exportConfig("OPENS", "TODAY", "timeouts {\n    create = \"soon\"\n  }"),
			want:   acctest.ExpectErrorParts("Invalid Attribute Value Time Duration", `create = "soon"`, "must be a string containing a sequence of decimal numbers"),
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
	t.Cleanup(func() { wantExportStarts(t, env, 0) })
}

// A path that cannot be written fails the apply with a diagnostic on
// output_path.
func TestAccStatisticsExportResource_unwritableOutputPath(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	notADir := filepath.Join(t.TempDir(), "file")
	mustWrite(t, notADir, "x")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      env.Config(exportConfig("PROJECTS", "TODAY", `output_path = "`+filepath.Join(notADir, "sub", "x.csv")+`"`)),
			ExpectError: acctest.ExpectErrorParts("Unable to download the exported file", "creating the directory of", "Check that the path can be written"),
		}},
	})
}

func TestAccStatisticsExportResource_importBadID(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	config := env.Config(exportConfig("PROJECTS", "TODAY"))
	step := func(id string, want *regexp.Regexp) resource.TestStep {
		return resource.TestStep{Config: config, ResourceName: exportAddr, ImportState: true, ImportStateId: id, ExpectError: want}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			step("12", acctest.ExpectErrorParts("Invalid import id", "as <batch_id>/<export_type>/<period>", `got "12"`)),
			step("x/OPENS/TODAY", acctest.ExpectErrorParts("Invalid import id", `got "x/OPENS/TODAY"`)),
			step("12/OPENED/TODAY", acctest.ExpectErrorParts("Invalid import id", `"OPENED" is not an allowed export type`)),
			step("12/OPENS/LAST_MONTH", acctest.ExpectErrorParts("Invalid import id", `"LAST_MONTH" is not an allowed period`)),
			step("999999/OPENS/TODAY", acctest.ExpectErrorParts("Cannot import non-existent remote object")),
		},
	})
}

func TestAccBatchDataSource_badInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	for name, tc := range map[string]struct {
		id   string
		want *regexp.Regexp
	}{
		"not a number": {"abc", acctest.ExpectErrorParts("must be a numeric batch id")},
		"unknown":      {"999999", acctest.ExpectErrorParts("Batch not found", `No batch has id "999999" in this account`)},
	} {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      env.Config(`data "rms_batch" "test" { id = "` + tc.id + `" }`),
					ExpectError: tc.want,
				}},
			})
		})
	}
}
