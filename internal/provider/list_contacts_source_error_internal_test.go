package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// tokenOutageAttributes is an account whose attributes cannot be read
// because the OAuth 2.0 token endpoint is failing.
type tokenOutageAttributes struct{ offlineAttributes }

func (tokenOutageAttributes) AttributeOf(context.Context, string) (string, bool, error) {
	return "", false, &client.TokenError{URL: "https://auth.example.com/token", ClientID: "ci", StatusCode: 503}
}

// TestSourceFileError: a source file that cannot be read because the
// service (or its token endpoint) is away is reported as the attributes
// that could not be read, never as a broken file; a broken file still is.
func TestSourceFileError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "contacts.csv")
	if err := os.WriteFile(file, []byte("originalId,firstname\na,Ann\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		path        string
		attrs       contactsync.AttributeNames
		wantSummary string
		wantDetail  string
	}{
		{name: "token endpoint failing", path: file, attrs: tokenOutageAttributes{}, wantSummary: "Unable to read the account's contact attributes", wantDetail: "token endpoint"},
		{name: "service unreachable", path: file, attrs: offlineAttributes{}, wantSummary: "Unable to read the account's contact attributes", wantDetail: "connection refused"},
		{name: "file missing", path: filepath.Join(dir, "missing.csv"), attrs: offlineAttributes{}, wantSummary: "Unable to read the source file", wantDetail: "no file at"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := contactsync.ReadSourceFile(context.Background(), contactsync.FileOptions{Path: c.path}, c.attrs)
			if err == nil {
				t.Fatal("ReadSourceFile succeeded")
			}
			summary, detail := sourceFileError(err)
			if summary != c.wantSummary || !strings.Contains(detail, c.wantDetail) {
				t.Errorf("sourceFileError(%v) = %q, %q; want %q with %q", err, summary, detail, c.wantSummary, c.wantDetail)
			}
		})
	}
}
