package provider_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

const (
	importAddr  = "rms_list_import.test"
	routeUpload = "POST /rest/{customerid}/lists/{listId}/recipients/{id}"
)

// importList creates a list out of band and returns its id.
func importList(t *testing.T, env *acctest.Env) string {
	t.Helper()
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Imported"}, &list)
	return fmt.Sprint(list["id"])
}

// seedContacts puts contacts into a list through the emulator's Go API.
func seedContacts(t *testing.T, env *acctest.Env, listID string, contacts ...emulator.Contact) {
	t.Helper()
	id, _ := strconv.ParseInt(listID, 10, 64)
	if err := env.Emulator.UpsertContacts(id, contacts); err != nil {
		t.Fatal(err)
	}
}

// listContacts reads a list's contacts as the service holds them, each as
// "key=value ... STATUS" with the keys sorted.
func listContacts(t *testing.T, env *acctest.Env, listID string) map[string]string {
	t.Helper()
	var cs []struct {
		OriginalID string            `json:"originalId"`
		Properties map[string]string `json:"properties"`
		Status     string            `json:"status"`
	}
	env.MustDo(t, "GET", "lists/"+listID+"/contacts?pageSize=1000", nil, &cs)
	out := map[string]string{}
	for _, c := range cs {
		keys := make([]string, 0, len(c.Properties))
		for k := range c.Properties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%s ", k, c.Properties[k])
		}
		b.WriteString(c.Status)
		out[c.OriginalID] = b.String()
	}
	return out
}

func wantContacts(t *testing.T, env *acctest.Env, listID string, want map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if diff := cmp.Diff(want, listContacts(t, env, listID)); diff != "" {
			return fmt.Errorf("contacts of list %s (-want +got):\n%s", listID, diff)
		}
		return nil
	}
}

func uploads(env *acctest.Env) int64 { return env.Emulator.Requests().ByRoute[routeUpload] }

func wantUploads(t *testing.T, env *acctest.Env, want int64) {
	t.Helper()
	if got := uploads(env); got != want {
		t.Errorf("the emulator received %d uploads, want %d", got, want)
	}
}

// importConfig is an rms_list_import; extra lines go inside the block.
func importConfig(listID, typ string, extra ...string) string {
	body := fmt.Sprintf("  list_id = %q\n  type    = %q\n", listID, typ)
	for _, e := range extra {
		body += "  " + e + "\n"
	}
	return "resource \"rms_list_import\" \"test\" {\n" + body + "}\n"
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestAccListImportResource_add(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	seedContacts(t, env, list, emulator.Contact{OriginalID: "c1", Properties: map[string]string{"firstname": "Old", "lastname": "Kept"}})
	dir := t.TempDir()
	file := filepath.Join(dir, "contacts.csv")
	v1 := "originalId,email,firstname\nc1,,Ada\nc2,grace@example.com,Grace\nbroken,row\n"
	v2 := "originalId,email,firstname\nc3,linus@example.com,Linus\n"
	config := func(path, run string) string {
		// v1's broken row is refused by the service: allowed here
		// (list_import_failed_rows_test.go tests the limit).
		return env.Config(importConfig(list, "ADD", fmt.Sprintf("file = %q", path), fmt.Sprintf("triggers = { run = %q }", run), "max_failed_rows = 1"))
	}
	var importID, batchID string
	keep := func(s *terraform.State) {
		importID, batchID = importAttr(s, "import_id"), importAttr(s, "batch_id")
	}
	sameImport := func(s *terraform.State) error {
		if got := importAttr(s, "batch_id"); got != batchID {
			return fmt.Errorf("batch_id %s, want %s: the file was imported again", got, batchID)
		}
		return nil
	}

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				PreConfig: func() { mustWrite(t, file, v1) },
				Config:    config(file, "1"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("total"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("processed"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("affected"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("failed"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("delimiter"), knownvalue.StringExact(",")),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("encoding"), knownvalue.StringExact("UTF8")),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte(v1)))),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("import_id"), knownvalue.StringRegexp(numericPattern)),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("batch_id"), knownvalue.StringRegexp(numericPattern)),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("started_at"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("finished_at"), knownvalue.NotNull()),
					statecheck.CompareValuePairs(importAddr, tfjsonpath.New("id"), importAddr, tfjsonpath.New("import_id"), compare.ValuesSame()),
				},
				Check: resource.ComposeTestCheckFunc(func(s *terraform.State) error { keep(s); return nil }, wantContacts(t, env, list, map[string]string{
					"c1": "firstname=Ada lastname=Kept SUBSCRIBED", // merged; the empty e-mail cell changed nothing
					"c2": "email=grace@example.com firstname=Grace SUBSCRIBED",
				})),
			},
			{ // the same content at another path: no new import
				PreConfig: func() { mustWrite(t, filepath.Join(dir, "moved.csv"), v1) },
				Config:    config(filepath.Join(dir, "moved.csv"), "1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(importAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(sameImport, func(*terraform.State) error { wantUploads(t, env, 1); return nil }),
			},
			{ // the file changed: planned as a replacement, imported again
				PreConfig: func() { mustWrite(t, file, v2) },
				Config:    config(file, "1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(importAddr, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectKnownValue(importAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte(v2)))),
				}},
				Check: resource.ComposeTestCheckFunc(
					func(s *terraform.State) error {
						if importAttr(s, "batch_id") == batchID {
							return fmt.Errorf("the changed file was not imported again")
						}
						wantUploads(t, env, 2)
						keep(s)
						return nil
					},
					wantContacts(t, env, list, map[string]string{
						"c1": "firstname=Ada lastname=Kept SUBSCRIBED",
						"c2": "email=grace@example.com firstname=Grace SUBSCRIBED",
						"c3": "email=linus@example.com firstname=Linus SUBSCRIBED",
					})),
			},
			{ // triggers changed: imported again
				Config: config(file, "2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(importAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: func(s *terraform.State) error { wantUploads(t, env, 3); keep(s); return nil },
			},
			{ // import by <list_id>/<type>/<import_id>/<batch_id>
				ResourceName:      importAddr,
				ImportState:       true,
				ImportStateIdFunc: func(*terraform.State) (string, error) { return list + "/ADD/" + importID + "/" + batchID, nil },
				ImportStateVerify: true,
				// Only the configuration knows these; the next apply adopts them.
				ImportStateVerifyIgnore: []string{"file", "content_sha256", "delimiter", "encoding", "triggers", "timeouts", "max_failed_rows", "planned_changes"},
			},
		},
	})
}

