package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// adoptionGuide is the adoption guide's source; docs/ holds it as generated.
const adoptionGuide = "templates/guides/bring-an-existing-account-under-terraform.md"

// guideBlock is one fenced code block of a guide: its language and text,
// and the way of the section it belongs to ("" when it belongs to every
// way).
type guideBlock struct {
	lang, text, way string
}

// guideSection is the fenced blocks of the section of the guide whose
// heading is heading, in order. A paragraph that starts with "On
// **Terraform 1.14" or "On **Terraform 1.11" opens one of two ways
// ("action", "function"), and a step heading ("**N. ...") closes it.
func guideSection(t *testing.T, guide, heading string) []guideBlock {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", guide))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	start := strings.Index(text, "\n"+heading+"\n")
	if start < 0 {
		t.Fatalf("%s has no section %q", guide, heading)
	}
	text = text[start+len(heading)+2:]
	if end := strings.Index(text, "\n## "); end >= 0 {
		text = text[:end]
	}
	var (
		blocks []guideBlock
		way    string
		open   *guideBlock
	)
	for _, line := range strings.Split(text, "\n") {
		switch {
		case open != nil && line == "```":
			blocks = append(blocks, *open)
			open = nil
		case open != nil:
			open.text += line + "\n"
		case strings.HasPrefix(line, "```"):
			open = &guideBlock{lang: strings.TrimPrefix(line, "```"), way: way}
		case strings.HasPrefix(line, "On **Terraform 1.14"):
			way = "action"
		case strings.HasPrefix(line, "On **Terraform 1.11"):
			way = "function"
		case regexp.MustCompile(`^\*\*\d+\. `).MatchString(line):
			way = ""
		}
	}
	if open != nil {
		t.Fatalf("a code block of %q in %s is not closed", heading, guide)
	}
	return blocks
}

// wasNull is a line of a guide's block that sets an attribute the
// generated configuration left null.
var wasNull = regexp.MustCompile(`(?m)^\s*(\w+)\s*=\s*(.+?)\s*# was null$`)

// followGuide carries out a guide's blocks of one way in a workspace, as a
// reader would: a terraform block whose first line names a file ("#
// export.tf") is written there, or, when it only shows attributes to set
// in a generated block ("# was null"), sets them there; a shell block's
// commands run in order (terraform, with -no-color, -auto-approve for an
// apply and -detailed-exitcode for a plan; a redirection to a file; rm).
// A command's comment that says it "fails" expects it to fail, every other
// must succeed, and the text its comment quotes must be in its output.
// The list id 42 of the guide is the emulator's list. It returns the
// output of each command, in order, and its exit code.
func followGuide(t *testing.T, ws *acctest.Workspace, blocks []guideBlock, way, listID string) (outs []string, codes []int) {
	t.Helper()
	id := regexp.MustCompile(`\b42\b`)
	for _, b := range blocks {
		if b.way != "" && b.way != way {
			continue
		}
		text := id.ReplaceAllString(b.text, listID)
		switch b.lang {
		case "terraform":
			first, _, _ := strings.Cut(text, "\n")
			name, ok := strings.CutPrefix(first, "# ")
			if !ok || !strings.HasSuffix(name, ".tf") {
				t.Fatalf("a terraform block of the guide does not say which file it is (# name.tf on its first line):\n%s", text)
			}
			sets := wasNull.FindAllStringSubmatch(text, -1)
			if len(sets) == 0 {
				ws.Write(name, text)
				continue
			}
			src, err := os.ReadFile(ws.Path(name))
			if err != nil {
				t.Fatalf("the guide sets attributes in %s, which is not there: %v", name, err)
			}
			for _, set := range sets {
				at := regexp.MustCompile(`(?m)^(\s*` + set[1] + `\s*=\s*)null$`)
				if !at.Match(src) {
					t.Fatalf("%s has no %s = null for the guide to set:\n%s", name, set[1], src)
				}
				src = at.ReplaceAll(src, []byte("${1}"+strings.ReplaceAll(set[2], "$", "$$")))
			}
			ws.Write(name, string(src))
		case "shell":
			for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
				cmd, ok := strings.CutPrefix(line, "$ ")
				if !ok {
					t.Fatalf("a line of a shell block of the guide is no command: %q", line)
				}
				cmd, comment, _ := strings.Cut(cmd, " #")
				args := strings.Fields(cmd)
				var to string
				if n := len(args); n > 2 && args[n-2] == ">" {
					args, to = args[:n-2], args[n-1]
				}
				switch args[0] {
				case "rm":
					for _, f := range args[1:] {
						if err := os.Remove(ws.Path(f)); err != nil {
							t.Fatalf("%s: %v", line, err)
						}
					}
					continue
				case "terraform":
				default:
					t.Fatalf("the guide runs %q, which this test cannot follow", line)
				}
				// Options go before the arguments (terraform output NAME).
				opts := []string{args[1], "-no-color"}
				switch args[1] {
				case "apply":
					opts = append(opts, "-auto-approve")
				case "plan":
					opts = append(opts, "-detailed-exitcode")
				}
				args = append(opts, args[2:]...)
				out, code := ws.Run(args...)
				t.Logf("$ terraform %s: exit %d", strings.Join(args, " "), code)
				fails := strings.Contains(comment, "fails")
				if fails != (code != 0) {
					t.Fatalf("%s exited %d; the guide says it %s:\n%s", line, code, map[bool]string{true: "fails", false: "succeeds"}[fails], out)
				}
				for _, q := range regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(comment, -1) {
					if !strings.Contains(out, q[1]) {
						t.Errorf("the output of %s does not say %q, as the guide does:\n%s", line, q[1], out)
					}
				}
				if to != "" {
					ws.Write(to, out)
				}
				outs, codes = append(outs, out), append(codes, code)
			}
		default:
			t.Fatalf("the guide has a %q block this test cannot follow:\n%s", b.lang, text)
		}
	}
	return outs, codes
}

