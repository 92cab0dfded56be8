package contactsync

import "testing"

func TestSnapshotsByInput(t *testing.T) {
	a, b := &ServiceList{}, &ServiceList{}
	tests := []struct {
		name  string
		puts  []struct{ list, input string }
		takes []struct {
			list, input string
			want        bool
		}
	}{
		{
			name: "two inputs on one list take their own",
			puts: []struct{ list, input string }{{"1", "x"}, {"1", "y"}},
			takes: []struct {
				list, input string
				want        bool
			}{{"1", "y", true}, {"1", "x", true}, {"1", "x", false}, {"1", "y", false}},
		},
		{
			name: "one input refreshed twice is taken twice, then gone",
			puts: []struct{ list, input string }{{"1", "x"}, {"1", "x"}},
			takes: []struct {
				list, input string
				want        bool
			}{{"1", "x", true}, {"1", "x", true}, {"1", "x", false}},
		},
		{
			name: "another list is another snapshot",
			puts: []struct{ list, input string }{{"1", "x"}},
			takes: []struct {
				list, input string
				want        bool
			}{{"2", "x", false}, {"1", "x", true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Snapshots
			for i, p := range tt.puts {
				svc := a
				if i%2 == 1 {
					svc = b
				}
				s.Put(p.list, p.input, Snapshot{Service: svc})
			}
			for i, tk := range tt.takes {
				if _, ok := s.Take(tk.list, tk.input); ok != tk.want {
					t.Errorf("take %d (%s, %s) = %v, want %v", i, tk.list, tk.input, ok, tk.want)
				}
			}
			if s.lists.Len() != 0 && tt.name != "another list is another snapshot" {
				t.Errorf("%d snapshots left after every plan took its own", s.lists.Len())
			}
		})
	}
}
