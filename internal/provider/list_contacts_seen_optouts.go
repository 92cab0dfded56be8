package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// An opt-out outlives the contact's stay in the list, and
// allow_resubscribe_ids allows once (contactsync/record_optouts.go). The
// record lives in private state, which a refresh and an apply write, each
// in its own provider process: the refresh learns the opt-outs its listing
// shows (so that an import or a cut file that removes the contact before
// the next apply cannot make the record forget it), and the apply learns
// from its own listing, keeps what it learned and marks the ids
// allow_resubscribe_ids named as used.

// noteSeenOptOuts is the refresh's part: it learns the opt-outs the
// listing shows of the contacts the state names (for a map, the state's
// entries with their statuses), or for a file, which the refresh reads as
// it is now (book), of every contact of the list, and saves the record
// when it changed.
func noteSeenOptOuts(ctx context.Context, private privateSetter, state listContactsModel, book *contactsync.Book, service *contactsync.ServiceList, applied *contactsync.Record, diags *diag.Diagnostics) {
	named := book
	if !state.isFile() {
		named = statusesBook(ctx, state.Contacts)
	}
	if !applied.NoteOptOuts(named, service, state.isFile()) {
		return
	}
	diags.Append(writeJSONKey(ctx, private, privateApplied, *applied)...)
}

// statusesBook is a book of the ids and statuses of a contacts map,
// without properties.
func statusesBook(ctx context.Context, m types.Map) *contactsync.Book {
	entries, _ := contactEntries(ctx, m) // a broken map is reported where the map is read
	ids := make([]contactsync.Desired, 0, len(entries))
	for id, e := range entries {
		ids = append(ids, contactsync.Desired{ID: id, Email: e.EmailStatus.ValueString(), Mobile: e.MobileStatus.ValueString()})
	}
	return contactsync.BookOf(ids)
}

// rejoinedNotice names the contacts created unsubscribed because they had
// opted out of the list before they left it.
func rejoinedNotice(ids []string) string {
	return fmt.Sprintf("%d re-added unsubscribed, as they opted out before they left the list (on the channels they had left, whatever the input says; name them in allow_resubscribe_ids only if they agreed): %s",
		len(ids), firstNames(ids[:min(len(ids), contactsync.MaxNamedInWarning)], len(ids)))
}

// warnRejoined names, at apply, the contacts rejoinedNotice describes.
func warnRejoined(diags *diag.Diagnostics, listID string, ids []string) {
	if len(ids) == 0 {
		return
	}
	diags.AddWarning("Opt-outs kept for contacts back in list "+listID, "Contacts "+rejoinedNotice(ids)+".")
}

// refuseUnknownResubscribeIDs is checkResubscribeIDs for a plan, with the
// record its prior private state holds (none for a create).
func refuseUnknownResubscribeIDs(ctx context.Context, private privateGetter, plan listContactsModel, desired *contactsync.Book, diags *diag.Diagnostics) {
	if !resubscribeIDsKnown(plan) {
		return
	}
	applied, d := readListApplied(ctx, private, plan.isFile())
	diags.Append(d...)
	checkResubscribeIDs(plan, desired, applied, diags)
}

// checkResubscribeIDs refuses, at plan, an id of allow_resubscribe_ids that
// names no contact of the input and no contact the resource has seen opt
// out: a typo would otherwise be ignored without a word, and the contact
// meant would stay unsubscribed. The nearest id of the input is suggested.
func checkResubscribeIDs(plan listContactsModel, desired *contactsync.Book, applied contactsync.Record, diags *diag.Diagnostics) {
	for _, id := range contactsync.SortedKeys(plan.resubscribeIDs()) {
		if desired.Has(id) || applied.KnowsOptOut(id) {
			continue
		}
		hint := ""
		if near, ok := nearestID(id, desired, applied); ok {
			hint = fmt.Sprintf(" Did you mean %q?", near)
		}
		diags.AddAttributeError(path.Root("allow_resubscribe_ids"), "Unknown contact in allow_resubscribe_ids",
			fmt.Sprintf("%q is neither a contact of the input (contacts or source_file) nor one this resource has seen opt out of list %s, so it would allow nothing.%s Correct the id or remove it.",
				id, plan.ListID.ValueString(), hint))
	}
}

// maxSuggestDistance bounds how far (in edits) a suggested id may be from
// the one given: further than that it is no likely typo.
const maxSuggestDistance = 2

// nearestID is the id of the input or of the record's opt-outs nearest to
// id, when one is within maxSuggestDistance edits (the first in input
// order on a tie).
func nearestID(id string, desired *contactsync.Book, applied contactsync.Record) (string, bool) {
	best, bestD := "", maxSuggestDistance+1
	consider := func(c string) {
		if d := editDistance(id, c, bestD); d < bestD {
			best, bestD = c, d
		}
	}
	for i := range desired.Len() {
		consider(desired.ID(i))
	}
	for _, c := range contactsync.SortedKeys(applied.OptedOut) {
		consider(c)
	}
	return best, best != ""
}

// editDistance is the Levenshtein distance of a and b, or limit when it is
// at least limit (a longer id is not compared letter by letter).
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit)
}

// resubscribeIDsKnown reports whether allow_resubscribe_ids can be checked
// at plan: the set and each of its ids are known.
func resubscribeIDsKnown(m listContactsModel) bool {
	if m.AllowResubscribeIDs.IsUnknown() {
		return false
	}
	for _, v := range m.AllowResubscribeIDs.Elements() {
		if s, ok := v.(types.String); !ok || s.IsUnknown() {
			return false
		}
	}
	return true
}
