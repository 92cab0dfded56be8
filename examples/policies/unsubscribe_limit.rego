# An example policy for `terraform show -json PLANFILE` (OPA v1 syntax):
# it holds a plan that unsubscribes more than max_unsubscribe_percent of a
# list on e-mail or on mobile, a REPLACE import that removes more than
# max_remove_percent of its list, and a plan whose counts are not known at
# plan time; it warns about re-subscriptions. It reads planned_changes, the
# counts that rms_list_contacts and rms_list_import plan.
#
#   opa eval --fail-defined -d unsubscribe_limit.rego -i plan.json 'data.rms.plan.deny[msg]'
#   conftest test --namespace rms.plan -p unsubscribe_limit.rego plan.json
package rms.plan

# max_unsubscribe_percent is the share of a list (contacts in the list when
# the plan was made) one plan may unsubscribe on a channel without a second
# approval. Override it with a data document {"rms": {"max_unsubscribe_percent": N}}.
default max_unsubscribe_percent := 1

max_unsubscribe_percent := data.rms.max_unsubscribe_percent

# max_remove_percent is the share of a list one REPLACE import may remove
# (planned_changes.removed: the contacts its file does not name, gone for
# good) without a second approval. Override it with {"rms": {"max_remove_percent": N}}.
default max_remove_percent := 1

max_remove_percent := data.rms.max_remove_percent

# counted_types are the resources that plan their counts in planned_changes.
counted_types := {"rms_list_contacts", "rms_list_import"}

channels := ["email", "mobile"]

# changes are the resource changes that write contacts: a delete or a no-op
# changes nobody through planned_changes.
changes contains rc if {
	some rc in input.resource_changes
	rc.type in counted_types
	some action in rc.change.actions
	action in {"create", "update"}
}

# unknown_counts are the counts of a change not known at plan time (the
# resource's create, a list id or input known only during the apply,
# -refresh=false), as paths: after_unknown marks them true, the whole
# attribute ("planned_changes") or one of its fields.
unknown_counts(rc) := {concat(".", array.concat(["planned_changes"], p)) |
	walk(object.get(rc.change, ["after_unknown", "planned_changes"], false), [p, true])
}

# counts_unknown holds when a count this policy reads is unknown: then
# nothing shows the change is small. Counts it does not read (created, say)
# may be unknown, and so may list_size when both channels' unsubscribe
# counts are known zeros (an ADD import): such a change unsubscribes nobody.
counts_unknown(rc) if "planned_changes" in unknown_counts(rc)

counts_unknown(rc) if {
	some channel in channels
	some field in ["", ".unsubscribed", ".unsubscribed_by_exclusive"]
	concat("", ["planned_changes.", channel, field]) in unknown_counts(rc)
}

counts_unknown(rc) if {
	"planned_changes.list_size" in unknown_counts(rc)
	some channel in channels
	unsubscribed(rc.change.after.planned_changes, channel) > 0
}

# A REPLACE import's removals, unknown when its list or file is known only
# during the apply.
counts_unknown(rc) if "planned_changes.removed" in unknown_counts(rc)

counts_unknown(rc) if {
	"planned_changes.list_size" in unknown_counts(rc)
	removed(rc.change.after.planned_changes) > 0
}

# counts_missing holds when the plan carries no counts at all (a provider
# version without planned_changes): nothing proves the change is small.
counts_missing(rc) if {
	not "planned_changes" in unknown_counts(rc)
	not is_object(object.get(rc.change, ["after", "planned_changes"], null))
}

# unsubscribed is what a change unsubscribes on a channel: as the input says
# and because the input does not name them (exclusive = true).
unsubscribed(pc, channel) := pc[channel].unsubscribed + pc[channel].unsubscribed_by_exclusive

# removed is what a change removes from its list: a REPLACE import's
# contacts its file does not name (0 for the other changes, and for a
# provider version without the count).
removed(pc) := object.get(pc, "removed", 0)

deny contains msg if {
	some rc in changes
	counts_unknown(rc)
	msg := sprintf(
		"%s: the counts of contacts changed are not known at plan time (unknown: %s): plan again once the list id and the input are known, or approve this plan by hand",
		[rc.address, concat(", ", sort(unknown_counts(rc)))],
	)
}

deny contains msg if {
	some rc in changes
	counts_missing(rc)
	msg := sprintf(
		"%s: the plan carries no planned_changes (a provider version without counts?): approve this plan by hand",
		[rc.address],
	)
}

# A list_size of 0 unsubscribes nobody: an empty list passes.
deny contains msg if {
	some rc in changes
	not counts_unknown(rc)
	pc := rc.change.after.planned_changes
	pc.list_size > 0
	some channel in channels
	n := unsubscribed(pc, channel)
	n * 100 > max_unsubscribe_percent * pc.list_size
	msg := sprintf(
		"%s: unsubscribes %d of %d contacts on %s (%v %%: %d as the input says, %d by exclusive), above the %v %% limit: needs a second approval",
		[
			rc.address, n, pc.list_size, channel, round((n * 10000) / pc.list_size) / 100,
			pc[channel].unsubscribed, pc[channel].unsubscribed_by_exclusive,
			max_unsubscribe_percent,
		],
	)
}

deny contains msg if {
	some rc in changes
	not counts_unknown(rc)
	pc := rc.change.after.planned_changes
	pc.list_size > 0
	n := removed(pc)
	n * 100 > max_remove_percent * pc.list_size
	msg := sprintf(
		"%s: removes %d of %d contacts from the list for good (%v %%; %d opt-outs copied into the suppression list first), above the %v %% limit: needs a second approval",
		[
			rc.address, n, pc.list_size, round((n * 10000) / pc.list_size) / 100,
			object.get(pc, "opt_outs_copied", 0), max_remove_percent,
		],
	)
}

# warn names the re-subscriptions of a plan (contacts the list holds
# unsubscribed that the input subscribes: a re-subscription the
# configuration asks for, or allow_resubscribe_ids allows) without holding
# it: someone should check each recipient agreed. conftest prints warn
# rules; with opa eval, query data.rms.plan.warn.
warn contains msg if {
	some rc in changes
	some channel in channels
	n := object.get(rc.change, ["after", "planned_changes", channel, "subscribed"], 0)
	n > 0
	msg := sprintf("%s: re-subscribes %d contacts on %s that the list holds unsubscribed: check that each recipient agreed", [rc.address, n, channel])
}

# allow is true when nothing above holds the plan.
default allow := false

allow if count(deny) == 0
