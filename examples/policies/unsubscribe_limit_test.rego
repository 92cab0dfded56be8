# Tests of unsubscribe_limit.rego: `opa test -v examples/policies` (make
# policy-test). The plans under testdata/ are real `terraform show -json`
# output, cut to what the policy reads, that TestAccPlanPolicyGolden in
# internal/provider makes against the emulator and keeps current
# (RMS_UPDATE_GOLDEN=1 rewrites them); each lies in a folder of its own
# because opa loads every JSON file of one folder into the same document.
# One input only is written by hand, and says so: a plan of a provider
# version without planned_changes, which this provider cannot make.
package rms.plan_test

import data.rms.plan

# rms_list_contacts: a file that sets 1 of 10 contacts UNSUBSCRIBED.

test_golden_unsubscribing_one_of_ten_is_held if {
	msgs := plan.deny with input as data.testdata.held
	msgs == {"rms_list_contacts.members: unsubscribes 1 of 10 contacts on email (10 %: 1 as the input says, 0 by exclusive), above the 1 % limit: needs a second approval"}
	not plan.allow with input as data.testdata.held
}

# The limit is a share: exactly the limit passes, and a data document
# raises it.
test_golden_exactly_the_limit_passes if {
	count(plan.deny) == 0 with input as data.testdata.held with data.rms.max_unsubscribe_percent as 10
	count(plan.deny) == 1 with input as data.testdata.held with data.rms.max_unsubscribe_percent as 9.9
}

# rms_list_contacts: a file that adds 5 contacts to 10.

test_golden_creating_contacts_passes if {
	count(plan.deny) == 0 with input as data.testdata.passed
	count(plan.warn) == 0 with input as data.testdata.passed
	plan.allow with input as data.testdata.passed
}

# rms_list_contacts whose list id comes from a terraform_data known only
# during the apply: the counts are unknown, and the terraform_data change
# beside it is ignored.

test_golden_unknown_counts_are_held if {
	msgs := plan.deny with input as data.testdata.unknown
	msgs == {"rms_list_contacts.members: the counts of contacts changed are not known at plan time (unknown: planned_changes): plan again once the list id and the input are known, or approve this plan by hand"}
	some rc in data.testdata.unknown.resource_changes
	rc.type == "terraform_data"
}

# rms_list_import ADD: it unsubscribes and removes nobody (known zeros), so
# it passes although its list_size and created are unknown.

test_golden_add_import_passes if {
	rc := data.testdata.import_add.resource_changes[0]
	rc.type == "rms_list_import"
	rc.change.after.planned_changes.email.unsubscribed == 0
	rc.change.after.planned_changes.removed == 0
	rc.change.after_unknown.planned_changes.list_size == true
	count(plan.deny) == 0 with input as data.testdata.import_add
	plan.allow with input as data.testdata.import_add
}

# rms_list_import REPLACE: a file that names 3 of 8 contacts removes 5 (2
# of them opt-outs copied into the suppression list first).

test_golden_replace_removing_five_of_eight_is_held if {
	msgs := plan.deny with input as data.testdata.import_replace
	msgs == {"rms_list_import.test: removes 5 of 8 contacts from the list for good (62.5 %; 2 opt-outs copied into the suppression list first), above the 1 % limit: needs a second approval"}
}

test_golden_replace_within_a_raised_limit_passes if {
	count(plan.deny) == 0 with input as data.testdata.import_replace with data.rms.max_remove_percent as 62.5
	count(plan.deny) == 1 with input as data.testdata.import_replace with data.rms.max_remove_percent as 62
}

# The unsubscribe limit does not let a removal through: they are counted
# apart.
test_golden_replace_is_held_whatever_the_unsubscribe_limit if {
	count(plan.deny) == 1 with input as data.testdata.import_replace with data.rms.max_unsubscribe_percent as 100
}

# rms_list_contacts: a recipient who opted out outside Terraform, brought
# back by allow_resubscribe_ids: counted under email.subscribed, named in a
# warning, not held (it unsubscribes nobody).

test_golden_resubscription_is_counted if {
	rc := data.testdata.resubscribed.resource_changes[0]
	rc.change.after.planned_changes.email.subscribed == 1
	msgs := plan.warn with input as data.testdata.resubscribed
	msgs == {"rms_list_contacts.members: re-subscribes 1 contacts on email that the list holds unsubscribed: check that each recipient agreed"}
	count(plan.deny) == 0 with input as data.testdata.resubscribed
}

# Written by hand: a plan of a provider version without planned_changes,
# which no plan of this provider can show (every create or update of its
# counted resources carries the attribute).
plan_without_counts := {"resource_changes": [{
	"address": "rms_list_contacts.l",
	"type": "rms_list_contacts",
	"change": {"actions": ["update"], "after": {"list_id": "7"}, "after_unknown": {}},
}]}

test_handwritten_missing_counts_are_held if {
	msgs := plan.deny with input as plan_without_counts
	msgs == {"rms_list_contacts.l: the plan carries no planned_changes (a provider version without counts?): approve this plan by hand"}
}
