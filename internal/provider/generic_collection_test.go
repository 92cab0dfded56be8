package provider

import (
	"strings"
	"testing"
)

func TestCheckCollection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string // "" means accepted; otherwise a part of the message
	}{
		{"campaigns", ""},
		{"auto", ""},
		{"scheduled", ""},
		{"lists/12/something", ""},
		{"campaigns/12/notes/7/parts", ""},
		{"", "must not be empty"},
		{"/campaigns", "must not start or end"},
		{"campaigns/", "must not start or end"},
		{"Features", "Features is an internal-only domain"},
		{"ftpaccounts", "FtpAccounts is an internal-only domain"},
		{"systemmessages/1/x", "Systemmessages is an internal-only domain"},
		{"batches", "rms_batch"},
		{"token", "does not follow the generic resource pattern"},
		{"Triggers", `must be written in lower case: "triggers"`},
		{"widgets", "is not a public domain"},
		{"campaigns/12", "ends with a parent id"},
		{"campaigns//notes", "empty or malformed segment"},
		{"campaigns/1/no tes", "empty or malformed segment"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got := checkCollection(tt.in)
			if tt.want == "" && got != "" {
				t.Errorf("refused: %s", got)
			}
			if tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("message %q does not contain %q", got, tt.want)
			}
		})
	}
}
