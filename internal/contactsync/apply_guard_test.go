package contactsync

import (
	"reflect"
	"slices"
	"testing"
)

// TestGuardExclusive holds the apply's guardrail verdict to its rules:
// the limits first, then what the plan counted, by the kind of input the
// count was made against.
func TestGuardExclusive(t *testing.T) {
	both := ServiceContact{Email: sub, Mobile: sub}
	// a is named by the input; b, c and d are subscribed and not named, so
	// an exclusive input unsubscribes them.
	service := ServiceListOf(map[string]ServiceContact{"a": both, "b": both, "c": both, "d": both})
	desired := BookOf([]Desired{{ID: "a", Email: sub}})
	diff := Diff{Changes: []Change{{ID: "b", Unsubscribe: true}, {ID: "c", Unsubscribe: true}, {ID: "d", Unsubscribe: true}}}
	loose := Limits{Count: 100, Percent: 100}
	countedBCD := &Counted{Count: 3, IDs: []string{"b", "c", "d"}, Subscribed: 4, Input: BookIDsDigest(desired)}
	countedB := &Counted{Count: 1, IDs: []string{"b"}, Subscribed: 2, Input: BookIDsDigest(desired)}
	mapBefore := &PriorInput{Keys: BookOf([]Desired{{ID: "a"}})}
	mapNamedC := &PriorInput{Keys: BookOf([]Desired{{ID: "a"}, {ID: "c"}})}
	fileBefore := &PriorInput{File: true}

	for _, tc := range []struct {
		name      string
		guard     ExclusiveGuard
		file      bool
		diff      Diff
		wantOver  bool
		wantWhy   UncountedReason
		wantNamed []string
	}{
		{name: "not exclusive: nothing is checked", guard: ExclusiveGuard{Limits: Limits{}}, diff: diff},
		{name: "nothing unsubscribed passes without a count", guard: ExclusiveGuard{On: true, Limits: loose}},
		{name: "above the limits: 3 of 4 subscribed, above 2 and 50 %", guard: ExclusiveGuard{On: true, Limits: Limits{Count: 2, Percent: 50}, Counted: countedBCD, Prior: mapBefore}, diff: diff, wantOver: true},
		{name: "within the limits and counted by id", guard: ExclusiveGuard{On: true, Limits: loose, Counted: countedBCD, Prior: mapBefore}, diff: diff},
		{name: "a create without a count stops, naming them all", guard: ExclusiveGuard{On: true, Limits: loose}, diff: diff, wantWhy: UncountedCreate, wantNamed: []string{"b", "c", "d"}},
		{name: "a create with a limit set explicitly goes by the limits", guard: ExclusiveGuard{On: true, Limits: loose, LimitExplicit: true}, diff: diff},
		{name: "an update planned without a refresh stops", guard: ExclusiveGuard{On: true, Limits: loose, Prior: mapBefore}, diff: diff, wantWhy: UncountedNoRefresh, wantNamed: []string{"b", "c", "d"}},
		{name: "signed up since the plan: c and d were not counted", guard: ExclusiveGuard{On: true, Limits: loose, Counted: countedB, Prior: mapBefore}, diff: diff, wantWhy: UncountedSincePlan, wantNamed: []string{"c", "d"}},
		{name: "a map's earlier key was counted as named: only d is new", guard: ExclusiveGuard{On: true, Limits: loose, Counted: countedB, Prior: mapNamedC}, diff: diff, wantWhy: UncountedSincePlan, wantNamed: []string{"d"}},
		{name: "a file read the same way compares by id", file: true, guard: ExclusiveGuard{On: true, Limits: loose, Counted: countedB, Prior: fileBefore}, diff: diff, wantWhy: UncountedSincePlan, wantNamed: []string{"c", "d"}},
		{name: "a file read another way compares numbers: 3 above 2 subscribed", file: true, guard: ExclusiveGuard{On: true, Limits: loose, Counted: &Counted{Count: 1, IDs: []string{"b"}, Subscribed: 2, Input: "other"}, Prior: fileBefore}, diff: diff, wantWhy: UncountedReadAnotherWay, wantNamed: []string{"b", "c", "d"}},
		{name: "a file read another way within the number subscribed passes", file: true, guard: ExclusiveGuard{On: true, Limits: loose, Counted: &Counted{Count: 1, IDs: []string{"b"}, Subscribed: 4, Input: "other"}, Prior: fileBefore}, diff: diff},
		{name: "the input changed kind compares numbers", guard: ExclusiveGuard{On: true, Limits: loose, Counted: countedB, Prior: fileBefore}, diff: diff, wantWhy: UncountedReadAnotherWay, wantNamed: []string{"b", "c", "d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := guardExclusive(tc.guard, "7", tc.file, desired, service, tc.diff)
			wantRefused := tc.wantOver || tc.wantWhy != 0
			if (got != nil) != wantRefused {
				t.Fatalf("refusal = %v, want refused %v", got, wantRefused)
			}
			if got == nil {
				return
			}
			if (got.Over != nil) != tc.wantOver {
				t.Errorf("over the limits = %v, want %v", got.Over, tc.wantOver)
			}
			if tc.wantOver && (got.Over.Total() != 6 || got.Over.ListID != "7") {
				t.Errorf("count %+v, want 3 on each channel of list 7", *got.Over)
			}
			if got.Why != tc.wantWhy || !slices.Equal(got.Uncounted, tc.wantNamed) {
				t.Errorf("uncounted %v (why %d), want %v (why %d)", got.Uncounted, got.Why, tc.wantNamed, tc.wantWhy)
			}
			if got.Error() == "" {
				t.Error("a refusal without a message")
			}
		})
	}
}

// TestRecipientOptOuts: only the recipients' own opt-outs are decided for
// the suppression list, channel by channel, never what Terraform wrote.
func TestRecipientOptOuts(t *testing.T) {
	desired := BookOf([]Desired{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "gone"}})
	service := listAgainst(desired, map[string]ServiceContact{
		"a": {Email: unsub, Mobile: unsub}, // opted out on both; Terraform wrote e-mail
		"b": {Email: unsub, Mobile: sub},   // opted out of e-mail on their own
		"c": {Email: sub, Mobile: sub},
	})
	applied := func(id string) (string, string) {
		if id == "a" {
			return unsub, sub
		}
		return sub, sub
	}
	got := RecipientOptOuts(desired, service, applied)
	want := []OptOutDecision{{Index: 0, Channels: Channels{Mobile: true}}, {Index: 1, Channels: Channels{Email: true}}}
	if !slices.Equal(got, want) {
		t.Errorf("decided %+v, want %+v", got, want)
	}
	if all := RecipientOptOuts(desired, service, nil); len(all) != 2 || all[0].Channels != (Channels{Email: true, Mobile: true}) {
		t.Errorf("without a record every unsubscribed channel is the recipient's: %+v", all)
	}
}

// TestListPortIsIOOnly: the port an apply reads and writes through has
// reads and writes only. A method that decided (a guardrail, a choice of
// what to suppress) would be a second decision beside the core's; add one
// here only if it is I/O.
func TestListPortIsIOOnly(t *testing.T) {
	io := []string{"Desired", "FinalPlanListing", "Import", "List", "ReadBack", "ReadSuppression", "RecordOptOuts", "Resume", "SavePending", "Write"}
	port := reflect.TypeOf((*ListPort)(nil)).Elem()
	var got []string
	for i := range port.NumMethod() {
		got = append(got, port.Method(i).Name)
	}
	if !slices.Equal(got, io) {
		t.Errorf("ListPort methods %v, want the I/O methods %v", got, io)
	}
}
