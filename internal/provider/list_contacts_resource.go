package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/validators"
)

var (
	_ resource.Resource                     = &listContactsResource{}
	_ resource.ResourceWithConfigure        = &listContactsResource{}
	_ resource.ResourceWithConfigValidators = &listContactsResource{}
	_ resource.ResourceWithModifyPlan       = &listContactsResource{}
	_ resource.ResourceWithImportState      = &listContactsResource{}
	_ resource.ResourceWithIdentity         = &listContactsResource{}
	_ resource.ResourceWithUpgradeState     = &listContactsResource{}
)

// NewListContactsResource returns the rms_list_contacts resource.
func NewListContactsResource() resource.Resource { return &listContactsResource{} }

// listContactsResource holds the membership of one whole list: Terraform
// core's cost grows faster than linearly with the number of resources, so
// a list of tens of thousands of recipients cannot be one rms_contact each.
// Refresh reads the list with one paged listing; apply writes only what
// differs (list_contacts_apply.go); a file input keeps digests in state,
// never the rows.
type listContactsResource struct {
	data *providerData
}

func (r *listContactsResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_list_contacts"
}

func (r *listContactsResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	timeoutsBlock := timeouts.Block(ctx, timeouts.Opts{
		Create: true, Update: true, Delete: true,
		CreateDescription: "How long an apply that creates the resource may wait for its import batches, as a Go duration (`45m`, `2h`). Default `30m`. When it passes, the apply ends with a warning, the batch ids are kept, and the next apply waits for them before it writes anything else.",
		UpdateDescription: "As `create`, for an apply that changes the resource. Default `30m`.",
		DeleteDescription: "With `on_destroy = \"unsubscribe\"`: how long destroy may wait for an import batch of this resource still running and for its own UNSUBSCRIBE import batch. Default `30m`.",
	}).(schema.SingleNestedBlock)
	timeoutsBlock.Description = "Time limits of the waits for import batches."
	statusDescription := func(what string) string {
		return "Desired " + what + " subscription status: `SUBSCRIBED` or `UNSUBSCRIBED`; leave it out to leave the status to the service. " +
			"An opt-out the recipient made outside Terraform is never undone (the plan names such contacts in a warning) unless `allow_resubscribe` is set; a re-subscription the configuration itself asks for (it had set `UNSUBSCRIBED`) is applied."
	}
	resp.Schema = schema.Schema{
		Version: onDestroySchemaVersion,
		Description: "The contacts of one list as one resource: for lists of thousands to hundreds of thousands of recipients, where one `rms_contact` per recipient makes every plan slow (Terraform's cost per resource grows faster than linearly). " +
			"Give the contacts as a map (`contacts`) or as a CSV file (`source_file`). A refresh reads the list with one paged listing; an apply writes only what differs: " +
			"up to `batch_threshold` changed contacts by single calls run side by side, above it by import batches (an `ADD` import for new contacts and non-empty values, an `UNSUBSCRIBE` import for unsubscriptions) " +
			"plus single calls for what an `ADD` import cannot do (it merges only non-empty cells): removed values, mobile statuses, re-subscriptions, and new contacts that must start unsubscribed. After batches that report every row done, the rest is written by single calls without reading the list again; after a batch that reports refused rows (or no count), or one that created contacts whose status the input sets, the list is read again and anything still not as configured is written by single calls. A contact found in the list is updated, never created again.\n\n" +
			"Every plan that changes contacts says what happens to how many people, in one warning per list and input titled \"Changes to the contacts of list N (input)\": contacts to create, to subscribe and to unsubscribe as the input says, to unsubscribe because `exclusive` does not name them, and with properties to change, each with its first ids, and the opt-outs kept; a plan that only keeps opt-outs is titled \"Opt-outs kept in list N (input)\".\n\n" +
			"Resources that share a list: `exclusive = true` means the resource owns its list; another `rms_list_contacts` or `rms_contact` of the configuration on the same list is refused at plan, naming both, unless `keep_ids` of the exclusive one names its contacts (see `keep_ids` for what the provider cannot see). Non-exclusive resources may share a list; each plan works from its own refresh's listing.\n\n" +
			"The service has no call that deletes a contact: contacts the configuration stops naming are only forgotten, or, with `exclusive = true`, unsubscribed (e-mail and mobile); they stay in the list. " +
			"**Destroy forgets the contacts by default** (`on_destroy = \"forget\"`): destroying the resource, or removing its block, writes nothing to the service, and the contacts stay in the list as they are. " +
			"With `on_destroy = \"unsubscribe\"`, destroy unsubscribes the channels the input manages (see `on_destroy`; above `batch_threshold` through an `UNSUBSCRIBE` import for e-mail), counted per channel in the destroy plan and held by the guardrail. " +
			"A replacement (`-replace`, a tainted object, a changed `list_id`, in either order) unsubscribes nobody whatever `on_destroy` says: the new object takes the contacts over, and the old one only forgets them.\n\n" +
			"Consent: an opt-out a recipient made outside Terraform is never undone unless `allow_resubscribe = true`. For a map input, the statuses last applied per contact are kept in the resource's private state. " +
			"For a file input, only the contacts the file last set `UNSUBSCRIBED` are remembered: a contact the service shows `UNSUBSCRIBED` is re-subscribed only when the file had unsubscribed it and now says `SUBSCRIBED`, or when `allow_resubscribe` is set. " +
			"`exclusive` unsubscriptions and the `UNSUBSCRIBE` import are never held back by the consent rule (unsubscribing is always allowed). " +
			"The unsubscriptions Terraform made itself (`exclusive`) are remembered too: a contact named again gets the status the input says, or, where it says nothing, the one it had before. " +
			"An opt-out a refresh or an apply has seen outlives the contact's stay in the list: a contact that leaves it (a `REPLACE` import, a cut file, a removal by hand) and that the input adds back is created `UNSUBSCRIBED` on the channels it had left, named in the plan (\"re-added unsubscribed, as they opted out before they left the list\"), until `allow_resubscribe` or `allow_resubscribe_ids` allows it.\n\n" +
			"A replaced list keeps its opt-outs: when `list_id` changes (above all when the `rms_list` itself is replaced, `terraform apply -replace=rms_list.example` or a change that forces a new list), the destroy half reads the old list while it still exists, and every contact the create adds to the new list starts `UNSUBSCRIBED` on the channels (e-mail, mobile) its recipient had opted out of there, whatever the input says, named in a warning; `allow_resubscribe = true` subscribes them as configured. " +
			"Terraform's own unsubscriptions (`exclusive`, a status the input set) are not opt-outs. This works in the default order (destroy, then create) within one apply; with `create_before_destroy` the new list is filled before the old object's destroy runs, and the opt-outs are **not** carried. A tainted `rms_list_contacts` has no record to pass on: every `UNSUBSCRIBED` of the old list then counts as an opt-out.\n\n" +
			"Guardrail: every plan that unsubscribes contacts (`exclusive`, a destroy with `on_destroy = \"unsubscribe\"`) says, per channel, how many and what share of the contacts subscribed on that channel before the change that is; a plan above `max_unsubscribe` contacts **and** `max_unsubscribe_percent` on e-mail or on mobile (default 100 and 10 %) fails before anything is written. " +
			"A destroy reads the resource's limits from the state (a destroy has no configuration) and the provider block's from the configuration; use `prevent_destroy` for a list that must never be emptied.\n\n" +
			"Import with the list id: `terraform import rms_list_contacts.example 42`. Nothing is managed until the first apply, which writes only the contacts that differ from the configuration.",
		Attributes: guardrailResourceAttributes(map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				Description:   "The list id (the import id).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"list_id": schema.StringAttribute{
				Required:      true,
				Description:   "Id of the list whose contacts this resource holds, e.g. `rms_list.example.id`. Changing it (a replaced `rms_list` included) replaces the resource: the new list is managed, and the old list's contacts are forgotten, not unsubscribed. In the default order (destroy, then create) the old list's opt-outs are carried: a contact added to the new list starts `UNSUBSCRIBED` on the channels it had opted out of, named in a warning, unless `allow_resubscribe`; with `create_before_destroy` they are not carried.",
				Validators:    []validator.String{listIDValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"contacts": schema.MapNestedAttribute{
				Optional: true,
				Description: "The contacts, keyed by `originalId`. Give `contacts` or `source_file`. The state holds, for these keys, what the service has (properties under the key form written here), so a plan shows per contact what is added, changed or, with `exclusive`, unsubscribed. " +
					"Removing a key forgets the contact (or unsubscribes it with `exclusive = true`). " +
					"Ids `.` and `..` cannot be carried in a URL path: those contacts are written by import rows whatever `batch_threshold` says, and what no import can do for them (removing a value, subscribing, a mobile status) is refused at plan.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"properties": schema.MapAttribute{
						ElementType: types.StringType,
						Optional:    true,
						Description: "Attribute values, keyed by attribute name (`email`, `firstname`) or id written as a string (`\"3\"`); either form reads back without a diff. Each attribute may be named once per contact (a name and the id of the same attribute are refused at plan time, on a list made in the same apply too), and only attributes of the account: any other key is refused at plan time, naming the attributes that exist (and, when the plan could not read the map, before the apply's first write). An empty string means the contact has no value, as an empty cell of `source_file` does (`lookup(p, \"lastname\", \"\")` settles after one apply). Only the keys written here are managed; removing a key removes that value from the contact.",
					},
					"email_status": schema.StringAttribute{
						Optional:    true,
						Description: statusDescription("e-mail"),
						Validators:  []validator.String{stringvalidator.OneOf(subscriptionStates...)},
					},
					"mobile_status": schema.StringAttribute{
						Optional:    true,
						Description: statusDescription("mobile (SMS)"),
						Validators:  []validator.String{stringvalidator.OneOf(subscriptionStates...)},
					},
				}},
			},
			"source_file": schema.StringAttribute{
				Optional: true,
				Description: "Path of a CSV file whose rows are the contacts. Give `contacts` or `source_file`. The first row names the columns: the identity column (see `identity_column`), optional `email_status` and `mobile_status` columns (an empty cell leaves the status to the service), and contact attributes by name or id. " +
					"An empty attribute cell means the contact must not have that value. A file whose bytes are not valid in `encoding` (`UTF8`, `UTF16`) is refused at plan time, naming its first bad line; a header without the identity column names the `delimiter` that would find it. The file is read at plan, refresh and apply, as a stream; the state keeps digests of it (`desired_sha256`), never its rows, and a plan names the first contacts it changes in a warning. " +
					"Column names are matched exactly, in letter case too, as the service matches them: a column that differs only in case from the identity column, a status column or an attribute of the account (`Email_Status`, `FirstName`) is refused at plan time, naming the right spelling; a column that names no attribute of the account (`shoe_size`) is refused at plan time, naming the attributes that exist, and again before the apply's first write when the plan could not read the file. The header is read by the rules of `rms_list_import`, except the status columns, which the service's import does not have: `rms_list_import` refuses them, and this resource refuses a status column the account also has as an attribute. " +
					"The apply never writes a file other than the one the plan showed: with `terraform plan -out` and `terraform apply PLANFILE`, a file rewritten in between is refused before anything is written. On a list the resource already manages, the error is the provider's \"Source file changed since the plan\" (when the plan changed the file or found drift); on a new resource (a list made in the same apply included, since `desired_sha256` and `contact_count` are planned from the file alone), Terraform's own \"Provider produced inconsistent final plan ... produced an invalid new value for .desired_sha256\", which here means the file changed: plan again.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"delimiter": schema.StringAttribute{
				Optional:    true,
				Computed:    true,
				Default:     stringdefault.StaticString(","),
				Description: "The column delimiter of `source_file`, as the character itself: `\",\"` (default), `\";\"`, `\"\\t\"`, `\"|\"`.",
				Validators:  []validator.String{validators.Delimiter()},
			},
			"encoding": schema.StringAttribute{
				Optional:    true,
				Computed:    true,
				Default:     stringdefault.StaticString("UTF8"),
				Description: "Encoding of `source_file`: `UTF8` (default; a byte order mark is ignored), `UTF16`, `ISO-8859-1` or `ANSI` (Windows-1252).",
				Validators:  []validator.String{importEncodingValidator},
			},
			"identity_column": schema.StringAttribute{
				Optional:    true,
				Description: "Name of the column of `source_file` that holds each contact's `originalId`; default `originalId`. A column that names an attribute of the account (`email`, `mobile`, by name or id) also sets that attribute, as `rms_list_import` of the same file does.",
				Validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"exclusive": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				Description: "When `true`, contacts of the list that the configuration does not name are unsubscribed from e-mail and mobile (the interface cannot delete a contact; they stay in the list). The plan counts them (`unmanaged_subscribed`) and names the first ones in a warning. " +
					"The apply unsubscribes nobody the plan did not count: a contact subscribed since the plan stops it before its first write. A plan that cannot count (the list id known only during the apply, `-refresh=false`) says so, and its apply stops if it would unsubscribe anyone (a list made in the same run is empty); so does a new resource's, whose plan is refused when it counts someone. `max_unsubscribe` or `max_unsubscribe_percent` set explicitly (here or in the provider block) lets those through within the limits. " +
					"Another `rms_list_contacts` or `rms_contact` on the same list is refused at plan unless `keep_ids` names its contacts. " +
					"When `false` (default), only the named contacts are managed.",
			},
			"allow_resubscribe": schema.BoolAttribute{
				Optional:    true,
				Computed:    true,
				Default:     booldefault.StaticBool(false),
				Description: "Allows an apply to re-subscribe contacts that opted out outside Terraform when the configuration says `SUBSCRIBED`, and, when a changed `list_id` replaces the resource, to add the contacts that had opted out of the old list to the new one as configured. Default `false`: such opt-outs are honoured and named in a warning.",
			},
			"allow_resubscribe_ids": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Description: "Contacts, by `originalId`, whose opt-out an apply may undo when the configuration says `SUBSCRIBED` (or, for a contact Terraform unsubscribed, leaves the status to the service): `allow_resubscribe` for these contacts only, and **once**: the first apply with an id uses it, and an opt-out the contact makes after that is honoured while the id stays here (remove the id and apply, then name it again, to allow once more). " +
					"Each id must be a contact of the input or one this resource has seen opt out; any other is an error at plan (a typo would allow nothing). " +
					"For contacts that an `exclusive` apply unsubscribed and could not record, because `terraform` was killed (SIGKILL, a runner that vanished) in the middle of it: the provider cannot tell them from recipients who opted out, so it leaves them unsubscribed and names them in a plan warning; name here the ones Terraform unsubscribed, apply once, and remove the argument.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
			},
			"keep_ids": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Description: "With `exclusive = true`: contacts, by `originalId`, that the resource never unsubscribes though its input does not name them, because another resource of the configuration manages them on the same list. Feed it by reference, e.g. `keys(rms_list_contacts.other.contacts)` or `[rms_contact.other.original_id]`: without it, another `rms_list_contacts` or `rms_contact` on the list of an exclusive resource is refused at plan, naming both. The plan counts and names the contacts it spares. " +
					"The provider sees only resources planned together: not other states, another provider alias, or resources left out by `-target`; their contacts are unsubscribed like any other the input does not name, and the plan names and counts them.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
			},
			"batch_threshold": schema.Int64Attribute{
				Optional:    true,
				Computed:    true,
				Default:     int64default.StaticInt64(defaultBatchThreshold),
				Description: fmt.Sprintf("Up to this many changed contacts an apply writes by single calls (%d at once, within the provider's `max_requests_per_second`); above it, by import batches plus single calls for what imports cannot do. Default `%d`.", contactsync.WriteConcurrency, defaultBatchThreshold),
				Validators:  []validator.Int64{int64validator.AtLeast(0)},
			},
			"contact_count": schema.Int64Attribute{
				Computed:    true,
				Description: "Number of contacts the configuration names.",
			},
			"desired_sha256": schema.StringAttribute{
				Computed:    true,
				Description: "For `source_file`: SHA-256 of the contacts the file wants (sorted by id, so the order of rows does not matter). Null for `contacts`.",
			},
			"service_sha256": schema.StringAttribute{
				Computed: true,
				Description: "For `source_file`: SHA-256 of what the service holds for the file's contacts, in the form of `desired_sha256` (an opt-out the consent rule honours counts as the file's value). Equal to `desired_sha256` when the list is as the file wants it; a refresh that finds drift changes it, and the plan shows it and names the first contacts in a warning. " +
					"Empty after an apply that could not make every change. Null for `contacts`.",
			},
			attrOnDestroy: onDestroyAttribute("What destroying this resource, or removing its block, does to the contacts: `\"forget\"` (default) writes nothing to the service (no subscription status, no import), and the contacts stay in the list with the statuses they have; " +
				"`\"unsubscribe\"` unsubscribes, for each contact the input names, the channels the input sets a status for: e-mail when the contact has an `email_status` (map) or a non-empty `email_status` cell (file), mobile likewise with `mobile_status`. " +
				"Channels the input leaves to the service are not touched, so give your contacts a status (say `email_status = \"SUBSCRIBED\"`, or an `email_status` column) if destroy should unsubscribe them. " +
				"The destroy plan counts them per channel, and the guardrail (`max_unsubscribe`, `max_unsubscribe_percent`, default included) holds a destroy above the limits. " +
				"A destroy has no configuration, so the value in the state counts: a changed value takes effect after an apply, and a removed block uses the value last applied. " +
				"With `\"unsubscribe\"`, destroy first waits (within `timeouts.delete`) for an import batch of this resource that an apply stopped waiting for, and fails, writing nothing, if it does not finish; with `\"forget\"` it warns that such a batch goes on after the destroy. " +
				"A replacement unsubscribes nobody whatever this says. State written by releases before this argument existed reads as `\"forget\"`."),
			"unmanaged_subscribed": schema.Int64Attribute{
				Computed:    true,
				Description: "Contacts of the list that the configuration does not name and that the service shows subscribed (e-mail or mobile). With `exclusive = true` an apply unsubscribes them, so it is planned as 0.",
			},
		}, "a plan of this resource (`exclusive` unsubscriptions, a destroy with `on_destroy = \"unsubscribe\"`)"),
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock},
	}
	resp.Schema.Attributes[attrUnrecordedOptOuts] = unrecordedOptOutsAttribute()
	resp.Schema.Attributes[attrPlannedChanges] = plannedChangesAttribute(listContactsPlannedChangesDescription)
	resp.Schema.Attributes[attrSuppressionListID] = suppressionResourceAttribute("Where opt-outs go and which are honoured: an opt-out of this list's contacts that the suppression list does not hold yet makes the plan an update (`unrecorded_opt_outs`), whose apply copies it there; a contact the suppression list holds is created unsubscribed on its suppressed channels and never re-subscribed on them.")
}

// UpgradeState adds on_destroy = "forget" to state written before it
// existed (on_destroy.go says why an upgrade).
func (r *listContactsResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return onDestroyUpgraders()
}

func (r *listContactsResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"list_id": identityschema.StringAttribute{RequiredForImport: true, Description: "Id of the list, e.g. `\"42\"`."},
	}}
}

func (r *listContactsResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		listContactsInput{},
	}
}

func (r *listContactsResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}
