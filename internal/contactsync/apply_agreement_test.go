package contactsync

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"pgregory.net/rapid"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// recordingPort is a ListPort over one drawn world: it lists the world's
// service, answers its suppression list, and records what the apply
// writes and what it copies into the suppression list, without acting on
// any of it.
type recordingPort struct {
	desired    *Book
	service    map[string]ServiceContact
	suppressed SuppressedFunc
	written    []Change
	recorded   []OptOutDecision
}

func (p *recordingPort) Desired(context.Context) (*Book, error) { return p.desired, nil }
func (p *recordingPort) FinalPlanListing() (Snapshot, bool)     { return Snapshot{}, false }
func (p *recordingPort) Resume(context.Context, string) error   { return nil }
func (p *recordingPort) SavePending(context.Context, []string)  {}
func (p *recordingPort) ReadSuppression(context.Context) (SuppressedFunc, error) {
	return p.suppressed, nil
}

func (p *recordingPort) List(context.Context, *Book) (*ServiceList, error) {
	return ServiceListOf(p.service), nil
}

func (p *recordingPort) ReadBack(ctx context.Context, b *Book) (*ServiceList, error) {
	return p.List(ctx, b)
}

func (p *recordingPort) RecordOptOuts(_ context.Context, _ *Book, _ *ServiceList, decided []OptOutDecision) error {
	p.recorded = decided
	return nil
}

func (p *recordingPort) Import(context.Context, string, func(io.Writer) error, func(string)) (bool, error) {
	panic("the threshold keeps every write a single call")
}

func (p *recordingPort) Write(_ context.Context, changes []Change, _ func(string)) (map[string]bool, error) {
	p.written = append(p.written, changes...)
	return nil, nil
}

// planOf is the plan the provider makes of a world after its refresh: the
// record settled by the listing (Prune, NoteOptOuts, as Read does), then
// the one decision (Plan) under the rules and the suppression list.
func planOf(rules InputRules, rec *Record, desired *Book, listing *ServiceList, suppressed SuppressedFunc) PlanResult {
	rec.Prune(listing)
	rec.NoteOptOuts(desired, listing, false)
	opts := rules.Options(*rec)
	opts.Restore, opts.KeptOptOuts, opts.Suppressed = rec.Restore, rec.KeptOptOuts(), suppressed
	return Plan(PlanInput{Desired: desired, Service: listing, Options: opts})
}

// TestApplyDoesWhatThePlanDecided draws worlds as TestDecisionsAgree does
// and runs the real apply sequence (Apply) through a recording port,
// against the plan the provider would have made of the same world:
//   - the apply writes exactly the plan's decisions, change for change;
//   - what it copies into the suppression list is recipients' own
//     opt-outs only: channels the list shows UNSUBSCRIBED that Terraform
//     did not write UNSUBSCRIBED;
//   - a second plan, from the record the apply left and the service as
//     the writes made it, decides nothing.
func TestApplyDoesWhatThePlanDecided(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		desired := BookOf(w.desired)
		rules := InputRules{Exclusive: w.opts.Exclusive, AllowResubscribe: w.opts.AllowResubscribe, ResubscribeIDs: w.opts.Resubscribe, Keep: w.opts.Keep}
		rec := Record{Contacts: map[string][2]string{}, Consented: w.opts.Consented}
		for _, d := range w.desired {
			rec.Contacts[d.ID] = w.applied[d.ID]
		}
		plan := planOf(rules, &rec, desired, ServiceListOf(w.service), w.suppressedFunc)

		port := &recordingPort{desired: desired, service: w.service, suppressed: w.suppressedFunc}
		out := Apply(context.Background(), ApplyInput{ListID: "7", Rules: rules, Record: viaPrivateState(t, rec), BatchThreshold: 1 << 20}, port)
		if out.End != ApplyDone || out.Err != nil {
			t.Fatalf("the apply ended %d: %v", out.End, out.Err)
		}
		if got, want := describeChanges(port.written), describeChanges(plan.Diff.Changes); got != want {
			t.Fatalf("the apply writes otherwise than the plan decided:\nplan:  %s\napply: %s", want, got)
		}
		for _, d := range port.recorded {
			id := desired.ID(d.Index)
			shown := w.service[id]
			ae, am := rec.Lookup(id)
			for _, ch := range [2]struct {
				decided              bool
				shown, applied, name string
			}{{d.Channels.Email, shown.Email, ae, "e-mail"}, {d.Channels.Mobile, shown.Mobile, am, "mobile"}} {
				if ch.decided && (ch.shown != client.StatusUnsubscribed || ch.applied == client.StatusUnsubscribed) {
					t.Fatalf("%s: %s copied into the suppression list, shown %q, written by Terraform %q: not the recipient's own opt-out", id, ch.name, ch.shown, ch.applied)
				}
			}
		}

		after := ServiceListOf(applyChanges(w.service, port.written))
		left := out.Record
		if again := planOf(rules, &left, desired, after, w.suppressedFunc); len(again.Diff.Changes) > 0 {
			t.Fatalf("a second plan after the apply decides again: %s\nfirst: %s", describeChanges(again.Diff.Changes), describeChanges(plan.Diff.Changes))
		}
	})
}

// viaPrivateState is rec as the apply reads it: saved in private state by
// the refresh, as JSON, and read back (a copy: the apply settles its own).
func viaPrivateState(t *rapid.T, rec Record) Record {
	raw, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var out Record
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
