package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// oldPropertyValues is PropertyValues as it was read before the one-pass
// scanner: the reference the scanner must agree with.
type oldPropertyValues map[string]string

func (p *oldPropertyValues) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("decoding contact properties: %w", err)
	}
	if raw == nil {
		*p = nil
		return nil
	}
	out := make(oldPropertyValues, len(raw))
	for k, v := range raw {
		v = bytes.TrimSpace(v)
		switch {
		case bytes.Equal(v, []byte("null")):
			continue
		case len(v) > 0 && v[0] == '"':
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("decoding contact property %q: %w", k, err)
			}
			out[k] = s
		default:
			out[k] = string(v)
		}
	}
	*p = out
	return nil
}

// refContact is ListedContact read by encoding/json alone.
type refContact struct {
	OriginalID   string            `json:"originalId"`
	Properties   oldPropertyValues `json:"properties"`
	Status       string            `json:"status"`
	MobileStatus string            `json:"mobileStatus"`
}

func (r refContact) listed() ListedContact {
	return ListedContact{OriginalID: r.OriginalID, Properties: PropertyValues(r.Properties), Status: r.Status, MobileStatus: r.MobileStatus}
}

func TestPropertyValuesUnmarshal(t *testing.T) {
	tests := []struct {
		in      string
		want    PropertyValues
		wantErr string
	}{
		{in: `{"email":"a@example.com","age":42,"vip":true,"gone":null}`, want: PropertyValues{"email": "a@example.com", "age": "42", "vip": "true"}},
		{in: ` { "1" : "x" , "2":-1.5e3 } `, want: PropertyValues{"1": "x", "2": "-1.5e3"}},
		{in: `{}`, want: PropertyValues{}},
		{in: `null`, want: nil},
		{in: `{"a":"x","a":null}`, want: PropertyValues{}},
		{in: `{"a":null,"a":"x"}`, want: PropertyValues{"a": "x"}},
		{in: `{"name":"Ren\u00e9e \"R\"","caf\u00e9":"ü"}`, want: PropertyValues{"name": `Renée "R"`, "café": "ü"}},
		{in: "{\"a\":\"\xff\"}", want: PropertyValues{"a": "\ufffd"}},
		{in: `{"tags":["a", "b"],"o":{"k": 1}}`, want: PropertyValues{"tags": `["a", "b"]`, "o": `{"k": 1}`}},
		{in: `{"a":01}`, wantErr: "decoding contact properties"},
		{in: `{"a":"x",}`, wantErr: "decoding contact properties"},
		{in: `{"a":tru}`, wantErr: "decoding contact properties"},
		{in: `{"a":nullx}`, wantErr: "decoding contact properties"},
		{in: `{"a":"x"} {}`, wantErr: "decoding contact properties"},
		{in: `["a"]`, wantErr: "decoding contact properties"},
		{in: `"a"`, wantErr: "decoding contact properties"},
		{in: ``, wantErr: "decoding contact properties"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got PropertyValues
			err := got.UnmarshalJSON([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

// The statuses the service names are the package's constants, not copies.
func TestListedContactInternsStatuses(t *testing.T) {
	for _, in := range []string{
		`{"originalId":"a","status":"SUBSCRIBED","mobileStatus":"UNSUBSCRIBED"}`,
		`{"originalId":"\u0061","status":"SUBSCRIBED","mobileStatus":"UNSUBSCRIBED","x":{"y":[1,2]}}`,
		`{"originalId":"a","Status":"SUBSCRIBED","mobileStatus":"UNSUBSCRIBED"}`, // encoding/json's path
	} {
		c, err := decodeListedContact([]byte(in), internKeys{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Status != StatusSubscribed || unsafe.StringData(c.Status) != unsafe.StringData(StatusSubscribed) {
			t.Errorf("%s: status %q is a copy", in, c.Status)
		}
		if c.MobileStatus != StatusUnsubscribed || unsafe.StringData(c.MobileStatus) != unsafe.StringData(StatusUnsubscribed) {
			t.Errorf("%s: mobile status %q is a copy", in, c.MobileStatus)
		}
	}
}

// The keys of a listing's properties are shared by its contacts.
func TestListedContactInternsKeys(t *testing.T) {
	keys := internKeys{}
	a, _ := decodeListedContact([]byte(`{"originalId":"a","properties":{"email":"x"}}`), keys, nil)
	b, _ := decodeListedContact([]byte(`{"originalId":"b","properties":{"email":"y"}}`), keys, nil)
	var ka, kb string
	for k := range a.Properties {
		ka = k
	}
	for k := range b.Properties {
		kb = k
	}
	if ka != "email" || unsafe.StringData(ka) != unsafe.StringData(kb) {
		t.Errorf("keys %q and %q are copies", ka, kb)
	}
}

var propertySeeds = []string{
	`{"email":"a@example.com","age":42,"vip":true,"gone":null}`,
	`{"a":"x","a":null}`, `null`, `{}`, ` {"1" : "\u00e9\n" } `, `{"t":[1,{"a":null}]}`,
	"{\"\xff\":\"\xfe\"}", `{"a":-0.0E+1}`, `{"a":1}x`, `[]`, `{"a":"\ud800"}`,
}

// FuzzPropertyValues: the one-pass reader gives what the reader before it
// gave, result and error alike.
func FuzzPropertyValues(f *testing.F) {
	for _, s := range propertySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var got PropertyValues
		var want oldPropertyValues
		gotErr, wantErr := got.UnmarshalJSON(b), want.UnmarshalJSON(b)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: err = %v, the old reader's %v", b, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(got, PropertyValues(want)) {
			t.Fatalf("%q: got %#v, the old reader's %#v", b, got, want)
		}
	})
}

// FuzzListedContact: a contact reads as encoding/json reads it.
func FuzzListedContact(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"originalId":"a","properties":{"email":"x","n":1},"status":"SUBSCRIBED","mobileStatus":"X","dateCreated":"2026-11-22T10:00:00Z"}`,
		`{"originalId":null,"status":null,"properties":null,"_links":{"self":[{"href":"/x"}]},"tags":["a"]}`,
		`{"ORIGINALID":"a"}`, `{"originalId":1}`, `{"originalId":"a","originalId":"b"}`, `null`, `{}`, `{"a":[[[[]]]]}`,
		`{"originalId":"a\u0062"}`, `{"x":1e}`, `{"properties":[]}`,
		`{"properties":{"a":"1","b":"2","a":null,"b":"3","c":null}}`, `{"properties":{"a":"1"},"properties":{"b":"2"}}`,
		`{"properties":{"a":"1"},"properties":null}`, `{"properties":{"a":"\u0031","b":"2"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, gotErr := decodeListedContact(b, internKeys{}, nil)
		var ref refContact
		wantErr := json.Unmarshal(b, &ref)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: err = %v, encoding/json's %v", b, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(got, ref.listed()) {
			t.Fatalf("%q: got %#v, encoding/json's %#v", b, got, ref.listed())
		}
		// By pairs: the same contact, its properties as pairs, after
		// what an earlier contact left in the arena.
		arena := []PropertyPair{{Key: "earlier", Value: "x"}}
		byPairs, pairsErr := decodeListedContact(b, internKeys{}, &arena)
		if (pairsErr == nil) != (gotErr == nil) {
			t.Fatalf("%q: by pairs err = %v, by map %v", b, pairsErr, gotErr)
		}
		if gotErr != nil {
			return
		}
		if arena[0] != (PropertyPair{Key: "earlier", Value: "x"}) {
			t.Fatalf("%q: an earlier contact's pair became %v", b, arena[0])
		}
		if byPairs.Properties != nil {
			t.Fatalf("%q: by pairs, Properties = %v", b, byPairs.Properties)
		}
		if !samePairs(byPairs.Pairs, got.Properties) || (byPairs.Pairs == nil) != (got.Properties == nil) {
			t.Fatalf("%q: pairs %#v, properties %#v", b, byPairs.Pairs, got.Properties)
		}
		byPairs.Pairs, got.Properties = nil, nil
		if !reflect.DeepEqual(byPairs, got) {
			t.Fatalf("%q: by pairs %#v, by map %#v", b, byPairs, got)
		}
	})
}

// FuzzContactArray: an answer reads as encoding/json's decoder reads it,
// however it is cut into reads.
func FuzzContactArray(f *testing.F) {
	for _, s := range []string{
		`[{"originalId":"a","properties":{"e":"x"}},{"originalId":"b"}]`, `[]`, `null`, ` [ null , {} ] `,
		`[{"originalId":"a"}] trailing`, `[{"originalId":"a"},]`, `[1]`, `{"a":1}`, `[{"originalId":"a"}`, ``, `["]"]`,
		`[{"originalId":"a\"}","properties":{"e":"x\\","f":"\\\"]"}}]`, `["\\"]`, `["a\\\""]`,
	} {
		f.Add([]byte(s), uint8(3), uint8(2))
	}
	f.Fuzz(func(t *testing.T, b []byte, readSize, chunk uint8) {
		a := newContactArray(&shortReader{b: b, n: int(readSize%16) + 1}, internKeys{}, testPageHash())
		a.buf = make([]byte, 8) // grows as elements need
		size := int(chunk%4) + 1
		var got []ListedContact
		err := a.open()
		if err == nil {
			var last []ListedContact
			last, _, err = a.chunks(size, func(c []ListedContact) error {
				if len(c) != size {
					t.Fatalf("a chunk of %d, want %d", len(c), size)
				}
				got = append(got, c...)
				return nil
			})
			got = append(got, last...)
		}
		var ref []refContact
		wantErr := json.NewDecoder(bytes.NewReader(b)).Decode(&ref)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%q: err = %v, encoding/json's %v", b, err, wantErr)
		}
		if err != nil {
			return
		}
		want := make([]ListedContact, 0, len(ref))
		for _, r := range ref {
			want = append(want, r.listed())
		}
		if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) {
			t.Fatalf("%q: got %#v, encoding/json's %#v", b, got, want)
		}
		// By pairs, each contact holds what its map holds, however the
		// chunks' arenas were shared.
		p := newContactArray(&shortReader{b: b, n: int(readSize%16) + 1}, internKeys{}, testPageHash())
		p.buf, p.pairs = make([]byte, 8), true
		var byPairs []ListedContact
		err = p.open()
		if err == nil {
			var last []ListedContact
			last, _, err = p.chunks(size, func(c []ListedContact) error {
				byPairs = append(byPairs, c...)
				return nil
			})
			byPairs = append(byPairs, last...)
		}
		if err != nil || len(byPairs) != len(got) {
			t.Fatalf("%q: by pairs %d contacts, error %v; by map %d", b, len(byPairs), err, len(got))
		}
		for i := range got {
			if !samePairs(byPairs[i].Pairs, got[i].Properties) || byPairs[i].Properties != nil || (byPairs[i].Pairs == nil) != (got[i].Properties == nil) {
				t.Fatalf("%q: contact %d by pairs %v, by map %v", b, i, byPairs[i].Pairs, got[i].Properties)
			}
		}
	})
}

