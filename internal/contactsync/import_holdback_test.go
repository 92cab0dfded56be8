package contactsync

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestSplitImport(t *testing.T) {
	attrs := LoadedAttributes(map[string]string{"1": "email", "2": "mobile", "3": "firstname"})
	// Suppressed: c2 by original id (e-mail), Eve by e-mail in any case
	// (both channels).
	suppressed := func(id, email string) (Channels, error) {
		switch {
		case id == "c2":
			return Channels{Email: true}, nil
		case NormalizeEmail(email) == "eve@example.com":
			return Channels{Email: true, Mobile: true}, nil
		}
		return Channels{}, nil
	}
	tests := map[string]struct {
		opts      FileOptions
		file      string
		wantHeld  []HeldRow
		wantKept  string
		userRowOf map[int]int // uploaded row -> user row
	}{
		"nothing held": {
			opts:      FileOptions{Delimiter: ",", Encoding: "UTF8"},
			file:      "originalId,email\nc1,a@example.com\n",
			wantKept:  "originalId,email\nc1,a@example.com\n",
			userRowOf: map[int]int{2: 2},
		},
		"held by id and by e-mail, bad rows kept": {
			opts: FileOptions{Delimiter: ";", Encoding: "UTF8"},
			file: "originalId;email;firstname\nc1;a@example.com;Ann\nc2;b@example.com;\nbad row\nc4; EVE@Example.com ;Eve\n;x@example.com;empty id\nc6;f@example.com;F\n",
			wantHeld: []HeldRow{
				{Row: 3, OriginalID: "c2", Properties: map[string]string{"email": "b@example.com"}, Channels: Channels{Email: true}},
				{Row: 5, OriginalID: "c4", Properties: map[string]string{"email": " EVE@Example.com ", "firstname": "Eve"}, Channels: Channels{Email: true, Mobile: true}},
			},
			wantKept:  "originalId;email;firstname\nc1;a@example.com;Ann\nbad row\n;x@example.com;empty id\nc6;f@example.com;F\n",
			userRowOf: map[int]int{1: 1, 2: 2, 3: 4, 4: 6, 5: 7},
		},
		"email as the identity column, by attribute id": {
			opts:      FileOptions{Delimiter: ",", Encoding: "UTF8", IdentityColumn: "1"},
			file:      "1,3\neve@example.com,Eve\nz@example.com,Zed\n",
			wantHeld:  []HeldRow{{Row: 2, OriginalID: "eve@example.com", Properties: map[string]string{"email": "eve@example.com", "firstname": "Eve"}, Channels: Channels{Email: true, Mobile: true}}},
			wantKept:  "1,3\nz@example.com,Zed\n",
			userRowOf: map[int]int{2: 3},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, err := SplitImport(context.Background(), strings.NewReader(tc.file), tc.opts, attrs, suppressed)
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Held) != len(tc.wantHeld) {
				t.Fatalf("held %+v, want %+v", h.Held, tc.wantHeld)
			}
			for i, want := range tc.wantHeld {
				got := h.Held[i]
				if got.Row != want.Row || got.OriginalID != want.OriginalID || got.Channels != want.Channels || len(got.Properties) != len(want.Properties) {
					t.Fatalf("held[%d] = %+v, want %+v", i, got, want)
				}
				for k, v := range want.Properties {
					if got.Properties[k] != v {
						t.Fatalf("held[%d] = %+v, want %+v", i, got, want)
					}
				}
			}
			var kept bytes.Buffer
			if err := h.WriteKept(strings.NewReader(tc.file), tc.opts, &kept); err != nil {
				t.Fatal(err)
			}
			if kept.String() != tc.wantKept {
				t.Fatalf("kept file %q, want %q", kept.String(), tc.wantKept)
			}
			for up, user := range tc.userRowOf {
				if got := h.UserRow(up); got != user {
					t.Errorf("UserRow(%d) = %d, want %d", up, got, user)
				}
			}
		})
	}
}

// A held-back file keeps its encoding: what WriteKept writes reads back,
// through the same decoding, as the kept rows.
func TestWriteKeptKeepsTheEncoding(t *testing.T) {
	attrs := LoadedAttributes(map[string]string{"1": "email", "3": "firstname"})
	suppressed := func(id, _ string) (Channels, error) { return Channels{Email: id == "c2"}, nil }
	for _, enc := range []string{"UTF8", "UTF16", "ISO-8859-1", "ANSI"} {
		t.Run(enc, func(t *testing.T) {
			text := "originalId,firstname\nc1,Zoë\nc2,Éric\nc3,\"Ann, \"\"A\"\"\"\n"
			var file bytes.Buffer
			w := encodedWriter(&file, enc)
			_, _ = w.Write([]byte(text))
			_ = w.Close()
			opts := FileOptions{Delimiter: ",", Encoding: enc}
			h, err := SplitImport(context.Background(), bytes.NewReader(file.Bytes()), opts, attrs, suppressed)
			if err != nil {
				t.Fatal(err)
			}
			var kept bytes.Buffer
			if err := h.WriteKept(bytes.NewReader(file.Bytes()), opts, &kept); err != nil {
				t.Fatal(err)
			}
			ids, err := ReadIdentities(bytes.NewReader(kept.Bytes()), opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) != 2 || !ids["c1"] || !ids["c3"] {
				t.Fatalf("kept file holds %v, want c1 and c3", ids)
			}
		})
	}
}
