package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"sort"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/protocol"
)

func (r *listContactsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := readListContacts(ctx, req.Plan, protocol.RolePlan, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultListContactsTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	// A replacement's destroy half (destroy, then create) handed over the
	// replaced object's consent record, or, moving to another list, the
	// old list's opt-outs; a deposed object's destroy (create_before_destroy)
	// will find this create and let the list be.
	listID := plan.ListID.ValueString()
	applied, _ := r.data.contacts.Provenance.TakeCarried(listID)
	applied = listTakeoverOf(r.data).withCarriedOptOuts(plan, applied.ForInput(plan.isFile()))
	r.apply(ctx, plan, nil, applied, nil, nil, resp.Private, timeout, &resp.State, resp.Identity, &resp.Diagnostics)
	listTakeoverOf(r.data).noteCreatedInput(plan)
}

func (r *listContactsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := readUpdate[listContactsModel](ctx, req, r.data, &resp.Diagnostics)
	if ok {
		resp.Diagnostics.Append(withCarriedContacts(ctx, &plan, protocol.RolePlan)...)
		resp.Diagnostics.Append(withCarriedContacts(ctx, &state, protocol.RoleState)...)
	}
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultListContactsTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	applied, diags := readListApplied(ctx, req.Private, plan.isFile())
	resp.Diagnostics.Append(diags...)
	pending, diags := readBatches(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if adopting(ctx, req.Private) {
		// The map in state is what the list held when it was imported,
		// not a configuration: nothing the configuration leaves out of it
		// is removed (list_contacts_adopt.go).
		state.Contacts = types.MapNull(listContactEntryType)
	}
	// What the plan's refresh counted is for this apply only.
	counted, _ := readExclusiveCounted(ctx, req.Private)
	resp.Diagnostics.Append(dropPrivateKey(ctx, resp.Private, privateExclusiveCounted)...)
	r.apply(ctx, plan, &state, applied, pending, counted, resp.Private, timeout, &resp.State, resp.Identity, &resp.Diagnostics)
}

// apply makes the list as plan says and answers with the state. prior is
// the state before (nil for a create); applied and pending are what earlier
// applies left in private state (the consent record, batches not seen
// finish); counted is what the plan's refresh counted that exclusive may
// unsubscribe (nil without one: list_contacts_exclusive_counted.go).
//
// What the answer holds is decided on every path (list_contacts_answer.go):
// an apply that did its work, or whose wait was cut short (a warning: the
// batch ids are kept and the next apply resumes them), saves the planned
// values; an apply that stops with an error keeps the prior state (an
// update) or saves nothing (a create that wrote nothing), and its private
// state holds the prior record plus only what the service confirmed.
func (r *listContactsResource) apply(ctx context.Context, plan listContactsModel, prior *listContactsModel, applied contactsync.Record, pending []string, counted *contactsync.Counted, private privateSetter,
	timeout time.Duration, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	port := &listApplyPort{r: r, plan: plan, prior: prior, private: private, diags: diags,
		w: &contactWriter{data: r.data, listID: plan.ListID.ValueString(), creating: prior == nil, timeout: timeout}}
	input := applyInputOf(ctx, r.data, plan, prior, applied, pending, counted)
	res := contactsync.Apply(ctx, input, port)
	listGuardOf(r.data).reportRefusal(plan, res.Err, diags)
	ans := &listContactsAnswer{prior: prior, applied: &res.Record, pending: &res.Pending, private: private,
		state: state, identity: identity, diags: diags, wrote: res.Wrote}
	ans.answer(ctx, plan, res, listSuppressionOf(r.data).plannedUnrecorded(plan))
}

func listError(diags *diag.Diagnostics, listID string, err error) {
	if client.IsNotFound(err) {
		diags.AddAttributeError(path.Root("list_id"), "List not found",
			fmt.Sprintf("No list has id %q in this account: %s", listID, describeAPIError(err)))
		return
	}
	addAPIError(diags, "Unable to read the contacts of list "+listID, err, nil)
}

// Read lists the list once and records what the service holds for the
// managed contacts; the plan that follows in the same run takes the
// listing to name what it changes.
func (r *listContactsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := readListContacts(ctx, req.State, protocol.RoleState, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	listID := state.ListID.ValueString()
	ident := listContactsIdentity{ListID: state.ListID}
	book, unreadable, service, err := listReaderOf(r.data).refreshReads(ctx, req.Private, state)
	if client.IsNotFound(err) {
		tflog.Info(ctx, "list is gone; removing its contacts from state", map[string]any{"list_id": listID})
		removeGone(ctx, resp, ident)
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read the contacts of list "+listID, err, nil)
		return
	}
	snap := contactsync.Snapshot{Service: service}
	if book != nil {
		snap.File = state.fileOptions()
	}
	applied, d := readListApplied(ctx, req.Private, state.isFile())
	resp.Diagnostics.Append(d...)
	snap.RecordedOptOuts = maps.Clone(applied.OptedOut) // before this refresh notes its own (list_contacts_optouts_recorded.go)
	noteSeenOptOuts(ctx, resp.Private, state, book, service, &applied, &resp.Diagnostics)
	r.data.contacts.Provenance.Refresh(listID, replacementKey(state), applied)
	allow := state.rules().MayResubscribe(applied)
	var refreshed *refreshedFile // the file as read now (list_contacts_file_digest.go)
	defer func() { resp.Diagnostics.Append(recordRefreshedFile(ctx, resp.Private, refreshed)...) }()
	// What exclusive may unsubscribe, for the apply (list_contacts_exclusive_counted.go).
	countedAgainst, countable := book, !state.isFile() || !unreadable.HasError()
	defer func() {
		resp.Diagnostics.Append(recordExclusiveCounted(ctx, resp.Private, service, countedAgainst, countable)...)
	}()
	switch {
	case state.isFile() && unreadable.HasError():
		// The file is gone or unreadable: the plan reports it; the
		// service's side cannot be compared without it.
		resp.Diagnostics.AddWarning("Source file not readable at refresh", fmt.Sprintf("%s; service_sha256 keeps its last value.", unreadable.Errors()[0].Detail()))
	case state.isFile():
		state.ServiceSHA256 = types.StringValue(contactsync.ServiceDigest(book, service, applied.Lookup, allow))
		f := refreshedFileOf(state, contactsync.DesiredDigest(book))
		refreshed = &f
	default:
		// What exclusive may unsubscribe is counted against the input in
		// state: an adopted list's map is no input (Update drops it).
		countedAgainst = keysBook(ctx, state.Contacts)
		if adopting(ctx, req.Private) {
			countedAgainst = nil
			adopt(&state, service, r.data.adoptions(), &resp.Diagnostics)
		}
		state.Contacts, d = listReaderOf(r.data).refreshedEntries(ctx, state.Contacts, service, applied, allow)
		resp.Diagnostics.Append(d...)
		book = keysBook(ctx, state.Contacts)
	}
	n := contactsync.UnmanagedSubscribed(service, book)
	if state.Exclusive.ValueBool() {
		n -= len(contactsync.KeptSubscribed(service, book, state.keepIDs())) // not drift: keep_ids spares them
	}
	state.UnmanagedSubscribed = types.Int64Value(int64(n))
	state.UnrecordedOptOuts = listSuppressionOf(r.data).refreshUnrecorded(ctx, state, book, service, applied, &resp.Diagnostics)
	state.SuppressedSubscribed = listSuppressionOf(r.data).refreshSuppressedSubscribed(ctx, state, func() *contactsync.Book { return r.refreshedInput(ctx, state, book) }, service, applied, &resp.Diagnostics)
	state.PlannedChanges = plannedChangesZero() // a refresh plans nothing (list_contacts_planned_changes.go)
	pending, d := readBatches(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	resp.Diagnostics.Append(recordRefreshedListing(ctx, resp.Private, state, service, countedAgainst, refreshed, adopting(ctx, req.Private), r.runningBatches(ctx, pending))...)
	state.ID = types.StringValue(listID)
	// Kept by the input of the state as refreshed (an adoption fills the
	// map above), which the plan reads as its prior state.
	r.data.contacts.Snapshots.Put(listID, replacementKey(state), snap)
	setListContacts(ctx, &resp.State, state, &resp.Diagnostics)
	setIdentity(ctx, resp.Identity, ident, &resp.Diagnostics)
}

// refreshedInput is the input of the state as refreshed, with its
// statuses: the file's book, or the contacts map as Read refreshed it (nil
// where it cannot be read; the plan reports why).
func (r *listContactsResource) refreshedInput(ctx context.Context, state listContactsModel, book *contactsync.Book) *contactsync.Book {
	if state.isFile() {
		return book
	}
	desired, d := listReaderOf(r.data).desiredOf(ctx, state, types.MapNull(listContactEntryType))
	if d.HasError() {
		return nil
	}
	return desired
}

// refreshReads reads what a refresh compares: a file first, and the
// listing held against it, so that only the contacts that differ from the
// file keep their properties and a list of a million contacts is compared
// in little memory. unreadable holds why the file could not be read.
func (r listReader) refreshReads(ctx context.Context, private privateGetter, state listContactsModel) (book *contactsync.Book, unreadable diag.Diagnostics, service *contactsync.ServiceList, err error) {
	if state.isFile() {
		book, unreadable = r.desiredOf(ctx, state, types.MapNull(listContactEntryType))
		if book != nil {
			// The file's digest is needed once the listing is done: it is
			// computed beside the listing (a book computes it once).
			go contactsync.DesiredDigest(book)
		}
	}
	service, err = r.data.contacts.List(ctx, state.ListID.ValueString(), r.readListOptions(ctx, private, state, book))
	return book, unreadable, service, err
}

// Delete forgets the contacts (on_destroy = "forget", the default: nothing
// is written), or, with on_destroy = "unsubscribe", unsubscribes the
// channels the input manages (destroyTargetsOf): by single calls, or above
// batch_threshold by an UNSUBSCRIBE import (e-mail) plus single calls for
// mobile. Either way the destroy half of a replacement hands the contacts
// over and unsubscribes nobody (handOver).
func (r *listContactsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := readListContacts(ctx, req.State, protocol.RoleState, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, defaultListContactsTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	listID := state.ListID.ValueString()
	if listTakeoverOf(r.data).handOver(ctx, req.Private, listID, state.isFile(), &resp.Diagnostics) || listTakeoverOf(r.data).handedOverElsewhere(ctx, state) {
		return
	}
	pending, d := readBatches(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	// What this resource's record knows of Terraform's own
	// unsubscriptions goes to the delete of its list, should it follow in
	// this run (contactsync.Retired): it copies recipients' opt-outs only.
	applied, d := readListApplied(ctx, req.Private, state.isFile())
	resp.Diagnostics.Append(d...)
	if !unsubscribesOnDestroy(state.OnDestroy) {
		r.data.contacts.Retired.Add(listID, applied)
		r.forget(ctx, listID, pending, &resp.Diagnostics)
		return
	}
	// The resource's own batches an apply stopped waiting for come first:
	// what they add or change must not land after the unsubscriptions, and
	// destroy must not report what it did not do.
	wr := &contactWriter{data: r.data, listID: listID, timeout: timeout, destroying: true}
	for _, id := range pending {
		if !wr.resume(ctx, id, &resp.Diagnostics) {
			resp.Diagnostics.AddError("Destroy waits for an import batch of this resource",
				fmt.Sprintf("Import batch %s of this resource (list %s) did not finish within timeouts.delete: destroy unsubscribed nobody, and the resource stays in the state. Destroy again once the batch has finished (or raise timeouts.delete).", id, listID))
			return
		}
	}
	// The batches finished: unsubscribeOnDestroy starts with none pending.
	desired, d := listReaderOf(r.data).desiredOf(ctx, state, types.MapNull(listContactEntryType))
	if d.HasError() {
		resp.Diagnostics.AddWarning("Contacts forgotten, not unsubscribed",
			fmt.Sprintf("The source file could not be read, so destroy cannot tell which contacts of list %s it managed; they were left as they are: %s", listID, d.Errors()[0].Detail()))
		return
	}
	service, err := r.data.contacts.List(ctx, listID, listOptionsOf(state, desired))
	if client.IsNotFound(err) {
		return // the list is gone, and its contacts with it
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read the contacts of list "+listID, err, nil)
		return
	}
	t := destroyTargetsOf(desired, service)
	// The limits are checked again on this listing: counts can change
	// between plan and destroy, and the plan may have counted nothing.
	c := contactsync.ChannelCount(listID, "destroying rms_list_contacts", service, len(t.Email), len(t.Mobile))
	if l := listGuardOf(r.data).limits(state); l.exceeds(c) {
		checkUnsubscribeLimit(&resp.Diagnostics, c, l, guardTarget{Destroy: true})
		return
	}
	for _, id := range t.Email {
		applied.ReleaseChannels(id, contactsync.ServiceContact{Email: client.StatusSubscribed}, true, false)
	}
	for _, id := range t.Mobile {
		applied.ReleaseChannels(id, contactsync.ServiceContact{Mobile: client.StatusSubscribed}, false, true)
	}
	r.data.contacts.Retired.Add(listID, applied)
	wr.unsubscribeOnDestroy(ctx, state, t, service, req.Private, resp)
}

// forget is destroy with on_destroy = "forget": nothing is written. An
// import batch of this resource that is still running goes on after the
// destroy; the warning names it, since its contacts then belong to no
// state.
func (r *listContactsResource) forget(ctx context.Context, listID string, pending []string, diags *diag.Diagnostics) {
	running := r.runningBatches(ctx, pending)
	tflog.Info(ctx, "destroy forgets the contacts; nothing is written", map[string]any{"list_id": listID, "running_batches": running})
	if len(running) == 0 {
		return
	}
	diags.AddWarning("Import batch still running after destroy",
		fmt.Sprintf("Destroy forgot the contacts of list %s and wrote nothing, but import batch %s of this resource had not finished: whatever it adds, changes or unsubscribes is written when it finishes, and no Terraform state manages those contacts then. "+
			"Check the list once the batch has finished (data source rms_batch), or manage the list again (terraform import).", listID, joinBatches(running)))
}

// handOver reports whether this destroy is the half of a replacement
// (list_contacts_takeover.go): then the new object takes the contacts over
// and nobody is unsubscribed; the replaced object's consent record goes to
// the create half, when it manages the same list, and the old list's
// opt-outs when it manages another (a replaced rms_list).
func (r listTakeover) handOver(ctx context.Context, planned privateGetter, listID string, file bool, diags *diag.Diagnostics) bool {
	if note, ok := readTakeover(ctx, planned); ok {
		switch {
		case note.ListID != listID:
			r.carryOptOuts(ctx, planned, note, listID, file, diags)
		case note.Applied != nil:
			r.data.contacts.Provenance.Carry(listID, *note.Applied)
		}
		tflog.Info(ctx, "replacement: the new object takes the contacts over; nobody is unsubscribed", map[string]any{"list_id": listID, "new_list_id": note.ListID})
		return true
	}
	held, ok := r.data.contacts.Provenance.CreatedInRun(listID)
	if !ok {
		return false
	}
	tflog.Info(ctx, "replacement (create before destroy): the new object has taken the contacts over; nobody is unsubscribed", map[string]any{"list_id": listID, "held_back": len(held)})
	if len(held) == 0 {
		return true
	}
	old, d := readListApplied(ctx, planned, file)
	diags.Append(d...)
	service, err := r.data.contacts.List(ctx, listID, contactsync.ListOptions{})
	if err != nil {
		addAPIError(diags, "Unable to read the contacts of list "+listID+" to give back the statuses Terraform took", err, nil)
		return true
	}
	var changes []contactsync.Change
	for id, st := range contactsync.GivenBack(held, old, service) {
		changes = append(changes, contactsync.Change{ID: id, Status: st})
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].ID < changes[j].ID })
	w := &contactWriter{data: r.data, listID: listID, destroying: true}
	w.writeChanges(ctx, changes, func(string) {}, diags)
	return true
}

// ImportState takes the list id, as `terraform import` string or as
// `identity = { list_id = "42" }`. Nothing is managed until the first
// apply, which writes only what differs from the configuration.
func (r *listContactsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	listID := req.ID
	if listID == "" {
		var ident listContactsIdentity
		if !importIdentity(ctx, "rms_list_contacts", req, &ident, &resp.Diagnostics) {
			return
		}
		listID = ident.ListID.ValueString()
	}
	if !isEntityID(listID) {
		resp.Diagnostics.AddError("Invalid import id", "Import an rms_list_contacts by the numeric id of its list, e.g. `terraform import rms_list_contacts.example 42`; got "+quote(listID)+".")
		return
	}
	for name, v := range map[string]any{
		"id": listID, "list_id": listID, "delimiter": ",", "encoding": "UTF8",
		"exclusive": false, "allow_resubscribe": false, "batch_threshold": int64(defaultBatchThreshold),
		"contact_count": int64(0), "unmanaged_subscribed": int64(0), attrOnDestroy: onDestroyForget,
	} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), v)...)
	}
	setIdentity(ctx, resp.Identity, listContactsIdentity{ListID: types.StringValue(listID)}, &resp.Diagnostics)
	resp.Diagnostics.Append(markAdopting(ctx, resp.Private)...)
}

