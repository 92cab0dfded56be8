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
// its listing (privateRefreshedListing); the final plan lists again,
// compares, and counts from its own listing only when the list is as the
// refresh saw it: the same listing, the same input and the same consent
// record make the same counts. A list changed in between is refused in the
// provider's words before anything is written.
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
}

// recordRefreshedListing is Read's part. book is the file read, or for a
// map the ids the state names; file is the source file as read (nil: a map,
// or a file not read).
func recordRefreshedListing(ctx context.Context, p privateState, state listContactsModel, service *contactsync.ServiceList, book *contactsync.Book, file *refreshedFile, adopting bool) diag.Diagnostics {
	var l refreshedListing
	switch {
	case file != nil:
		l = refreshedListing{Against: fileAgainst(*file), Fingerprint: contactsync.FingerprintOf(service, nil)}
	case !state.isFile() && !adopting && book != nil:
		l = refreshedListing{Against: "map", Fingerprint: contactsync.FingerprintOf(service, book.Has)}
	default:
		l = refreshedListing{Fingerprint: contactsync.FingerprintOf(service, func(string) bool { return false })}
	}
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
	if !ok {
		return
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
	var now contactsync.Fingerprint
	switch {
	case plan.isFile() && got.Against == fileAgainst(refreshedFileOf(plan, plan.DesiredSHA256.ValueString())):
		now = contactsync.FingerprintOf(service, nil)
	case !plan.isFile() && got.Against == "map":
		now = contactsync.FingerprintOf(service, stateKeys.Has)
	default:
		now = contactsync.FingerprintOf(service, func(string) bool { return false })
		got.Fingerprint.Props = now.Props
	}
	if now != got.Fingerprint {
		tflog.Info(ctx, "list contacts: the list changed since the plan's refresh", map[string]any{"list_id": listID, "refreshed": got.Fingerprint.String(), "now": now.String()})
		resp.Diagnostics.AddError("Contacts of list "+listID+" changed since the plan",
			fmt.Sprintf("The contacts of list %s are not as the refresh before the plan read them (%d contacts then, %d now, or their statuses or properties changed): the counts the plan showed (planned_changes) no longer hold. Nothing was written. "+
				"Plan again (terraform plan, with its refresh) and review the new plan. "+
				"If another resource of this configuration writes to list %s in the same apply (an rms_list_import, an rms_contact, another rms_list_contacts), make it depend on this one (depends_on), so that it writes after this resource.", listID, got.Fingerprint.Count, now.Count, listID))
		return
	}
	applied, d := readListApplied(ctx, req.Private, plan.isFile())
	resp.Diagnostics.Append(d...)
	diffOpts := plan.rules().Options(applied)
	if resp.Diagnostics.HasError() || !listSuppressionOf(r.data).withSuppression(ctx, plan, &diffOpts, &resp.Diagnostics) {
		return
	}
	diff := contactsync.Compare(desired, service, diffOpts)
	setPlannedChanges(ctx, resp, plannedChangesOf(diff, service.Len()).value())
	// The apply that follows in this process writes from this listing
	// instead of reading the list once more.
	snap := contactsync.Snapshot{Service: service}
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
