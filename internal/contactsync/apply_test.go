package contactsync

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// fakePort is a ListPort that answers from one listing, fails at the step
// named failAt, and cancels the apply's context after the step named
// cancelAfter (every later step then fails as a real call would).
type fakePort struct {
	desired     *Book
	held        *Snapshot // the final plan's listing, if any
	service     *ServiceList
	failAt      string
	cancelAfter string
	cancel      context.CancelFunc
	failWrites  map[string]bool // ids whose single write fails
	unconfirmed bool            // imports report rows not done
	steps       []string
	saved       [][]string // SavePending, in order
	written     []Change
	recorded    []OptOutDecision // RecordOptOuts' opt-outs
}

var errFake = errors.New("the fake fails here")

func (f *fakePort) step(ctx context.Context, name string) error {
	f.steps = append(f.steps, name)
	if err := ctx.Err(); err != nil {
		return err
	}
	if name == f.failAt {
		return errFake
	}
	if name == f.cancelAfter {
		f.cancel()
	}
	return nil
}

func (f *fakePort) Desired(ctx context.Context) (*Book, error) {
	return f.desired, f.step(ctx, "read")
}

func (f *fakePort) FinalPlanListing() (Snapshot, bool) {
	if f.held == nil {
		return Snapshot{}, false
	}
	f.steps = append(f.steps, "take held")
	return *f.held, true
}

func (f *fakePort) Resume(ctx context.Context, _ string) error { return f.step(ctx, "resume") }

func (f *fakePort) List(ctx context.Context, _ *Book) (*ServiceList, error) {
	return f.service, f.step(ctx, "list")
}

func (f *fakePort) ReadBack(ctx context.Context, _ *Book) (*ServiceList, error) {
	return f.service, f.step(ctx, "read back")
}

// ReadSuppression answers a suppression list that holds nobody, so that
// the apply decides which opt-outs to record.
func (f *fakePort) ReadSuppression(ctx context.Context) (SuppressedFunc, error) {
	return func(*Book, int) Channels { return Channels{} }, f.step(ctx, "read suppression")
}

func (f *fakePort) RecordOptOuts(ctx context.Context, _ *Book, _ *ServiceList, decided []OptOutDecision) error {
	f.recorded = decided
	return f.step(ctx, "record opt-outs")
}

func (f *fakePort) Import(ctx context.Context, action string, write func(io.Writer) error, started func(string)) (bool, error) {
	if err := write(io.Discard); err != nil {
		return false, err
	}
	started("batch-" + action)
	return !f.unconfirmed, f.step(ctx, "import "+action)
}

func (f *fakePort) Write(ctx context.Context, changes []Change, _ func(string)) (map[string]bool, error) {
	if err := f.step(ctx, "write"); err != nil {
		return nil, err
	}
	f.written = changes
	return f.failWrites, nil
}

func (f *fakePort) SavePending(_ context.Context, ids []string) {
	f.saved = append(f.saved, slices.Clone(ids))
}

