# Tests of unsubscribe_limit.rego: `opa test -v examples/policies` (make
# policy-test). The plans under testdata/ are real `terraform show -json`
# output, cut to what the policy reads, that TestAccPlanPolicyGolden in
# internal/provider keeps current (RMS_UPDATE_GOLDEN=1 rewrites them); each
# lies in a folder of its own because opa loads every JSON file of one folder
# into the same document.
package rms.plan_test

import data.rms.plan

# The golden plans, both ways.

test_golden_unsubscribing_one_of_ten_is_held if {
	msgs := plan.deny with input as data.testdata.held
	count(msgs) == 1
	some msg in msgs
	contains(msg, "rms_list_contacts.members: unsubscribes 1 of 10 contacts on email (10 %")
	not plan.allow with input as data.testdata.held
}

test_golden_creating_contacts_passes if {
	count(plan.deny) == 0 with input as data.testdata.passed
	plan.allow with input as data.testdata.passed
}

test_golden_unknown_counts_are_held if {
	msgs := plan.deny with input as data.testdata.unknown
	count(msgs) == 1
	some msg in msgs
	msg == "rms_list_contacts.members: the counts of contacts changed are not known at plan time (unknown: planned_changes): plan again once the list id and the input are known, or approve this plan by hand"
}

# The rule's edges, on plans written here.

change(actions, pc) := {"resource_changes": [{
	"address": "rms_list_contacts.l",
	"type": "rms_list_contacts",
	"change": {
		"actions": actions,
		"after": {"planned_changes": pc},
		"after_unknown": {"planned_changes": {"email": {}, "mobile": {}}},
	},
}]}

counts(list_size, email_unsub, email_excl, mobile_unsub, mobile_excl) := {
	"list_size": list_size,
	"created": 0,
	"created_unsubscribed": 0,
	"properties_changed": 0,
	"opt_outs_kept": 0,
	"suppressed": 0,
	"email": {"subscribed": 0, "unsubscribed": email_unsub, "unsubscribed_by_exclusive": email_excl},
	"mobile": {"subscribed": 0, "unsubscribed": mobile_unsub, "unsubscribed_by_exclusive": mobile_excl},
}

test_exactly_one_percent_passes if {
	count(plan.deny) == 0 with input as change(["update"], counts(100, 1, 0, 0, 0))
}

test_input_and_exclusive_add_up if {
	msgs := plan.deny with input as change(["update"], counts(100, 1, 1, 0, 0))
	msgs == {"rms_list_contacts.l: unsubscribes 2 of 100 contacts on email (2 %: 1 as the input says, 1 by exclusive), above the 1 % limit: needs a second approval"}
}

test_mobile_is_checked_too if {
	msgs := plan.deny with input as change(["update"], counts(1000, 0, 0, 0, 11))
	msgs == {"rms_list_contacts.l: unsubscribes 11 of 1000 contacts on mobile (1.1 %: 0 as the input says, 11 by exclusive), above the 1 % limit: needs a second approval"}
}

test_both_channels_each_named if {
	count(plan.deny) == 2 with input as change(["update"], counts(10, 1, 0, 1, 0))
}

test_empty_list_unsubscribes_nobody if {
	count(plan.deny) == 0 with input as change(["create"], counts(0, 0, 0, 0, 0))
}

test_replace_is_checked if {
	count(plan.deny) == 1 with input as change(["delete", "create"], counts(10, 0, 5, 0, 0))
}

test_delete_and_no_op_are_not_counted if {
	count(plan.deny) == 0 with input as change(["delete"], counts(10, 5, 0, 0, 0))
	count(plan.deny) == 0 with input as change(["no-op"], counts(10, 5, 0, 0, 0))
}

test_other_resources_are_ignored if {
	inp := {"resource_changes": [{"address": "rms_list.l", "type": "rms_list", "change": {"actions": ["create"], "after": {}, "after_unknown": {"id": true}}}]}
	count(plan.deny) == 0 with input as inp
}

import_change(after_pc, unknown_pc) := {"resource_changes": [{
	"address": "rms_list_import.i",
	"type": "rms_list_import",
	"change": {
		"actions": ["create"],
		"after": {"planned_changes": after_pc},
		"after_unknown": {"planned_changes": unknown_pc},
	},
}]}

test_an_unknown_unsubscribe_count_is_held if {
	inp := import_change(
		{
			"email": {"subscribed": 0, "unsubscribed_by_exclusive": 0},
			"mobile": {"subscribed": 0, "unsubscribed": 0, "unsubscribed_by_exclusive": 0},
		},
		{"list_size": true, "email": {"unsubscribed": true}, "mobile": {}},
	)
	msgs := plan.deny with input as inp
	msgs == {"rms_list_import.i: the counts of contacts changed are not known at plan time (unknown: planned_changes.email.unsubscribed, planned_changes.list_size): plan again once the list id and the input are known, or approve this plan by hand"}
}

test_an_unknown_channel_is_held if {
	inp := import_change({"mobile": {"unsubscribed": 0, "unsubscribed_by_exclusive": 0}}, {"email": true, "mobile": {}})
	count(plan.deny) == 1 with input as inp
}

# An ADD import: it unsubscribes nobody, whatever the list's size.
test_unknown_size_with_no_unsubscription_passes if {
	inp := import_change(
		{
			"email": {"unsubscribed": 0, "unsubscribed_by_exclusive": 0},
			"mobile": {"unsubscribed": 0, "unsubscribed_by_exclusive": 0},
		},
		{"list_size": true, "created": true, "email": {"subscribed": true}, "mobile": {"subscribed": true}},
	)
	count(plan.deny) == 0 with input as inp
}

test_unknown_size_with_an_unsubscription_is_held if {
	inp := import_change(
		{
			"email": {"unsubscribed": 3, "unsubscribed_by_exclusive": 0},
			"mobile": {"unsubscribed": 0, "unsubscribed_by_exclusive": 0},
		},
		{"list_size": true, "email": {}, "mobile": {}},
	)
	msgs := plan.deny with input as inp
	count(msgs) == 1
	some msg in msgs
	contains(msg, "(unknown: planned_changes.list_size)")
}

test_missing_counts_are_held if {
	inp := {"resource_changes": [{
		"address": "rms_list_contacts.l",
		"type": "rms_list_contacts",
		"change": {"actions": ["update"], "after": {"list_id": "7"}, "after_unknown": {}},
	}]}
	msgs := plan.deny with input as inp
	count(msgs) == 1
	some msg in msgs
	contains(msg, "carries no planned_changes")
}

test_limit_can_be_raised_by_data if {
	count(plan.deny) == 0 with input as change(["update"], counts(100, 5, 0, 0, 0))
		with data.rms.max_unsubscribe_percent as 5
	count(plan.deny) == 1 with input as change(["update"], counts(100, 6, 0, 0, 0))
		with data.rms.max_unsubscribe_percent as 5
}