// importAttr reads an attribute of the import from state.
func importAttr(s *terraform.State, name string) string {
	return s.RootModule().Resources[importAddr].Primary.Attributes[name]
}

func TestAccListImportResource_replaceAndUnsubscribe(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	seedContacts(t, env, list,
		emulator.Contact{OriginalID: "a@example.com", Properties: map[string]string{"email": "a@example.com", "firstname": "A"}},
		emulator.Contact{OriginalID: "b@example.com", Properties: map[string]string{"email": "b@example.com", "firstname": "B"}},
		emulator.Contact{OriginalID: "c@example.com", Properties: map[string]string{"email": "c@example.com", "firstname": "C"}},
	)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // UNSUBSCRIBE by the e-mail column; other columns are ignored
				Config: env.Config(importConfig(list, "UNSUBSCRIBE", `identity_column = "email"`, `delimiter = ";"`,
					heredocContent("email;reason", "a@example.com;moved away", "nobody@example.com;unknown"))),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("affected"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("processed"), knownvalue.Int64Exact(2)),
				},
				Check: wantContacts(t, env, list, map[string]string{
					"a@example.com": "email=a@example.com firstname=A UNSUBSCRIBED",
					"b@example.com": "email=b@example.com firstname=B SUBSCRIBED",
					"c@example.com": "email=c@example.com firstname=C SUBSCRIBED",
				}),
			},
			{ // REPLACE: the file's contacts become the list
				Config: env.Config(importConfig(list, "REPLACE", `identity_column = "email"`,
					heredocContent("email,firstname", "a@example.com,Ann", "d@example.com,Dee"))),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(importAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("affected"), knownvalue.Int64Exact(2)),
				},
				Check: wantContacts(t, env, list, map[string]string{
					"a@example.com": "email=a@example.com firstname=Ann UNSUBSCRIBED", // kept, with its state
					"d@example.com": "email=d@example.com firstname=Dee SUBSCRIBED",
				}),
			},
		},
	})
}

