package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// The plan Terraform makes again inside an apply must plan the counts the
// reviewed plan showed (planned_changes), or Terraform stops with its own
// "Provider produced inconsistent final plan". That plan runs in another
// provider process, without the refresh's listing; what it sees of the
// reviewed plan is what Read left in private state (as for the source
// file, list_contacts_file_digest.go). Read keeps there a fingerprint of
// its listing (privateRefreshedListing), and a sketch of it; the final
// plan lists again and compares. The same listing, the same input and the
// same consent record make the same counts. A list that moved on in between
// (recipients opted out, signed up, or an earlier apply's batch finished)
// is set back, for the count only, to what the refresh saw: the sketch
// gives back the contacts that changed status or joined, with their
// statuses then (contactsync.Sketch). The apply then writes from the list
// as it is now and leaves those contacts as they are, so it does at most
// what the plan counted. A change the sketch cannot give back (contacts
// left, properties edited, too many) is refused in the provider's words
// before anything is written.
//
// ModifyPlan drops the key from the planned private state, so an apply
// never saves it. A plan with no change saves the refreshed state, key
// included: a later plan made with -refresh=false plans unknown counts,
// and its apply is refused if the list changed since that refresh (plan
// again, with a refresh). Without the key the counts stay unknown.

// privateRefreshedListing is the private state key Read writes.
const privateRefreshedListing = "refreshed_listing"

// refreshedListing is the fingerprint of Read's listing, and how it was
// listed: Against says which properties the fingerprint covers ("map":
// those of the contacts the state's map names; a file: the file as read,
// refreshedFile in JSON; "": statuses only).
type refreshedListing struct {
	Against     string                  `json:"against"`
	Fingerprint contactsync.Fingerprint `json:"fingerprint"`
	// Sketch tells apart the contacts that moved on since (nil in a
	// private state an older version wrote).
	Sketch contactsync.Sketch `json:"sketch,omitempty"`
	// Running are the import batches an earlier apply started that the
	// refresh saw still running: what they will have done by the apply
	// cannot be counted, so the plan's counts are unknown, and the apply,
	// which waits for them first, counts (list_contacts_batch_running.go).
	Running []string `json:"running,omitempty"`
}

// recordRefreshedListing is Read's part. book is the file read, or for a
// map the ids the state names; file is the source file as read (nil: a map,
// or a file not read).
func recordRefreshedListing(ctx context.Context, p privateState, state listContactsModel, service *contactsync.ServiceList, book *contactsync.Book, file *refreshedFile, adopting bool, running []string) diag.Diagnostics {
	l := refreshedListing{Running: running}
	var covers func(string) bool
	switch {
	case file != nil:
		l.Against = fileAgainst(*file)
	case !state.isFile() && !adopting && book != nil:
		l.Against, covers = "map", book.Has
	default:
		covers = func(string) bool { return false }
	}
	l.Fingerprint, l.Sketch = contactsync.FingerprintOf(service, covers), contactsync.SketchOf(service, covers)
	return writeJSONKey(ctx, p, privateRefreshedListing, l)
}

func fileAgainst(f refreshedFile) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// readRefreshedListing is the key Read left in a prior private state.
func readRefreshedListing(ctx context.Context, prior privateGetter) (refreshedListing, bool) {
	var got refreshedListing
	if prior == nil {
		return got, false
	}
	raw, d := prior.GetKey(ctx, privateRefreshedListing)
	if d.HasError() || len(raw) == 0 {
		return got, false
	}
	return got, json.Unmarshal(raw, &got) == nil
}