// TestApplyStopsAfterEachStep drives the apply sequence and stops it at
// each step, by an error or a cancelled context, asserting the consent
// record it leaves. The list: a opted out on its own (the record says it
// was applied SUBSCRIBED), b to be unsubscribed by the input, x not named
// by an exclusive input.
func TestApplyStopsAfterEachStep(t *testing.T) {
	desired := BookOf([]Desired{{ID: "a", Email: sub}, {ID: "b", Email: unsub}})
	before := Record{Contacts: map[string][2]string{"a": {sub, ""}, "b": {sub, ""}}}
	// What settling by the listing teaches the record: a's opt-out.
	settled := Record{Contacts: before.Contacts, OptedOut: map[string][2]bool{"a": {true, false}}}
	// What the record notes before the writes: x released by Terraform,
	// b's unsubscription pending.
	noted := settled
	noted.Released = map[string][2]string{"x": {sub, sub}} // x showed no mobile status: Release takes it for SUBSCRIBED
	noted.Pending = map[string][2]string{"b": {unsub, ""}}
	// What a finished apply leaves: what it applied.
	applied := Record{
		Contacts: map[string][2]string{"a": {sub, ""}, "b": {unsub, ""}},
		Released: noted.Released, OptedOut: settled.OptedOut,
	}
	// A failed write of b keeps what was recorded of b before, and its
	// pending unsubscription.
	bFailed := applied
	bFailed.Contacts = map[string][2]string{"a": {sub, ""}, "b": {sub, ""}}
	bFailed.Pending = noted.Pending

	cases := []struct {
		name        string
		failAt      string
		cancelAfter string
		threshold   int64
		failWrites  map[string]bool
		unconfirmed bool
		guard       ExclusiveGuard
		wantEnd     ApplyEnd
		wantRecord  Record
		wantPending []string
		wantWrote   bool
		wantSteps   []string
	}{
		{name: "input refused", failAt: "read", wantEnd: ApplyStopped, wantRecord: before, wantPending: []string{"old"}, wantSteps: []string{"read"}},
		{name: "resume fails", failAt: "resume", wantEnd: ApplyCutShort, wantRecord: before, wantPending: []string{"old"}, wantSteps: []string{"read", "resume"}},
		{name: "cancelled while resuming", cancelAfter: "resume", wantEnd: ApplyStopped, wantRecord: before, wantSteps: []string{"read", "resume", "list"}},
		{name: "list fails", failAt: "list", wantEnd: ApplyStopped, wantRecord: before, wantSteps: []string{"read", "resume", "list"}},
		{name: "suppression list unreadable", failAt: "read suppression", wantEnd: ApplyStopped, wantRecord: settled, wantSteps: []string{"read", "resume", "list", "read suppression"}},
		{name: "guardrail refuses", guard: ExclusiveGuard{On: true}, wantEnd: ApplyStopped, wantRecord: settled, wantSteps: []string{"read", "resume", "list", "read suppression"}},
		{name: "opt-outs not recorded", failAt: "record opt-outs", wantEnd: ApplyStopped, wantRecord: settled,
			wantSteps: []string{"read", "resume", "list", "read suppression", "record opt-outs"}},
		{name: "cancelled before the writes", cancelAfter: "record opt-outs", wantEnd: ApplyCutShort, wantRecord: noted, wantWrote: true,
			wantSteps: []string{"read", "resume", "list", "read suppression", "record opt-outs", "write"}},
		{name: "writes cut short", failAt: "write", wantEnd: ApplyCutShort, wantRecord: noted, wantWrote: true,
			wantSteps: []string{"read", "resume", "list", "read suppression", "record opt-outs", "write"}},
		{name: "a write fails", failWrites: map[string]bool{"b": true}, wantEnd: ApplyStopped, wantRecord: bFailed, wantWrote: true,
			wantSteps: []string{"read", "resume", "list", "read suppression", "record opt-outs", "write"}},
		{name: "done", wantEnd: ApplyDone, wantRecord: applied, wantWrote: true,
			wantSteps: []string{"read", "resume", "list", "read suppression", "record opt-outs", "write"}},
		{name: "import cut short keeps its batch", threshold: 1, failAt: "import UNSUBSCRIBE", wantEnd: ApplyCutShort, wantRecord: noted, wantWrote: true,
			wantPending: []string{"batch-UNSUBSCRIBE"},
			wantSteps:   []string{"read", "resume", "list", "read suppression", "record opt-outs", "import UNSUBSCRIBE"}},
		{name: "imports read back when unconfirmed", threshold: 1, unconfirmed: true, failAt: "read back", wantEnd: ApplyCutShort, wantRecord: noted, wantWrote: true,
			wantSteps: []string{"read", "resume", "list", "read suppression", "record opt-outs", "import UNSUBSCRIBE", "read back"}},
		{name: "imports then singles", threshold: 1, wantEnd: ApplyDone, wantRecord: applied, wantWrote: true,
			wantSteps: []string{"read", "resume", "list", "read suppression", "record opt-outs", "import UNSUBSCRIBE", "write"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			service := listAgainst(desired, map[string]ServiceContact{"a": {Email: unsub}, "b": {Email: sub}, "x": {Email: sub}})
			port := &fakePort{desired: desired, service: service, failAt: tc.failAt, cancelAfter: tc.cancelAfter, cancel: cancel, failWrites: tc.failWrites, unconfirmed: tc.unconfirmed}
			got := Apply(ctx, ApplyInput{
				ListID: "7", Rules: InputRules{Exclusive: true}, Exclusive: tc.guard,
				Record: before, Pending: []string{"old"}, BatchThreshold: tc.threshold + 100*boolInt(tc.threshold == 0),
			}, port)
			if got.End != tc.wantEnd {
				t.Errorf("end = %d, want %d (err %v)", got.End, tc.wantEnd, got.Err)
			}
			if diff := cmp.Diff(tc.wantRecord, got.Record, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("record (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantPending, got.Pending, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("pending batches (-want +got):\n%s", diff)
			}
			if got.Wrote != tc.wantWrote {
				t.Errorf("wrote = %v, want %v", got.Wrote, tc.wantWrote)
			}
			if diff := cmp.Diff(tc.wantSteps, port.steps); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
			// The core decides what the suppression list records: a's
			// own opt-out of e-mail, never x, whom exclusive unsubscribes.
			if slices.Contains(port.steps, "record opt-outs") && !slices.Equal(port.recorded, []OptOutDecision{{Index: 0, Channels: Channels{Email: true}}}) {
				t.Errorf("opt-outs recorded %+v, want a's e-mail", port.recorded)
			}
			var refusal *GuardRefusal
			if errors.As(got.Err, &refusal) != tc.guard.On || (refusal != nil && refusal.Over == nil) {
				t.Errorf("err = %v, want a refusal above the limits: %v", got.Err, tc.guard.On)
			}
		})
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestApplyCreateTakesReleased: a create takes over what this run's destroy
// of the list released (Terraform's own unsubscription, not an opt-out),
// writes the status back, and notes the takeover for a deposed destroy.
func TestApplyCreateTakesReleased(t *testing.T) {
	desired := BookOf([]Desired{{ID: "a", Email: sub}})
	service := listAgainst(desired, map[string]ServiceContact{"a": {Email: unsub, Mobile: sub}})
	released, prov := NewReleased(), NewProvenance()
	released.Add("7", "a", client.SubscriptionStatus{Status: sub, MobileStatus: sub})
	port := &fakePort{desired: desired, service: service}
	got := Apply(context.Background(), ApplyInput{
		ListID: "7", Creating: true, BatchThreshold: 100, Released: released, Provenance: prov,
	}, port)
	if got.End != ApplyDone {
		t.Fatalf("end = %d (err %v)", got.End, got.Err)
	}
	if len(port.written) != 1 || port.written[0].ID != "a" || port.written[0].Status.Status != sub {
		t.Errorf("written = %+v, want a re-subscribed", port.written)
	}
	if r := got.Record.Contacts["a"]; r[0] != sub {
		t.Errorf("record of a = %v, want e-mail applied SUBSCRIBED", r)
	}
	if o, ok := got.Record.OptedOut["a"]; ok {
		t.Errorf("the record remembers a's e-mail as an opt-out (%v), though Terraform's own destroy unsubscribed it", o)
	}
	if _, ok := released.Take("7", "a"); ok {
		t.Error("the release was not taken")
	}
	if _, ok := prov.CreatedInRun("7"); !ok {
		t.Error("the create did not note its takeover")
	}
}

// TestApplyReadsBeforeItWrites: the apply reads its input first, refuses a
// file whose contacts changed since the plan before anything else, and
// lists only when the final plan's listing does not serve it (a create, an
// apply that resumes a batch, or a listing of another reading of the file).
func TestApplyReadsBeforeItWrites(t *testing.T) {
	file := FileOptions{Path: "c.csv"}
	desired := fileBook(t, nil, []Desired{{ID: "a", Email: sub}})
	digest := DesiredDigest(desired)
	// A listing held against the same contacts read again: another book,
	// the same digest.
	again := fileBook(t, nil, []Desired{{ID: "a", Email: sub}})
	heldSame := &Snapshot{Service: listAgainst(again, map[string]ServiceContact{"a": {Email: sub}}), File: file}
	heldOther := &Snapshot{Service: heldSame.Service, File: FileOptions{Path: "c.csv", Delimiter: ";"}}
	cases := []struct {
		name      string
		planned   string
		held      *Snapshot
		creating  bool
		pending   []string
		wantEnd   ApplyEnd
		wantSteps []string
	}{
		{name: "file changed since the plan", planned: "other", held: heldSame, wantEnd: ApplyStopped, wantSteps: []string{"read"}},
		{name: "digest unknown at plan", planned: "", wantEnd: ApplyDone, wantSteps: []string{"read", "list", "read suppression", "write"}},
		{name: "final plan's listing serves", planned: digest, held: heldSame, wantEnd: ApplyDone,
			wantSteps: []string{"read", "take held", "read suppression", "write"}},
		{name: "listing of another reading", planned: digest, held: heldOther, wantEnd: ApplyDone,
			wantSteps: []string{"read", "take held", "list", "read suppression", "write"}},
		{name: "a create lists", planned: digest, held: heldSame, creating: true, wantEnd: ApplyDone,
			wantSteps: []string{"read", "take held", "list", "read suppression", "write"}},
		{name: "a resumed batch changed the list", planned: digest, held: heldSame, pending: []string{"old"}, wantEnd: ApplyDone,
			wantSteps: []string{"read", "take held", "resume", "list", "read suppression", "write"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			service := listAgainst(desired, map[string]ServiceContact{"a": {Email: sub}})
			port := &fakePort{desired: desired, held: tc.held, service: service}
			got := Apply(context.Background(), ApplyInput{
				ListID: "7", Creating: tc.creating, File: true, Source: file, PlannedDigest: tc.planned,
				Pending: tc.pending, BatchThreshold: 100,
			}, port)
			if got.End != tc.wantEnd {
				t.Errorf("end = %d, want %d (err %v)", got.End, tc.wantEnd, got.Err)
			}
			if diff := cmp.Diff(tc.wantSteps, port.steps); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
			var changed *SourceChangedError
			if isChanged := errors.As(got.Err, &changed); isChanged != (tc.planned == "other") {
				t.Errorf("err = %v, want a SourceChangedError: %v", got.Err, tc.planned == "other")
			}
			if got.Wrote {
				t.Error("an apply with nothing to change wrote")
			}
			// The listing served is compared with the book it was held
			// against.
			if served := slices.Contains(port.steps, "take held") && !slices.Contains(port.steps, "list"); served != (got.Desired == again) {
				t.Errorf("served the held listing: %v, but compared it with the book it was held against: %v", served, got.Desired == again)
			}
		})
	}
}

// TestSourceChangedError: what the refusal of a changed file tells.
func TestSourceChangedError(t *testing.T) {
	msg := (&SourceChangedError{Path: "c.csv", Planned: "abc", Got: "def"}).Error()
	for _, want := range []string{"c.csv changed after the plan was made", "is def", "the plan has abc", "nothing was written", "Plan and apply again"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %q", msg, want)
		}
	}
}
