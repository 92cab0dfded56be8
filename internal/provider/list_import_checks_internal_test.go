package provider

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// offlineAttributes is an account whose attributes cannot be read.
type offlineAttributes struct{}

func (offlineAttributes) NameOf(context.Context, string) (string, bool, error) {
	return "", false, errors.New("connection refused")
}

func (offlineAttributes) AttributeOf(context.Context, string) (string, bool, error) {
	return "", false, errors.New("connection refused")
}

func (offlineAttributes) Spelling(context.Context, string) (string, error) {
	return "", errors.New("connection refused")
}

func (offlineAttributes) Known(context.Context) ([]string, error) {
	return nil, errors.New("connection refused")
}

// TestCheckImportArgs: what the plan leaves to the apply (a file not made
// yet, attributes that cannot be read) the apply refuses before it creates
// the import; a file the rules refuse is refused at both.
func TestCheckImportArgs(t *testing.T) {
	t.Parallel()
	known := knownAttributes()
	args := func(file, content string) listImportArgs {
		a := listImportArgs{ListID: types.StringValue("5"), Type: types.StringValue("ADD"), File: types.StringNull(), Content: types.StringNull(),
			Delimiter: types.StringNull(), Encoding: types.StringNull(), IdentityColumn: types.StringNull()}
		if file != "" {
			a.File = types.StringValue(file)
		}
		if content != "" {
			a.Content = types.StringValue(content)
		}
		return a
	}
	missing := filepath.Join(t.TempDir(), "made-during-the-apply.csv")
	cases := []struct {
		name    string
		args    listImportArgs
		attrs   contactsync.AttributeNames
		atApply bool
		want    string // "" for no error
	}{
		{name: "good file", args: args("", "originalId,firstname\na,Ann\n"), attrs: known},
		{name: "unknown column at plan", args: args("", "originalId,shoe_size\na,42\n"), attrs: known, want: `Import file refused: column "shoe_size" names no contact attribute`},
		{name: "unknown column at apply", args: args("", "originalId,shoe_size\na,42\n"), attrs: known, atApply: true, want: `Import file refused: column "shoe_size"`},
		{name: "status column", args: args("", "originalId,email_status\na,SUBSCRIBED\n"), attrs: known, want: "Import file refused: column \"email_status\" is a subscription status column"},
		{name: "status column in an UNSUBSCRIBE import (columns unchecked)", args: args("", "originalId,email_status\na,SUBSCRIBED\n")},
		{name: "file not made yet, at plan", args: args(missing, ""), attrs: known},
		{name: "file missing at apply", args: args(missing, ""), attrs: known, atApply: true, want: "Unable to read the import file"},
		{name: "attributes unreadable at plan", args: args("", "originalId,firstname\na,Ann\n"), attrs: offlineAttributes{}},
		{name: "attributes unreadable at apply", args: args("", "originalId,firstname\na,Ann\n"), attrs: offlineAttributes{}, atApply: true, want: "Unable to read the account's contact attributes: reading the account's contact attributes: connection refused"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			checkImportArgs(context.Background(), c.args, c.attrs, c.atApply, &diags)
			var got string
			if diags.HasError() {
				got = diags.Errors()[0].Summary() + ": " + diags.Errors()[0].Detail()
			}
			switch {
			case c.want == "" && got != "":
				t.Fatalf("refused: %s", got)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Fatalf("diagnostic %q, want one containing %q", got, c.want)
			}
		})
	}
}
