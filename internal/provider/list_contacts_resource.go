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
// differs (list_contacts_writer.go); a file input keeps digests in state,
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
		Description: "The contacts of one list as one resource, from a map (`contacts`) or a CSV file (`source_file`), for lists of thousands to millions of recipients, where one `rms_contact` per recipient makes every plan slow. " +
			"An apply writes only what differs, and never undoes an opt-out made outside Terraform unless allowed; **destroy forgets the contacts by default**. " +
			"See How it reads and writes, Consent and Destroy on this page, and the guide \"Large lists\".",
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
						Description: "Attribute values, keyed by attribute name (`email`, `firstname`) or id written as a string (`\"3\"`); either form reads back without a diff. Each attribute may be named once per contact, and only attributes of the account: any other key is a warning at plan, and refused before the apply's first write if still absent then (see Attributes made in the same apply on this page). An empty string means the contact has no value, as an empty cell of `source_file` does. Only the keys written here are managed; removing a key removes that value from the contact.",
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
				Description: "Path of a CSV file whose rows are the contacts. Give `contacts` or `source_file`. The first row names the columns: the identity column (see `identity_column`), optional `email_status` and `mobile_status` columns (an empty cell leaves the status to the service), and contact attributes by name or id; an empty attribute cell means the contact must not have that value. " +
					"Column names are matched exactly, in letter case too, and checked against the account's attributes (see Attributes made in the same apply on this page). The state keeps digests of the file, never its rows, and a file rewritten between plan and apply is never applied. See The source file on this page.",
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
				Description: "When `true`, contacts of the list that the configuration does not name are unsubscribed from e-mail and mobile (they stay in the list); the plan counts them (`unmanaged_subscribed`) and names the first ones. " +
					"The apply unsubscribes nobody the plan did not count. A plan that cannot count, or a new resource's plan that counts someone, needs `max_unsubscribe` or `max_unsubscribe_percent` set explicitly. " +
					"Another contact resource on the same list is refused at plan unless `keep_ids` names its contacts. When `false` (default), only the named contacts are managed. See `exclusive` on this page.",
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
				Description: "Contacts, by `originalId`, whose opt-out an apply may undo when the configuration says `SUBSCRIBED` (or, for a contact Terraform unsubscribed, leaves the status to the service): `allow_resubscribe` for these contacts only, and **once** per id. " +
					"Each id must be a contact of the input or one this resource has seen opt out; any other is an error at plan. " +
					"The way back for contacts an `exclusive` apply unsubscribed when `terraform` was killed mid-apply. See Consent on this page.",
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
			attrOnDestroy: onDestroyAttribute("What destroying this resource, or removing its block, does to the contacts: `\"forget\"` (default) writes nothing to the service, and the contacts stay in the list with the statuses they have; " +
				"`\"unsubscribe\"` unsubscribes, for each contact the input names, the channels the input sets a status for, counted in the destroy plan and held by the guardrail. " +
				"A destroy reads the value from the state: a changed value takes effect after an apply. A replacement unsubscribes nobody whatever this says. See Destroy and replacement on this page."),
			"unmanaged_subscribed": schema.Int64Attribute{
				Computed:    true,
				Description: "Contacts of the list that the configuration does not name and that the service shows subscribed (e-mail or mobile). With `exclusive = true` an apply unsubscribes them, so it is planned as 0.",
			},
		}, "a plan of this resource (`exclusive` unsubscriptions, a destroy with `on_destroy = \"unsubscribe\"`)"),
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock},
	}
	resp.Schema.Attributes[attrUnrecordedOptOuts] = unrecordedOptOutsAttribute()
	resp.Schema.Attributes[attrSuppressedSubscribed] = suppressedSubscribedAttribute()
	resp.Schema.Attributes[attrPlannedChanges] = plannedChangesAttribute(listContactsPlannedChangesDescription)
	resp.Schema.Attributes[attrSuppressionListID] = suppressionResourceAttribute("Opt-outs of this list's contacts that the suppression list lacks are copied there by an update (`unrecorded_opt_outs`); contacts it holds are created, or kept, unsubscribed on their suppressed channels.")
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
		listContactsInput{adopted: r.data.adoptions()},
	}
}

func (r *listContactsResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}
