package contactsync

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestCheckImportSource: the plan-time check of an import file, read one
// byte at a time too (a multi-byte character or a surrogate pair split
// across reads is still valid; the line of a bad byte is still right).
func TestCheckImportSource(t *testing.T) {
	long := strings.Repeat("r,Zoë 😀\n", 20000) // far past any buffer
	le := func(s string) string { return utf16Bytes(s, binary.LittleEndian, []byte{0xFF, 0xFE}) }
	be := func(s string) string { return utf16Bytes(s, binary.BigEndian, []byte{0xFE, 0xFF}) }
	cases := []struct {
		name, file string
		opts       FileOptions
		wantErr    string
	}{
		{name: "UTF8", file: "originalId,firstname\n" + long},
		{name: "UTF8 with BOM", file: "\ufefforiginalId,firstname\na,Zoë\n"},
		{name: "UTF8 invalid byte", file: "originalId,firstname\n" + long + "a,Ren\xe9e\n", opts: FileOptions{Path: "x.csv"}, wantErr: `the file "x.csv" is not valid UTF8: line 20002 holds`},
		{name: "UTF8 truncated character at the end", file: "originalId\na\xc3", wantErr: "not valid UTF8: line 2"},
		{name: "UTF8 invalid in the header", file: "original\xffId\n", wantErr: "not valid UTF8: line 1"},
		{name: "ISO-8859-1 accepts any byte", file: "originalId,lastname\na,M\xfcller\xff\n", opts: FileOptions{Encoding: "ISO-8859-1"}},
		{name: "ANSI accepts any byte", file: "originalId,lastname\na,\x80\x9c\n", opts: FileOptions{Encoding: "ANSI"}},
		{name: "UTF16 little endian", file: le("originalId,firstname\na,Zoë 😀\n"), opts: FileOptions{Encoding: "UTF16"}},
		{name: "UTF16 big endian", file: be("originalId,firstname\na,Zoë 😀\n"), opts: FileOptions{Encoding: "UTF16"}},
		{name: "UTF16 without BOM is little endian", file: le("originalId\na\n")[2:], opts: FileOptions{Encoding: "UTF16"}},
		{name: "UTF16 unpaired high surrogate", file: le("originalId\na\n") + "\x3d\xd8a\x00", opts: FileOptions{Encoding: "UTF16"}, wantErr: "not valid UTF16: line 3"},
		{name: "UTF16 lone low surrogate", file: be("originalId\n") + "\xdc\x00", opts: FileOptions{Encoding: "UTF16"}, wantErr: "not valid UTF16: line 2"},
		{name: "UTF16 odd length", file: le("originalId\na\n") + "x", opts: FileOptions{Encoding: "UTF16"}, wantErr: "not valid UTF16: line 3"},
		{name: "UTF16 advice", file: le("originalId\n") + "\x00\xdc", opts: FileOptions{Encoding: "UTF16"}, wantErr: `Set encoding to the encoding the file was saved in ("UTF8", "ISO-8859-1" or "ANSI")`},
		{name: "UTF8 file declared UTF16", file: "originalId\nab\n", opts: FileOptions{Encoding: "UTF16"}, wantErr: `no identity column "originalId"`},
		{name: "identity column", file: "email,firstname\na@x,A\n", opts: FileOptions{IdentityColumn: "email"}},
		{name: "identity column with blanks around", file: " email ;firstname\n", opts: FileOptions{IdentityColumn: "email", Delimiter: ";"}},
		{name: "no identity column", file: "email,firstname\n", wantErr: `the header row has no identity column "originalId" (its columns: email, firstname); set identity_column`},
		{name: "semicolons under the default delimiter", file: "originalId;email\na;a@x\n", wantErr: `no identity column "originalId" under delimiter "," (its columns: originalId;email); with delimiter = ";" it has: set delimiter = ";"`},
		{name: "commas under a pipe", file: "email,originalId\n", opts: FileOptions{Delimiter: "|"}, wantErr: `set delimiter = ","`},
		{name: "empty file", file: "", wantErr: "the file is empty"},
		{name: "two-character delimiter", file: "originalId\n", opts: FileOptions{Delimiter: "ab"}, wantErr: "one character"},
		{name: "identity column in another case", file: "OriginalId,firstname\n", wantErr: `the header row has no identity column "originalId": column "OriginalId" differs only in letter case (column names are matched exactly, in letter case too, as the service matches them); rename the column to "originalId", or set identity_column = "OriginalId"`},
	}
	for _, c := range cases {
		for _, oneByte := range []bool{false, true} {
			name := c.name
			if oneByte {
				name += " one byte at a time"
			}
			t.Run(name, func(t *testing.T) {
				var r io.Reader = strings.NewReader(c.file)
				if oneByte {
					r = iotest.OneByteReader(r)
				}
				err := CheckImportSource(context.Background(), r, c.opts, nil)
				switch {
				case c.wantErr == "" && err != nil:
					t.Fatalf("refused a good file: %v", err)
				case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
					t.Fatalf("error %v, want one containing %q", err, c.wantErr)
				}
			})
		}
	}
}

