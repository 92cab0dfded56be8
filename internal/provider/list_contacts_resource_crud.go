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
	// replaced object's consent record; a deposed object's destroy
	// (create_before_destroy) will find this create and let the list be.
	listID := plan.ListID.ValueString()
	applied, _ := r.data.contacts.Provenance.TakeCarried(listID)
	r.apply(ctx, plan, types.MapNull(listContactEntryType), applied.ForInput(plan.isFile()), nil, resp.Private, true, timeout, &resp.State, resp.Identity, &resp.Diagnostics)
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
	r.apply(ctx, plan, state.Contacts, applied, pending, resp.Private, false, timeout, &resp.State, resp.Identity, &resp.Diagnostics)
}

// apply makes the list as plan says and saves the state: the plan, with the
// computed attributes as the apply leaves them. prior is the contacts map
// of the state (removals); applied and pending are what earlier applies
// left in private state (the consent record, batches not seen finish).
func (r *listContactsResource) apply(ctx context.Context, plan listContactsModel, prior types.Map, applied contactsync.Record, pending []string, private privateSetter,
	creating bool, timeout time.Duration, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	listID := plan.ListID.ValueString()
	w := &contactWriter{data: r.data, listID: listID, creating: creating, timeout: timeout}

	desired, d := r.desiredOf(ctx, plan, prior)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	// A file rewritten after the plan would make the apply write contacts
	// nobody reviewed, and Terraform would then report the new digest as
	// an inconsistent result: refuse before anything is written, as
	// rms_list_import does.
	if plan.isFile() {
		if err := fileChangedSincePlan(plan.SourceFile.ValueString(), plan.DesiredSHA256, contactsync.DesiredDigest(desired.Contacts, desired.Columns)); err != nil {
			diags.AddAttributeError(path.Root("source_file"), "Source file changed after the plan", err.Error())
			return
		}
	}

	out := plan
	out.ID = types.StringValue(listID)
	out.ContactCount = types.Int64Value(int64(len(desired.Contacts)))
	out.DesiredSHA256, out.ServiceSHA256 = types.StringNull(), types.StringNull()
	if plan.isFile() {
		out.DesiredSHA256 = types.StringValue(contactsync.DesiredDigest(desired.Contacts, desired.Columns))
		out.ServiceSHA256 = types.StringValue("")
	}
	out.UnmanagedSubscribed = types.Int64Value(0)
	// save records the state and the private state; it runs before every
	// return from here on, so a failure leaves what is known (the next
	// refresh reads what the service really holds).
	save := func() {
		setListContacts(ctx, state, out, diags)
		setIdentity(ctx, identity, listContactsIdentity{ListID: out.ListID}, diags)
		diags.Append(writeJSONKey(ctx, private, privateApplied, applied)...)
		diags.Append(writeJSONKey(ctx, private, privateBatches, pending)...)
	}

	// Batches an earlier apply stopped waiting for are waited for first: a
	// second import of the same rows must not run beside them.
	for len(pending) > 0 {
		if !w.wait(ctx, pending[0], diags) {
			save()
			return
		}
		pending = pending[1:]
	}

	service, err := r.data.contacts.List(ctx, listID)
	if err != nil {
		r.listError(diags, listID, err)
		save()
		return
	}
	applied.Prune(service)
	if creating {
		r.takeReleased(listID, service, &applied)
	}
	opts := contactsync.Options{Applied: applied.Lookup, Restore: applied.Restore, AllowResubscribe: plan.AllowResubscribe.ValueBool(), Exclusive: plan.Exclusive.ValueBool()}
	diff := contactsync.Compare(desired.Contacts, service, opts)
	// Terraform's own unsubscriptions are recorded before they are made,
	// so that an apply cut short mid-way still knows them: a record of an
	// unsubscription that did not happen is pruned by the next apply.
	for _, ch := range diff.Changes {
		if ch.Unsubscribe {
			applied.Release(ch.ID, service[ch.ID])
		}
	}
	diags.Append(writeJSONKey(ctx, private, privateApplied, applied)...)
	add, change, unsub := diff.Counts()
	tflog.Info(ctx, "list contacts: changes to write", map[string]any{"list_id": listID, "add": add, "change": change, "unsubscribe": unsub, "opted_out": len(diff.OptedOut)})
	if !r.guardExclusiveApply(plan, service, diff, diags) {
		if !creating { // a failed create leaves nothing in the state (no taint, no destroy)
			save()
		}
		return
	}

	if int64(len(diff.Changes)) > plan.BatchThreshold.ValueInt64() {
		rows, unsubscribe, created := contactsync.ImportPlan(diff.Changes)
		started := func(id string) {
			pending = append(pending, id)
			diags.Append(writeJSONKey(ctx, private, privateBatches, pending)...)
		}
		if len(rows) > 0 && !w.runImport(ctx, "ADD", func(f *os.File) error { return contactsync.WriteAddImport(f, rows) }, started, diags) {
			save()
			return
		}
		if len(unsubscribe) > 0 && !w.runImport(ctx, "UNSUBSCRIBE", func(f *os.File) error { return contactsync.WriteUnsubscribeImport(f, unsubscribe) }, started, diags) {
			save()
			return
		}
		pending = nil
		// What the imports did is read back, not assumed: the rest (and
		// anything an import left undone) goes by single calls.
		if service, err = r.data.contacts.List(ctx, listID); err != nil {
			w.readBackFailed(diags, err)
			save()
			return
		}
		opts.Fresh = created
		diff = contactsync.Compare(desired.Contacts, service, opts)
	}
	failed := w.writeSingles(ctx, diff.Changes, diags)
	if creating {
		r.data.contacts.Provenance.Create(listID, contactsync.HeldBack(desired.Contacts, service, applied))
	}

	// The applied statuses: what this apply wanted, except for contacts
	// whose write failed, which keep what was recorded before.
	next := contactsync.Record{File: plan.isFile(), Released: maps.Clone(applied.Released)}
	next.NoteApplied(desired.Contacts)
	for id := range failed {
		if st, ok := applied.Contacts[id]; ok {
			next.Contacts[id] = st
		} else {
			delete(next.Contacts, id)
		}
		if before, ok := applied.Released[id]; ok {
			next.Released[id] = before
		}
	}
	applied = next
	if len(failed) == 0 && plan.isFile() {
		out.ServiceSHA256 = out.DesiredSHA256
	}
	if !plan.Exclusive.ValueBool() {
		n := contactsync.UnmanagedSubscribed(service, namedSet(desired.Contacts))
		out.UnmanagedSubscribed = types.Int64Value(int64(n))
	}
	if len(diff.OptedOut) > 0 {
		diags.AddWarning("Opt-outs honoured",
			fmt.Sprintf("%d contacts of list %s opted out outside Terraform and were not re-subscribed, though the configuration says SUBSCRIBED: %s. "+
				"Set allow_resubscribe = true only if they agreed to be re-subscribed.", len(diff.OptedOut), listID, firstNames(diff.OptedOut[:min(len(diff.OptedOut), contactsync.MaxNamedInWarning)], len(diff.OptedOut))))
	}
	save()
}

