package contactsync

import (
	"fmt"
	"sort"
)

// The apply's guardrail on what exclusive unsubscribes, decided by the
// core from the listing the apply writes from, before its first write: the
// limits in force, and what the plan counted (Counted). The provider
// resolves the limits and reads the count from private state; it turns a
// GuardRefusal into its diagnostics.

// ExclusiveGuard is what an apply holds exclusive to.
type ExclusiveGuard struct {
	// On is exclusive = true; nothing is checked otherwise.
	On bool
	// Limits are the limits in force; LimitExplicit says one of them was
	// set (on the resource or in the provider block), not the default.
	Limits        Limits
	LimitExplicit bool
	// Counted is what the plan's refresh counted (nil: no count reached
	// the apply: a create, or a plan made without a refresh).
	Counted *Counted
	// Prior is how the state the count was made against named its
	// contacts; nil for a create.
	Prior *PriorInput
}

// PriorInput is the input of the state an update starts from: a source
// file, or a map whose keys are Keys.
type PriorInput struct {
	File bool
	Keys *Book
}

// UncountedReason says why an apply would unsubscribe contacts its plan
// did not count.
type UncountedReason int

const (
	// UncountedCreate is a resource created in this apply: a create's
	// plan cannot hand what it counted to its apply.
	UncountedCreate UncountedReason = iota + 1
	// UncountedNoRefresh is a plan made without a refresh.
	UncountedNoRefresh
	// UncountedSincePlan is a contact not subscribed when the plan
	// counted (it signed up, or was subscribed again, since).
	UncountedSincePlan
	// UncountedReadAnotherWay is a plan that read the input another
	// way, and counted fewer subscribed contacts than the apply would
	// unsubscribe.
	UncountedReadAnotherWay
)

// GuardRefusal is an apply the guardrail stopped before its first write:
// above the limits (Over), or unsubscribing contacts its plan did not
// count (Uncounted, sorted, and why).
type GuardRefusal struct {
	ListID    string
	Over      *UnsubscribeCount
	Uncounted []string
	Why       UncountedReason
	// Counted is the plan's count, when there was one.
	Counted Counted
}

func (e *GuardRefusal) Error() string {
	if e.Over != nil {
		_, share := e.Over.Worst()
		return fmt.Sprintf("exclusive = true would unsubscribe %d contacts of list %s (%.1f %% of a channel's subscribers), above the limits in force; nothing was written", e.Over.Total(), e.ListID, share)
	}
	return fmt.Sprintf("exclusive = true would unsubscribe %d contacts of list %s that the plan did not count; nothing was written", len(e.Uncounted), e.ListID)
}

// guardExclusive decides whether an apply may write diff, read against
// service: nil, or the refusal. file says the apply's input is a source
// file, desired is that input.
func guardExclusive(g ExclusiveGuard, listID string, file bool, desired *Book, service *ServiceList, diff Diff) *GuardRefusal {
	if !g.On {
		return nil
	}
	if c := ExclusiveCount(listID, service, diff); g.Limits.Exceeds(c) {
		return &GuardRefusal{ListID: listID, Over: &c}
	}
	unsub := ExclusiveUnsubscribed(diff)
	if len(unsub) == 0 {
		return nil
	}
	if g.Counted == nil {
		if g.LimitExplicit {
			return nil // the limits, set explicitly, were checked
		}
		outside := append([]string(nil), unsub...)
		sort.Strings(outside)
		why := UncountedCreate
		if g.Prior != nil {
			why = UncountedNoRefresh
		}
		return &GuardRefusal{ListID: listID, Uncounted: outside, Why: why}
	}
	// A map's earlier keys are in the prior state, so what the plan counted
	// of them is known; a file's earlier ids are not: its count compares
	// only when the apply reads the same ids the refresh read. Otherwise
	// (the input changed kind, or the file is read another way) only
	// numbers compare.
	var namedBefore func(string) bool
	comparable := false
	switch {
	case g.Prior == nil:
	case !file && !g.Prior.File:
		namedBefore, comparable = g.Prior.Keys.Has, true
	case file && g.Prior.File:
		comparable = BookIDsDigest(desired) == g.Counted.Input
	}
	outside, stop := g.Counted.Check(unsub, namedBefore, comparable)
	if !stop {
		return nil
	}
	why := UncountedSincePlan
	if !comparable {
		why = UncountedReadAnotherWay
	}
	return &GuardRefusal{ListID: listID, Uncounted: outside, Why: why, Counted: *g.Counted}
}
