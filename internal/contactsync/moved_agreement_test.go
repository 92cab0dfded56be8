package contactsync

import (
	"errors"
	"maps"
	"testing"

	"pgregory.net/rapid"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// TestMovedApplyWithinPlan draws a world as TestDecisionsAgree does, a plan
// from its listing, and then changes the service before the apply:
// recipients opt out or in, sign up, leave, or have their properties
// edited. For every change that the refresh's sketch can give back:
//   - the listing set back (Rewind) decides exactly what the plan decided,
//     so the final plan counts what the reviewed plan counted;
//   - the apply's decisions, made from the list as it is now less the
//     contacts that moved on, are a subset of the plan's, change for
//     change, and touch no contact that moved on.
//
// Every other change is refused (an error MovedSince names).
func TestMovedApplyWithinPlan(t *testing.T) {
	movedStatuses := []string{client.StatusSubscribed, client.StatusUnsubscribed, ""}
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		desired := BookOf(w.desired)
		refreshed := ServiceListOf(w.service)
		plan := Compare(desired, refreshed, w.opts)
		sketch := SketchOf(refreshed, nil)

		now := maps.Clone(w.service)
		for _, id := range agreementIDs {
			c, listed := now[id]
			switch rapid.IntRange(0, 5).Draw(t, id+" after the plan") {
			case 1: // a status changed
				if listed {
					c.Email = rapid.SampledFrom(movedStatuses).Draw(t, id+" e-mail now")
					c.Mobile = rapid.SampledFrom(movedStatuses).Draw(t, id+" mobile now")
					now[id] = c
				}
			case 2: // signed up, or left
				if listed {
					delete(now, id)
				} else {
					now[id] = ServiceContact{Email: client.StatusSubscribed, Props: map[string]string{EmailAttribute: rapid.SampledFrom(agreementAddresses).Draw(t, id+" joined address")}}
				}
			case 3: // another writer edited it
				if listed {
					c.Props = map[string]string{EmailAttribute: "edited@example.com"}
					now[id] = c
				}
			}
		}
		listed := ServiceListOf(now)
		moved, err := sketch.MovedSince(listed, nil)
		if err != nil {
			if !errors.Is(err, ErrMovedLeft) && !errors.Is(err, ErrMovedProps) && !errors.Is(err, ErrMovedOdd) {
				t.Fatalf("refused for no known reason: %v", err)
			}
			return
		}
		undo := listed.Rewind(moved)
		if again := Compare(desired, listed, w.opts); describeChanges(again.Changes) != describeChanges(plan.Changes) || listed.Len() != refreshed.Len() {
			t.Fatalf("set back, the listing decides otherwise than the plan:\nplan:  %s\nagain: %s", describeChanges(plan.Changes), describeChanges(again.Changes))
		}
		undo()
		applied := Compare(desired, listed, w.opts).without(moved.Has)
		planned := map[string]string{}
		for _, c := range plan.Changes {
			planned[c.ID] = describeChanges([]Change{c})
		}
		for _, c := range applied.Changes {
			if moved.Has(c.ID) {
				t.Fatalf("the apply writes %s, which moved on since the plan", c.ID)
			}
			if got, ok := planned[c.ID]; !ok || got != describeChanges([]Change{c}) {
				t.Fatalf("the apply writes what the plan did not decide: %s (plan: %q)", describeChanges([]Change{c}), got)
			}
		}
	})
}