// Non-ASCII names survive each encoding, written in the test with
// golang.org/x/text; the tab-delimited case sends delimiter code 9.
func TestAccListImportResource_encodings(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	tests := []struct {
		name      string
		encoding  string
		encoder   encoding.Encoding
		delimiter string
		hcl       string // the delimiter as written in HCL
	}{
		{"UTF8", "UTF8", nil, ",", `","`},
		{"UTF8 tab-delimited", "UTF8", nil, "\t", `"\t"`},
		{"UTF16", "UTF16", unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), ";", `";"`},
		{"ISO-8859-1", "ISO-8859-1", charmap.ISO8859_1, ",", `","`},
		{"ANSI", "ANSI", charmap.Windows1252, ",", `","`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := acctest.NewEnv(t, emulator.Options{})
			list := importList(t, env)
			text := strings.Join([]string{
				strings.Join([]string{"email", "firstname", "lastname"}, tt.delimiter),
				strings.Join([]string{"asa@example.com", "Åsa", "Öberg"}, tt.delimiter),
				strings.Join([]string{"zoe@example.com", "Zoë", "Ångström"}, tt.delimiter),
			}, "\r\n") + "\r\n"
			raw := []byte(text)
			if tt.encoder != nil {
				var err error
				if raw, err = tt.encoder.NewEncoder().Bytes(raw); err != nil {
					t.Fatal(err)
				}
			}
			file := filepath.Join(t.TempDir(), "contacts.csv")
			if err := os.WriteFile(file, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config: env.Config(importConfig(list, "ADD", fmt.Sprintf("file = %q", file), `identity_column = "email"`,
						"delimiter = "+tt.hcl, fmt.Sprintf("encoding = %q", tt.encoding))),
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("affected"), knownvalue.Int64Exact(2)),
						statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(raw))),
					},
					Check: wantContacts(t, env, list, map[string]string{
						"asa@example.com": "email=asa@example.com firstname=Åsa lastname=Öberg SUBSCRIBED",
						"zoe@example.com": "email=zoe@example.com firstname=Zoë lastname=Ångström SUBSCRIBED",
					}),
				}},
			})
		})
	}
}

// pollClock is an emulator clock that stands still until armed, and jumps
// two hours once the batch has been polled a given number of times more:
// it lets a test finish a batch in the middle of an apply's wait, after the
// plan's refresh saw it unfinished, without depending on timing.
type pollClock struct {
	mu      sync.Mutex
	base    time.Time
	env     *acctest.Env
	armedAt int64 // jump once the batch GETs reach this count; 0: not armed
}

func (c *pollClock) Now() time.Time {
	c.mu.Lock()
	env, at := c.env, c.armedAt
	c.mu.Unlock()
	if at > 0 && env.Emulator.Requests().ByRoute[routeGetBatch] >= at {
		return c.base.Add(2 * time.Hour)
	}
	return c.base
}

// arm makes the clock jump at the n-th batch GET from now.
func (c *pollClock) arm(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armedAt = c.env.Emulator.Requests().ByRoute[routeGetBatch] + n
}

// A create whose wait times out keeps the batch (a warning). The next plan
// plans an in-place update, and its apply resumes waiting on the same batch
// (here it finishes during that wait) without uploading the file again.
func TestAccListImportResource_timeoutResumes(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	clock := &pollClock{base: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	clock.env = env
	list := importList(t, env)
	config := env.Config(importConfig(list, "ADD", heredocContent("originalId,firstname", "x,Xavier"), "timeouts {\n    create = \"2s\"\n  }"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:             config,
				ExpectNonEmptyPlan: true,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("status"), knownvalue.StringExact("PENDING")),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("batch_id"), knownvalue.StringRegexp(numericPattern)),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("finished_at"), knownvalue.Null()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(importAddr, plancheck.ResourceActionUpdate),
				}},
				Check: wantContacts(t, env, list, map[string]string{}),
			},
			{
				// The plan's refresh sees the batch PENDING; the apply's second
				// look sees it FINISHED.
				PreConfig: func() { clock.arm(3) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(importAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("affected"), knownvalue.Int64Exact(1)),
				},
				Check: resource.ComposeTestCheckFunc(
					wantContacts(t, env, list, map[string]string{"x": "firstname=Xavier SUBSCRIBED"}),
					func(*terraform.State) error { wantUploads(t, env, 1); return nil }),
			},
		},
	})
}

// heredocContent is a content attribute with the lines of a CSV.
func heredocContent(lines ...string) string {
	return "content = <<-CSV\n    " + strings.Join(lines, "\n    ") + "\n  CSV"
}