// listOptionsOf is how the apply and destroy list the list for m's input:
// a file's listing is held against its book, a map's keeps the properties
// of the contacts the map names (the others' statuses are all an apply
// needs of them, however large the list).
func listOptionsOf(m listContactsModel, desired *contactsync.Book) contactsync.ListOptions {
	if m.isFile() {
		return contactsync.ListOptions{Against: desired}
	}
	return contactsync.ListOptions{Props: true, For: desired}
}

// readListOptions is how Read lists the list: against the file's book; for
// a map, keeping the properties of the contacts the state names; for an
// adoption (an import's first refresh), of every contact while the list is
// small enough for adopt to fill the map.
func (r listReader) readListOptions(ctx context.Context, p privateGetter, state listContactsModel, book *contactsync.Book) contactsync.ListOptions {
	if state.isFile() {
		return contactsync.ListOptions{Against: book}
	}
	if state.Contacts.IsNull() && adopting(ctx, p) {
		return contactsync.ListOptions{Props: true, PropsUpTo: adoptMaxContacts}
	}
	return contactsync.ListOptions{Props: true, For: keysBook(ctx, state.Contacts)}
}

// keysBook is a book of the contact ids of a contacts map, without their
// values: what a listing or a count needs to know which contacts the map
// names.
func keysBook(ctx context.Context, m types.Map) *contactsync.Book {
	keys, _ := contactEntries(ctx, m) // a broken map is reported where the map is read
	ids := make([]contactsync.Desired, 0, len(keys))
	for id := range keys {
		ids = append(ids, contactsync.Desired{ID: id})
	}
	return contactsync.BookOf(ids)
}