// shortReader hands out at most n bytes a read.
type shortReader struct {
	b []byte
	n int
}

func (r *shortReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.n)], r.b)
	r.b = r.b[n:]
	return n, nil
}

// stringEnd finds a string's closing quote past any escaped quotes and
// escaped backslashes, and reports a string cut short.
func TestStringEnd(t *testing.T) {
	tests := []struct {
		in   string
		end  int
		done bool
	}{
		{`"abc",`, 5, true},
		{`""`, 2, true},
		{`"a\"b"x`, 6, true},
		{`"a\\"x`, 5, true},
		{`"a\\\"b"`, 8, true},
		{`"\\\\"`, 6, true},
		{`"abc`, 0, false},
		{`"a\"`, 0, false},
	}
	for _, tt := range tests {
		end, done := stringEnd([]byte(tt.in), 0)
		if end != tt.end || done != tt.done {
			t.Errorf("stringEnd(%s) = %d, %v; want %d, %v", tt.in, end, done, tt.end, tt.done)
		}
	}
}

// samePairs reports whether pairs hold each key of props once, with its
// value, and nothing else.
func samePairs(pairs []PropertyPair, props PropertyValues) bool {
	if len(pairs) != len(props) {
		return false
	}
	seen := map[string]bool{}
	for _, p := range pairs {
		if v, ok := props[p.Key]; !ok || v != p.Value || seen[p.Key] {
			return false
		}
		seen[p.Key] = true
	}
	return true
}
