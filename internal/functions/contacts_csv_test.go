package functions

import (
	"strings"
	"testing"
)

// ContactsCSV writes source_file's format: originalId, the properties any
// contact has (sorted), the two status columns; rows sorted by originalId,
// empty cells for missing values and statuses, quoting where CSV needs it;
// and refuses what source_file could not read back.
func TestContactsCSV(t *testing.T) {
	cases := []struct {
		name     string
		contacts []CSVContact
		want     string
		wantErr  string
	}{
		{name: "empty list", want: "originalId,email_status,mobile_status\n"},
		{
			name: "columns and order",
			contacts: []CSVContact{
				{OriginalID: "b", Properties: map[string]string{"email": "b@example.com"}, EmailStatus: "UNSUBSCRIBED"},
				{OriginalID: "a", Properties: map[string]string{"firstname": "Ada", "email": "a@example.com"}, EmailStatus: "SUBSCRIBED", MobileStatus: "UNSUBSCRIBED"},
			},
			want: "originalId,email,firstname,email_status,mobile_status\n" +
				"a,a@example.com,Ada,SUBSCRIBED,UNSUBSCRIBED\n" +
				"b,b@example.com,,UNSUBSCRIBED,\n",
		},
		{
			name:     "quoting",
			contacts: []CSVContact{{OriginalID: "x,1", Properties: map[string]string{"note": "say \"hi\"\nthen go"}}},
			want:     "originalId,note,email_status,mobile_status\n\"x,1\",\"say \"\"hi\"\"\nthen go\",,\n",
		},
		{name: "reserved column", contacts: []CSVContact{{OriginalID: "a", Properties: map[string]string{"email_status": "x"}}}, wantErr: `property named "email_status"`},
		{name: "empty id", contacts: []CSVContact{{OriginalID: ""}}, wantErr: "empty originalId"},
		{name: "duplicate id", contacts: []CSVContact{{OriginalID: "a"}, {OriginalID: "a"}}, wantErr: `"a" appears twice`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ContactsCSV(tc.contacts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %q, %v; want an error containing %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
