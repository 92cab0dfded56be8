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

// TestAttributesConfirm: a key the cache found absent (the plan's read)
// is read again by Confirm once the attribute exists (made earlier in the
// apply), by name and by id, and the lookups after it see it; a key still
// absent is answered missing. Keys the cache holds cost no read.
func TestAttributesConfirm(t *testing.T) {
	env := newListingEnv(t, 0, nil)
	ctx := context.Background()
	a := NewAttributes(env.client)
	// The emulator numbers every entity of the account in one sequence:
	// the attribute made next takes the id after the test's list.
	var listID int
	if _, err := fmt.Sscan(env.listID, &listID); err != nil {
		t.Fatal(err)
	}
	next := fmt.Sprint(listID + 1)
	for _, key := range []string{"shoe_size", next} {
		if _, ok, err := a.AttributeOf(ctx, key); ok || err != nil {
			t.Fatalf("AttributeOf(%q) before the attribute exists = %v, %v", key, ok, err)
		}
	}
	made, err := env.client.Entities.Create(ctx, "properties", map[string]any{"name": "shoe_size"})
	if err != nil {
		t.Fatal(err)
	}
	if id := fmt.Sprint(made["id"]); id != next {
		t.Fatalf("the emulator gave the attribute id %s; the test expects %s, the one after its list's", id, next)
	}
	// What the plan found absent stays absent until Confirm reads again.
	if _, ok, _ := a.AttributeOf(ctx, "shoe_size"); ok {
		t.Fatal("AttributeOf read the attributes again for a key found absent; the test no longer shows what Confirm adds")
	}
	env.gets.Store(0)
	missing, err := a.Confirm(ctx, []string{"firstname", "shoe_size", next, "hat_size"})
	if err != nil || len(missing) != 1 || missing[0] != "hat_size" {
		t.Fatalf("Confirm = %v, %v; want [hat_size]", missing, err)
	}
	if n := env.gets.Load(); n != 1 {
		t.Errorf("Confirm sent %d GETs, want 1", n)
	}
	for key, want := range map[string]string{"shoe_size": "shoe_size", next: "shoe_size"} {
		if name, ok, err := a.AttributeOf(ctx, key); !ok || err != nil || name != want {
			t.Errorf("AttributeOf(%q) after Confirm = %q, %v, %v; want %q", key, name, ok, err, want)
		}
	}
	env.gets.Store(0)
	if missing, err := a.Confirm(ctx, []string{"firstname", "shoe_size", next}); err != nil || len(missing) != 0 {
		t.Errorf("Confirm of held keys = %v, %v; want none missing", missing, err)
	}
	if _, ok, _ := a.AttributeOf(ctx, "hat_size"); ok {
		t.Error("hat_size, still absent, reads as an attribute")
	}
	if n := env.gets.Load(); n != 0 {
		t.Errorf("keys the cache holds (or found absent) cost %d GETs, want 0", n)
	}
}
