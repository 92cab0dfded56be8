package contactsync

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
)

// utf16Bytes encodes s as UTF-16 with a byte order mark, by hand (not with
// the decoder's own package), in the given byte order.
func utf16Bytes(s string, order binary.AppendByteOrder, bom []byte) string {
	b := append([]byte{}, bom...)
	for _, u := range utf16.Encode([]rune(s)) {
		b = order.AppendUint16(b, u)
	}
	return string(b)
}

// TestParseSourceFileEncodings: a source file in each encoding the service
// imports reads as the same contacts, non-ASCII names included. The bytes
// are written by hand: 0x80 and 0x9C are "€" and "œ" in Windows-1252 but
// C1 controls in ISO-8859-1, so the two single-byte encodings are told apart.
func TestParseSourceFileEncodings(t *testing.T) {
	const text = "originalId;firstname;lastname\nzoe;Zoë;Ångström\n"
	want := FileContacts{Columns: []string{"firstname", "lastname"}, Contacts: []Desired{
		{ID: "zoe", Props: map[string]string{"firstname": "Zoë", "lastname": "Ångström"}},
	}}
	cases := []struct {
		name, encoding, file string
		want                 FileContacts
	}{
		{name: "UTF16 little endian with BOM", encoding: "UTF16", file: utf16Bytes(text, binary.LittleEndian, []byte{0xFF, 0xFE}), want: want},
		{name: "UTF16 big endian with BOM", encoding: "UTF16", file: utf16Bytes(text, binary.BigEndian, []byte{0xFE, 0xFF}), want: want},
		{name: "ISO-8859-1", encoding: "ISO-8859-1", file: "originalId;firstname;lastname\nzoe;Zo\xeb;\xc5ngstr\xf6m\n", want: want},
		{
			name: "ANSI (Windows-1252)", encoding: "ANSI", file: "originalId;firstname;lastname\nzoe;Zo\xeb \x80;\x9cuvre\n",
			want: FileContacts{Columns: []string{"firstname", "lastname"}, Contacts: []Desired{
				{ID: "zoe", Props: map[string]string{"firstname": "Zoë €", "lastname": "œuvre"}},
			}},
		},
		{
			name: "ISO-8859-1 keeps 0x80 a control character", encoding: "ISO-8859-1", file: "originalId;firstname;lastname\nzoe;Zo\xeb \x80;\x9cuvre\n",
			want: FileContacts{Columns: []string{"firstname", "lastname"}, Contacts: []Desired{
				{ID: "zoe", Props: map[string]string{"firstname": "Zoë \u0080", "lastname": "\u009cuvre"}},
			}},
		},
		{name: "UTF8 with BOM", encoding: "UTF8", file: "\ufeff" + text, want: want},
	}
	nameOf := fakeAttributes{"3": "firstname", "4": "lastname"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseSourceFile(context.Background(), strings.NewReader(c.file), FileOptions{Delimiter: ";", Encoding: c.encoding}, nameOf)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, fileContactsOf(got)); diff != "" {
				t.Errorf("parsed (-want +got):\n%s", diff)
			}
		})
	}
}