// TestDecodedReaderNoReplacement: a good file reads back exactly, in every
// encoding that checks its bytes.
func TestDecodedReaderNoReplacement(t *testing.T) {
	const text = "originalId,firstname\na,Zoë 😀 \ufffd kept as written\n"
	for enc, file := range map[string]string{
		"UTF8":  text,
		"UTF16": utf16Bytes(text, binary.LittleEndian, []byte{0xFF, 0xFE}),
	} {
		got, err := io.ReadAll(iotest.OneByteReader(decodedReader(iotest.HalfReader(strings.NewReader(file)), enc)))
		if err != nil {
			t.Fatalf("%s: %v", enc, err)
		}
		if string(got) != text {
			t.Errorf("%s: read %q, want %q", enc, got, text)
		}
	}
}

// TestCheckImportSourceColumns: with the account's attributes (an ADD or
// REPLACE import), the header passes the rules of rms_list_contacts'
// source_file: a column that differs from an attribute only in letter case
// is refused naming the right spelling, a column naming no attribute is
// refused naming the attributes that exist, an attribute is named once,
// and a status column, which the service's import does not have, is
// refused naming rms_list_contacts.
func TestCheckImportSourceColumns(t *testing.T) {
	known := fakeAttributes{"1": "email", "3": "firstname", "4": "lastname"}
	cases := []struct {
		name, file, identity, wantErr string
		attrs                         fakeAttributes // known when nil
	}{
		{name: "exact names", file: "originalId,email,firstname,4\n"},
		{name: "attribute by name and by id", file: "originalId,firstname,3\n", wantErr: `column "3" names attribute "firstname" a second time (column "firstname" names it too)`},
		{name: "identity is an attribute", file: "email,firstname\n", identity: "email"},
		{name: "attribute in another case", file: "originalId,Email\n", wantErr: `column "Email" names no contact attribute of the account; its attribute "email" differs only in letter case (column names are matched exactly, in letter case too, as the service matches them): rename the column to "email"`},
		{name: "identity column twice in two cases", file: "originalId,OriginalId\n", wantErr: `column "OriginalId" is not the identity column "originalId"`},
		{name: "no such attribute", file: "originalId,firstname,shoe_size\n", wantErr: `column "shoe_size" names no contact attribute of the account (its attributes: email, firstname, lastname); rename the column to one of them, remove it, or add the attribute to the account first`},
		{name: "no such attribute id", file: "originalId,99\n", wantErr: `column "99" names an attribute id the account does not have (its attributes: email, firstname, lastname)`},
		{name: "e-mail status column", file: "originalId,firstname,email_status\n", wantErr: `column "email_status" is a subscription status column, which the service's import does not have`},
		{name: "mobile status column names the alternatives", file: "originalId,mobile_status\n", wantErr: `use it as the source_file of rms_list_contacts, which sets them (and honours opt-outs); to unsubscribe the contacts of some rows, import their ids with type = "UNSUBSCRIBE"`},
		{name: "status column that is an attribute of the account", file: "originalId,email_status\n", attrs: fakeAttributes{"1": "email", "7": "email_status"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			attrs := known
			if c.attrs != nil {
				attrs = c.attrs
			}
			err := CheckImportSource(context.Background(), strings.NewReader(c.file), FileOptions{IdentityColumn: c.identity}, attrs)
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("refused a good header: %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, c.wantErr)
			}
		})
	}
}

// unreadableAttributes is an account whose attributes cannot be read.
type unreadableAttributes struct{}

func (unreadableAttributes) NameOf(context.Context, string) (string, bool, error) {
	return "", false, errors.New("503")
}

func (unreadableAttributes) AttributeOf(context.Context, string) (string, bool, error) {
	return "", false, errors.New("503")
}

func (unreadableAttributes) Spelling(context.Context, string) (string, error) {
	return "", errors.New("503")
}

func (unreadableAttributes) Known(context.Context) ([]string, error) {
	return nil, errors.New("503")
}

// TestCheckImportSourceAttributesUnreadable: attributes that cannot be read
// are told apart from a bad file (IsAttributesUnreadable), so that the
// plan can leave the columns to the apply's check, and the apply can stop
// before it creates an import.
func TestCheckImportSourceAttributesUnreadable(t *testing.T) {
	err := CheckImportSource(context.Background(), strings.NewReader("originalId,FirstName\na,A\n"), FileOptions{}, unreadableAttributes{})
	if !IsAttributesUnreadable(err) {
		t.Fatalf("error %v, want the attributes unreadable", err)
	}
}
