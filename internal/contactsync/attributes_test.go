package contactsync

import (
	"context"
	"fmt"
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
