package contactsync

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Property keys written as attribute ids are resolved through the
// per-run attribute cache; after its one load, a lookup is a map read.
func BenchmarkAttributeNameOf(b *testing.B) {
	a := NewAttributes(nil)
	a.names = map[string]string{}
	for i := 1; i <= 50; i++ {
		a.names[fmt.Sprint(i)] = fmt.Sprintf("attribute%d", i)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, err := a.NameOf(ctx, "42"); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

func TestIsAttributeID(t *testing.T) {
	for key, want := range map[string]bool{"3": true, "042": true, "": false, "email": false, "3a": false, "-3": false} {
		if got := IsAttributeID(key); got != want {
			t.Errorf("IsAttributeID(%q) = %v, want %v", key, got, want)
		}
	}
}

// TestAttributesSpelling: the account's spelling of a name that differs
// from one of its attributes only in letter case; nothing for an attribute
// itself, an id, or a name no attribute resembles.
func TestAttributesSpelling(t *testing.T) {
	a := LoadedAttributes(map[string]string{"1": "email", "3": "firstname"})
	ctx := context.Background()
	for name, want := range map[string]string{"FirstName": "firstname", "EMAIL": "email", "firstname": "", "3": "", "shoe_size": ""} {
		got, err := a.Spelling(ctx, name)
		if err != nil || got != want {
			t.Errorf("Spelling(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
}

// TestCheckAttributeKey: a contact's property key names an attribute of
// the account by name or id, exactly as spelled; any other key is refused
// naming the attributes that exist (at plan, not half way
// through an apply).
func TestCheckAttributeKey(t *testing.T) {
	a := LoadedAttributes(map[string]string{"1": "email", "3": "firstname", "10": "lastname"})
	ctx := context.Background()
	cases := []struct{ key, name, wantErr string }{
		{key: "firstname", name: "firstname"},
		{key: "3", name: "firstname"},
		{key: "shoe_size", wantErr: `key "shoe_size" names no contact attribute of the account (its attributes: email, firstname, lastname); use one of them, by name or id, or add the attribute to the account first`},
		{key: "99", wantErr: `key "99" names an attribute id the account does not have (its attributes: email, firstname, lastname)`},
		{key: "FirstName", wantErr: `its attribute "firstname" differs only in letter case (keys are matched exactly, as the service matches them): write "firstname"`},
	}
	for _, c := range cases {
		name, err := CheckAttributeKey(ctx, c.key, a)
		switch {
		case c.wantErr == "" && (err != nil || name != c.name):
			t.Errorf("CheckAttributeKey(%q) = %q, %v; want %q", c.key, name, err, c.name)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("CheckAttributeKey(%q) error %v, want one containing %q", c.key, err, c.wantErr)
		}
	}
}