// takeReleased records, as released by Terraform, the contacts this run's
// destroy of the list unsubscribed (a replacement whose destroy half could
// not hand them over): the diff then gives them the status the input says,
// or the one they had before, and the consent rule does not take
// Terraform's own unsubscribing for their opt-out.
func (r *listContactsResource) takeReleased(listID string, service map[string]contactsync.ServiceContact, applied *contactsync.Record) {
	for id := range service {
		st, ok := r.data.contacts.Released.Take(listID, id)
		if !ok {
			continue
		}
		delete(applied.Released, id) // the statuses before this run's destroy are the ones to restore
		applied.Release(id, contactsync.ServiceContact{Email: st.Status, Mobile: st.MobileStatus})
	}
}

func (r *listContactsResource) listError(diags *diag.Diagnostics, listID string, err error) {
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
	service, err := r.data.contacts.List(ctx, listID)
	if client.IsNotFound(err) {
		tflog.Info(ctx, "list is gone; removing its contacts from state", map[string]any{"list_id": listID})
		removeGone(ctx, resp, ident)
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read the contacts of list "+listID, err, nil)
		return
	}
	r.data.contacts.Snapshots.Put(listID, service)
	applied, d := readListApplied(ctx, req.Private, state.isFile())
	resp.Diagnostics.Append(d...)
	r.data.contacts.Provenance.Refresh(listID, applied)
	allow := state.AllowResubscribe.ValueBool()
	var named func(string) bool
	var refreshed *refreshedFile // the file as read now (list_contacts_file_digest.go)
	defer func() { resp.Diagnostics.Append(recordRefreshedFile(ctx, resp.Private, refreshed)...) }()
	if state.isFile() {
		desired, d := r.desiredOf(ctx, state, types.MapNull(listContactEntryType))
		if d.HasError() {
			// The file is gone or unreadable: the plan reports it; the
			// service's side cannot be compared without it.
			resp.Diagnostics.AddWarning("Source file not readable at refresh", fmt.Sprintf("%s; service_sha256 keeps its last value.", d.Errors()[0].Detail()))
			named = func(string) bool { return false }
		} else {
			state.ServiceSHA256 = types.StringValue(contactsync.ServiceDigest(desired.Contacts, desired.Columns, service, applied.Lookup, allow))
			named = namedSet(desired.Contacts)
			f := refreshedFileOf(state, contactsync.DesiredDigest(desired.Contacts, desired.Columns))
			refreshed = &f
		}
	} else {
		state.Contacts, d = r.refreshedEntries(ctx, state.Contacts, service, applied, allow)
		resp.Diagnostics.Append(d...)
		keys, _ := contactEntries(ctx, state.Contacts)
		named = func(id string) bool { _, ok := keys[id]; return ok }
	}
	n := contactsync.UnmanagedSubscribed(service, named)
	state.UnmanagedSubscribed = types.Int64Value(int64(n))
	state.ID = types.StringValue(listID)
	setListContacts(ctx, &resp.State, state, &resp.Diagnostics)
	setIdentity(ctx, resp.Identity, ident, &resp.Diagnostics)
}

