package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// listContactsModel is the state of an rms_list_contacts, which the
// resource and the files of its plan, apply, guardrail and import share.
type listContactsModel struct {
	ID                   types.String   `tfsdk:"id"`
	ListID               types.String   `tfsdk:"list_id"`
	Contacts             types.Map      `tfsdk:"contacts"`
	SourceFile           types.String   `tfsdk:"source_file"`
	Delimiter            types.String   `tfsdk:"delimiter"`
	Encoding             types.String   `tfsdk:"encoding"`
	IdentityColumn       types.String   `tfsdk:"identity_column"`
	Exclusive            types.Bool     `tfsdk:"exclusive"`
	AllowResubscribe     types.Bool     `tfsdk:"allow_resubscribe"`
	AllowResubscribeIDs  types.Set      `tfsdk:"allow_resubscribe_ids"`
	KeepIDs              types.Set      `tfsdk:"keep_ids"`
	BatchThreshold       types.Int64    `tfsdk:"batch_threshold"`
	ContactCount         types.Int64    `tfsdk:"contact_count"`
	DesiredSHA256        types.String   `tfsdk:"desired_sha256"`
	ServiceSHA256        types.String   `tfsdk:"service_sha256"`
	UnmanagedSubscribed  types.Int64    `tfsdk:"unmanaged_subscribed"`
	OnDestroy            types.String   `tfsdk:"on_destroy"`
	SuppressionListID    types.String   `tfsdk:"suppression_list_id"`
	UnrecordedOptOuts    types.Int64    `tfsdk:"unrecorded_opt_outs"`
	SuppressedSubscribed types.Int64    `tfsdk:"suppressed_subscribed"`
	PlannedChanges       types.Object   `tfsdk:"planned_changes"`
	Timeouts             timeouts.Value `tfsdk:"timeouts"`

	unsubscribeLimitArgs // max_unsubscribe, max_unsubscribe_percent
}

// listContactEntry is one value of the contacts map.
type listContactEntry struct {
	Properties   types.Map    `tfsdk:"properties"`
	EmailStatus  types.String `tfsdk:"email_status"`
	MobileStatus types.String `tfsdk:"mobile_status"`
}

var listContactEntryType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"properties":    types.MapType{ElemType: types.StringType},
	"email_status":  types.StringType,
	"mobile_status": types.StringType,
}}

// listContactsIdentity is the resource's identity: its list.
type listContactsIdentity struct {
	ListID types.String `tfsdk:"list_id"`
}

// defaultListContactsTimeout bounds an apply's waits for import batches.
const defaultListContactsTimeout = 30 * time.Minute

// isFile reports whether the model uses a source file.
func (m listContactsModel) isFile() bool { return !m.SourceFile.IsNull() }

// resubscribeIDs are the contacts allow_resubscribe_ids names (nil when
// it is null or unknown).
func (m listContactsModel) resubscribeIDs() map[string]bool { return idSet(m.AllowResubscribeIDs) }

// keepIDs are the contacts keep_ids names (nil when it is null or
// unknown).
func (m listContactsModel) keepIDs() map[string]bool { return idSet(m.KeepIDs) }

// idSet is the known strings of a set of contact ids, nil when the set is
// null or unknown.
func idSet(set types.Set) map[string]bool {
	if set.IsNull() || set.IsUnknown() {
		return nil
	}
	ids := map[string]bool{}
	for _, v := range set.Elements() {
		if s, ok := v.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			ids[s.ValueString()] = true
		}
	}
	return ids
}

// rules are the settings of the input that decide its diff and what its
// consent record remembers.
func (m listContactsModel) rules() contactsync.InputRules {
	return contactsync.InputRules{Exclusive: m.Exclusive.ValueBool(), AllowResubscribe: m.AllowResubscribe.ValueBool(),
		ResubscribeIDs: m.resubscribeIDs(), Keep: m.keepIDs()}
}

func (m listContactsModel) fileOptions() contactsync.FileOptions {
	return contactsync.FileOptions{Path: m.SourceFile.ValueString(), Delimiter: m.Delimiter.ValueString(), Encoding: m.Encoding.ValueString(), IdentityColumn: m.IdentityColumn.ValueString()}
}
