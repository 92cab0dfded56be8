package contactsync

import (
	"fmt"
	"testing"
)

func TestConflicts(t *testing.T) {
	excl := Manager{Name: "a", Exclusive: true}
	kept := Manager{Name: "a", Exclusive: true, Keep: map[string]bool{"c-1": true}}
	contact := Manager{Name: "c", IDs: []string{"c-1"}}
	twoContacts := Manager{Name: "c", IDs: []string{"c-2", "c-1"}}
	file := Manager{Name: "f"}
	tests := []struct {
		name string
		all  []Manager
		me   string
		want string
	}{
		{"alone", []Manager{excl}, "a", "[]"},
		{"two non-exclusive", []Manager{{Name: "a"}, contact}, "a", "[]"},
		{"exclusive beside a contact, seen by the owner", []Manager{excl, contact}, "a", "[a/c [c-1]]"},
		{"exclusive beside a contact, seen by the other", []Manager{excl, contact}, "c", "[a/c [c-1]]"},
		{"a bystander is in conflict too", []Manager{excl, contact, {Name: "z"}}, "z", "[a/z []]"},
		{"keep_ids names the contact", []Manager{kept, contact}, "c", "[]"},
		{"keep_ids names one of two", []Manager{kept, twoContacts}, "a", "[a/c [c-2]]"},
		{"keep_ids beside a file", []Manager{kept, file}, "f", "[]"},
		{"no keep_ids beside a file", []Manager{excl, file}, "f", "[a/f []]"},
		{"keep_ids known only at apply", []Manager{{Name: "a", Exclusive: true, KeepUnknown: true}, contact}, "a", "[]"},
		{"two exclusive, named once", []Manager{excl, {Name: "b", Exclusive: true}}, "b", "[a/b []]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range Conflicts(tt.all, tt.me) {
				got = append(got, fmt.Sprintf("%s/%s %v", c.Owner.Name, c.Other.Name, c.Unkept))
			}
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("Conflicts = %s, want %s", s, tt.want)
			}
		})
	}
}

func TestManagersRegister(t *testing.T) {
	r := NewManagers()
	if c := r.Register("1", Manager{Name: "b", IDs: []string{"x"}}); c != nil {
		t.Errorf("a list without an exclusive manager: conflicts %v", c)
	}
	if c := r.Register("1", Manager{Name: "a", Exclusive: true}); len(c) != 1 || c[0].Other.Name != "b" {
		t.Errorf("the exclusive one planned second: conflicts %v, want one with b", c)
	}
	// b planned again (the create plan of a replacement): still one conflict.
	if c := r.Register("1", Manager{Name: "b", IDs: []string{"x"}}); len(c) != 1 || c[0].Owner.Name != "a" {
		t.Errorf("b registered twice: conflicts %v, want one with a", c)
	}
	// a planned again without exclusive: no owner left.
	if c := r.Register("1", Manager{Name: "a"}); c != nil {
		t.Errorf("exclusive dropped: conflicts %v", c)
	}
	if c := r.Register("2", Manager{Name: "z", Exclusive: true}); c != nil {
		t.Errorf("list 2 alone: conflicts %v", c)
	}
}