// Delete unsubscribes the managed contacts (the interface cannot delete
// one) and forgets them: by single calls, or above batch_threshold by an
// UNSUBSCRIBE import (e-mail) plus single calls for mobile.
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
	if r.handOver(ctx, req.Private, listID, state.isFile(), &resp.Diagnostics) {
		return
	}
	desired, d := r.desiredOf(ctx, state, types.MapNull(listContactEntryType))
	if d.HasError() {
		resp.Diagnostics.AddWarning("Contacts forgotten, not unsubscribed",
			fmt.Sprintf("The source file could not be read, so destroy cannot tell which contacts of list %s it managed; they were left as they are: %s", listID, d.Errors()[0].Detail()))
		return
	}
	service, err := r.data.contacts.List(ctx, listID)
	if client.IsNotFound(err) {
		return // the list is gone, and its contacts with it
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read the contacts of list "+listID, err, nil)
		return
	}
	var targets []contactsync.Change
	var emails []string
	for _, w := range desired.Contacts {
		s, ok := service[w.ID]
		if !ok || !s.SubscribedOnSomeChannel() {
			continue
		}
		r.data.contacts.Released.Add(listID, w.ID, client.SubscriptionStatus{Status: s.Email, MobileStatus: s.Mobile})
		targets = append(targets, contactsync.Change{ID: w.ID, Unsubscribe: true})
		if s.Email != client.StatusUnsubscribed {
			emails = append(emails, w.ID)
		}
	}
	wr := &contactWriter{data: r.data, listID: listID, timeout: timeout}
	if int64(len(targets)) > state.BatchThreshold.ValueInt64() {
		if len(emails) > 0 && !wr.runImport(ctx, "UNSUBSCRIBE", func(f *os.File) error { return contactsync.WriteUnsubscribeImport(f, emails) }, func(string) {}, &resp.Diagnostics) {
			resp.Diagnostics.AddError("Contacts not unsubscribed", "The UNSUBSCRIBE import of destroy did not finish; the resource stays in the state, and the next destroy tries again.")
			return
		}
		// The import unsubscribes e-mail only; mobile goes by single calls.
		mobile := targets[:0]
		for _, t := range targets {
			if service[t.ID].Mobile != client.StatusUnsubscribed {
				mobile = append(mobile, contactsync.Change{ID: t.ID, Status: client.SubscriptionStatus{MobileStatus: client.StatusUnsubscribed}})
			}
		}
		targets = mobile
	}
	wr.writeSingles(ctx, targets, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.AddWarning("Contacts unsubscribed, not deleted",
		fmt.Sprintf("The service has no call that deletes a contact. The %d contacts of list %s that this resource managed were unsubscribed from e-mail and mobile and are no longer managed by Terraform, but they remain in the list (they go with the list).",
			len(desired.Contacts), listID))
}

// handOver reports whether this destroy is the half of a replacement
// (list_contacts_takeover.go): then the new object takes the contacts over
// and nobody is unsubscribed; the replaced object's consent record goes to
// the create half, when it manages the same list.
func (r *listContactsResource) handOver(ctx context.Context, planned privateGetter, listID string, file bool, diags *diag.Diagnostics) bool {
	if note, ok := readTakeover(ctx, planned); ok {
		if note.Applied != nil && note.ListID == listID {
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
	service, err := r.data.contacts.List(ctx, listID)
	if err != nil {
		addAPIError(diags, "Unable to read the contacts of list "+listID+" to give back the statuses Terraform took", err, nil)
		return true
	}
	var changes []contactsync.Change
	for id, st := range contactsync.GivenBack(held, old, service) {
		changes = append(changes, contactsync.Change{ID: id, Status: st})
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].ID < changes[j].ID })
	w := &contactWriter{data: r.data, listID: listID}
	w.writeSingles(ctx, changes, diags)
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
		"contact_count": int64(0), "unmanaged_subscribed": int64(0),
	} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), v)...)
	}
	setIdentity(ctx, resp.Identity, listContactsIdentity{ListID: types.StringValue(listID)}, &resp.Diagnostics)
}

// fileChangedSincePlan compares the digest of the source file's contacts
// at apply with the one planned (desired_sha256); an unknown plan value (the
// list id was not known at plan time) is nothing to compare with.
func fileChangedSincePlan(file string, planned types.String, got string) error {
	if planned.IsNull() || planned.IsUnknown() || planned.ValueString() == got {
		return nil
	}
	return fmt.Errorf("%s changed after the plan was made (the SHA-256 of its contacts is %s, the plan has %s); nothing was written. Plan and apply again", file, got, planned.ValueString())
}