// The adoption guide's section "A list of more than 1,000 contacts",
// followed as written (blocks and commands read from the guide), takes a
// list of 1,001 contacts under management in one apply, either way of
// writing its file: the last command is a plan with no changes, nothing
// is written to the service, and the warning "List adopted without its
// contacts" is shown by the plan of the generated block, which has no
// source_file, and by no command after source_file is set.
func TestAccAdoptionGuideLargeList(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	blocks := guideSection(t, adoptionGuide, "## A list of more than 1,000 contacts")
	for _, way := range []string{"function", "action"} {
		t.Run(way, func(t *testing.T) {
			if way == "action" {
				acctest.RequireCLI(t, "actions", "1.14.0", "")
			}
			t.Parallel()
			env := acctest.NewEnv(t, emulator.Options{})
			list := newTestList(t, env)
			seedNumbered(t, env, list, 1001, "c-%04d", "c%d@example.com", func(i int, c *emulator.Contact) {
				switch i % 3 {
				case 1:
					c.Properties["firstname"] = "Ada"
				case 2:
					c.Status = "UNSUBSCRIBED"
				}
			})
			before := listContactsOf(t, env, list)
			writes := env.Emulator.Requests().ByMethod

			ws := acctest.NewWorkspace(t)
			ws.Configure(env, "")
			outs, codes := followGuide(t, ws, blocks, way, list)

			if n := len(outs); n < 3 || !strings.Contains(outs[n-1], "No changes.") || codes[n-1] != 0 {
				t.Fatalf("the guide does not end with a plan that has no changes (%d commands); the last said:\n%s", n, outs[len(outs)-1])
			}
			const warning = "List adopted without its contacts"
			if !strings.Contains(outs[0], warning) || !strings.Contains(outs[0], "1001 contacts") {
				t.Errorf("the plan of the generated block does not warn %q with the list's size:\n%s", warning, outs[0])
			}
			for i, out := range outs[1:] {
				if strings.Contains(out, warning) {
					t.Errorf("command %d, after source_file is set, still warns %q:\n%s", i+2, warning, out)
				}
			}
			after := env.Emulator.Requests().ByMethod
			for _, m := range []string{"POST", "PUT", "PATCH", "DELETE"} {
				if d := after[m] - writes[m]; d != 0 {
					t.Errorf("following the guide sent %d %s requests; it must write nothing", d, m)
				}
			}
			now := listContactsOf(t, env, list)
			for id, c := range before {
				if got := now[id]; got.Status != c.Status || fmt.Sprint(got.Properties) != fmt.Sprint(c.Properties) {
					t.Errorf("following the guide changed %s: %+v, was %+v", id, got, c)
					break
				}
			}
			if _, err := os.Stat(ws.Path("export.tf")); !os.IsNotExist(err) {
				t.Errorf("export.tf is still there after the guide's steps: %v", err)
			}
			state, code := ws.Run("state", "list")
			if code != 0 || !strings.Contains(state, "rms_list_contacts.newsletter") || strings.Contains(state, "data.") {
				t.Errorf("the state after the guide's steps is not the list's contacts alone (exit %d):\n%s", code, state)
			}
		})
	}
}
