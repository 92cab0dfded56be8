package client

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIDUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    ID
		wantErr bool
	}{
		{in: `42`, want: "42"},
		{in: `"42"`, want: "42"},
		{in: `"imp-7"`, want: "imp-7"},
		{in: `""`, want: ""},
		{in: `null`, want: ""},
		{in: `0`, want: "0"},
		{in: `9223372036854775807`, want: "9223372036854775807"},
		{in: `123456789012345678901234567890`, want: "123456789012345678901234567890"},
		{in: ` 7 `, want: "7"},
		{in: `"\u00e9"`, want: "é"},
		{in: `true`, wantErr: true},
		{in: `{}`, wantErr: true},
		{in: `[1]`, wantErr: true},
		{in: `"unterminated`, wantErr: true},
	}
	for _, tt := range tests {
		id := ID("previous")
		err := id.UnmarshalJSON([]byte(tt.in))
		if tt.wantErr {
			if err == nil {
				t.Errorf("UnmarshalJSON(%s) = %q, want an error", tt.in, id)
			}
			continue
		}
		if err != nil || id != tt.want {
			t.Errorf("UnmarshalJSON(%s) = %q, %v; want %q", tt.in, id, err, tt.want)
		}
	}
}

func TestIDInDocuments(t *testing.T) {
	var got struct {
		ID      ID   `json:"id"`
		BatchID ID   `json:"batchId"`
		Others  []ID `json:"others"`
		Missing ID   `json:"missing"`
	}
	doc := `{"id": 18446744073709551617, "batchId": "12", "others": [1, "2", null]}`
	if err := json.Unmarshal([]byte(doc), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]ID{"18446744073709551617", "12", "", "1", "2", ""},
		append([]ID{got.ID, got.BatchID, got.Missing}, got.Others...)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if got.ID.String() != "18446744073709551617" {
		t.Errorf("String() = %q", got.ID.String())
	}
	// Encoding writes the string form, which is what state and paths use.
	b, err := json.Marshal(got.BatchID)
	if err != nil || string(b) != `"12"` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
}