// unsubscribeOnDestroy unsubscribes what destroy targets (on_destroy =
// "unsubscribe"), by an import above batch_threshold, after the batches of
// the resource were waited for.
func (w *contactWriter) unsubscribeOnDestroy(ctx context.Context, state listContactsModel, t destroyTargets, service *contactsync.ServiceList, private privateGetter, resp *resource.DeleteResponse) {
	var pending []string
	for id, before := range t.Before {
		w.data.contacts.Released.Add(w.listID, id, before)
	}
	// What destroy unsubscribes is recorded as released before it writes,
	// with its batch, in the private state a failed destroy leaves: the
	// next destroy resumes the batch instead of importing again, and an
	// apply that keeps the resource after all brings the contacts back.
	applied, d := readListApplied(ctx, private, state.isFile())
	resp.Diagnostics.Append(d...)
	t.release(&applied, service)
	keep := func() {
		resp.Diagnostics.Append(writeJSONKey(ctx, resp.Private, privateApplied, applied)...)
		resp.Diagnostics.Append(writeJSONKey(ctx, resp.Private, privateBatches, pending)...)
	}
	keep()
	started := func(id string) {
		pending = append(pending, id)
		keep()
	}
	byImport := int64(t.contacts()) > state.BatchThreshold.ValueInt64() && len(t.Email) > 0
	if byImport && !w.runImport(ctx, "UNSUBSCRIBE", func(f *os.File) error { return contactsync.WriteUnsubscribeImport(f, t.Email) }, started, &resp.Diagnostics) {
		resp.Diagnostics.AddError("Contacts not unsubscribed", "The UNSUBSCRIBE import of destroy did not finish; the resource stays in the state with the import's batch: the next destroy waits for that batch and unsubscribes what is left, without importing again, and an apply that keeps the resource brings the contacts back.")
		return
	}
	// The import unsubscribes e-mail only; mobile goes by single calls.
	if _, finished := w.writeChanges(ctx, t.changes(byImport), started, &resp.Diagnostics); !finished {
		resp.Diagnostics.AddError("Contacts not unsubscribed", "An UNSUBSCRIBE import of destroy (for contacts whose id a URL path cannot carry) did not finish; the resource stays in the state with the import's batch: the next destroy waits for that batch and unsubscribes what is left, without importing again.")
		return
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if t.contacts() == 0 {
		return
	}
	resp.Diagnostics.AddWarning("Contacts unsubscribed, not deleted",
		fmt.Sprintf("The service has no call that deletes a contact. Destroying rms_list_contacts for list %s (on_destroy = %q) unsubscribed %d contacts from e-mail and %d from mobile, the channels its input set; they are no longer managed by Terraform, but they remain in the list (they go with the list).",
			w.listID, onDestroyUnsubscribe, len(t.Email), len(t.Mobile)))
}

// runningBatches are the batches of pending the service does not show
// finished (or that could not be read), one read each.
func (r *listContactsResource) runningBatches(ctx context.Context, pending []string) []string {
	var running []string
	for _, id := range pending {
		b, err := r.data.client.Batches.Get(ctx, id)
		if err == nil && b.Finished() {
			continue
		}
		running = append(running, id)
	}
	return running
}