// recountUnlisted plans the counts of an update that has no refresh
// listing at hand (see above): unknown without a fingerprint, else counted
// from a new listing that matches it, else refused.
func (r *listContactsResource) recountUnlisted(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan listContactsModel, state listContactsModel, desired *contactsync.Book) {
	got, ok := readRefreshedListing(ctx, req.Private)
	if !ok || len(got.Running) > 0 {
		return // unknown counts: no refresh to hold to, or a batch running at it
	}
	listID := plan.ListID.ValueString()
	opts := listOptionsOf(plan, desired)
	stateKeys := keysBook(ctx, state.Contacts)
	if !plan.isFile() {
		opts.For = unionBook(desired, stateKeys)
	}
	service, err := r.data.contacts.List(ctx, listID, opts)
	if err != nil {
		listError(&resp.Diagnostics, listID, err)
		return
	}
	// What the fingerprint and the sketch cover: a file read as the
	// refresh read it, the map the state names, or statuses only (an
	// input whose kind or reading changed in this plan: the refresh
	// covered something else, and properties are not compared).
	var covers func(string) bool
	statusesOnly := false
	switch {
	case plan.isFile() && got.Against == fileAgainst(refreshedFileOf(plan, plan.DesiredSHA256.ValueString())):
	case !plan.isFile() && got.Against == "map":
		covers = stateKeys.Has
	default:
		covers, statusesOnly = func(string) bool { return false }, true
	}
	now := contactsync.FingerprintOf(service, covers)
	if statusesOnly {
		got.Fingerprint.Props = now.Props
	}
	var moved contactsync.Moved
	if now != got.Fingerprint {
		if statusesOnly || got.Sketch == nil {
			err = contactsync.ErrMovedUnknown
		} else {
			moved, err = got.Sketch.MovedSince(service, covers)
		}
		if err != nil {
			tflog.Info(ctx, "list contacts: the list changed since the plan's refresh, beyond what the plan can be counted again from", map[string]any{"list_id": listID, "refreshed": got.Fingerprint.String(), "now": now.String(), "why": err.Error()})
			resp.Diagnostics.AddError("Contacts of list "+listID+" changed since the plan",
				fmt.Sprintf("The contacts of list %s are not as the refresh before the plan read them (%d contacts then, %d now), and the changes cannot be told apart contact by contact: %s. "+
					"An apply leaves contacts whose statuses changed, or who joined the list, after the plan as they are (up to about %d of them); other changes need a new plan. Nothing was written. "+
					"Plan again (terraform plan, with its refresh) and review the new plan. "+
					"If another resource of this configuration writes to list %s in the same apply (an rms_list_import, an rms_contact, another rms_list_contacts), make it depend on this one (depends_on), so that it writes after this resource.",
					listID, got.Fingerprint.Count, now.Count, err, contactsync.MovedCapacity, listID))
			return
		}
		tflog.Info(ctx, "list contacts: contacts moved on since the plan's refresh; counting from the listing as the refresh saw it", map[string]any{"list_id": listID, "changed": len(moved.Then), "joined": len(moved.Joined)})
	}
	applied, d := readListApplied(ctx, req.Private, plan.isFile())
	resp.Diagnostics.Append(d...)
	diffOpts := plan.rules().Options(applied)
	if resp.Diagnostics.HasError() || !listSuppressionOf(r.data).withSuppression(ctx, plan, &diffOpts, &resp.Diagnostics) {
		return
	}
	// The counts are those of the listing the reviewed plan counted
	// from: the contacts that moved on since are set back for the count.
	planned := contactsync.Plan(contactsync.PlanInput{Desired: desired, Service: service, Options: diffOpts, Moved: moved})
	setPlannedChanges(ctx, resp, plannedChangesOf(planned.Diff, planned.ListSize).value())
	// The apply that follows in this process writes from this listing
	// instead of reading the list once more, and leaves alone the
	// contacts that moved on.
	snap := contactsync.Snapshot{Service: service, Moved: moved}
	if plan.isFile() {
		snap.File = plan.fileOptions()
	}
	r.data.contacts.Snapshots.Put(listID, finalPlanKey(plan), snap)
}

// finalPlanKey keeps the final plan's listing apart from a refresh's.
func finalPlanKey(m listContactsModel) string { return "final plan:" + replacementKey(m) }

// setPlannedChanges sets planned_changes in a plan already set.
func setPlannedChanges(ctx context.Context, resp *resource.ModifyPlanResponse, v types.Object) {
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(attrPlannedChanges), v)...)
}

// unionBook is a book of the ids of a and b (ids only).
func unionBook(a, b *contactsync.Book) *contactsync.Book {
	ids := []contactsync.Desired{}
	seen := map[string]bool{}
	for _, book := range []*contactsync.Book{a, b} {
		for i := range book.Len() {
			if id := book.ID(i); !seen[id] {
				seen[id] = true
				ids = append(ids, contactsync.Desired{ID: id})
			}
		}
	}
	return contactsync.BookOf(ids)
}
