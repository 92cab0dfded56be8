# Needs neither an emulator nor credentials (Terraform 1.7+, OpenTofu
# 1.8+): `terraform test -filter=tests/mock.tftest.hcl`. The mock still
# loads the provider for its schemas, validation and functions, and makes
# up every computed value. Made-up ids would be random strings, which the
# provider's validators refuse where an id must be numeric (list_id of
# rms_contact), so the defaults below give each type a numeric id.

mock_provider "rms" {
  mock_resource "rms_list" {
    defaults = { id = "101" }
  }
  mock_resource "rms_project" {
    defaults = { id = "201" }
  }
  mock_resource "rms_webhook" {
    defaults = { id = "301" }
  }
  mock_resource "rms_resource" {
    defaults = { id = "401" }
  }
}

variables {
  name_prefix        = "acme: "
  contact_attributes = ["plan", "region"]
  lists = {
    "Newsletter" = { sender_email = "news@acme.example" }
    "Customers"  = {}
  }
  seed_recipients = ["qa@acme.example", "ceo@acme.example"]
  project_name    = "Onboarding"
  webhook_url     = "https://hooks.acme.example/rms"
  trigger = {
    name    = "Welcome"
    subject = "Welcome to Acme"
    content = "Hello {{firstname}}!"
  }
}

run "plans_the_baseline" {
  command = plan

  assert {
    condition     = length(rms_contact.seed) == 4
    error_message = "Expected each of 2 seed addresses in each of 2 lists."
  }
  assert {
    condition     = rms_resource.trigger.body.name == "acme: Welcome" && rms_resource.trigger.body.subject == "Welcome to Acme"
    error_message = "The trigger's body is ${jsonencode(rms_resource.trigger.body)}."
  }
}

run "applies_with_mock_ids" {
  assert {
    condition     = output.list_ids == { "Newsletter" = "101", "Customers" = "101" }
    error_message = "The lists have ids ${jsonencode(output.list_ids)}."
  }
  assert {
    condition     = output.seed_contacts["Customers/ceo@acme.example"] == "101"
    error_message = "The seed contacts are ${jsonencode(output.seed_contacts)}."
  }
  assert {
    condition     = output.trigger_id == "401" && output.project_id == "201" && output.webhook_id == "301"
    error_message = "Unexpected ids: trigger ${output.trigger_id}, project ${output.project_id}, webhook ${output.webhook_id}."
  }
  # A mock cannot make up a dynamic value: what the service would hold is null.
  assert {
    condition     = rms_resource.trigger.output == null
    error_message = "A mock was expected to leave the computed output null."
  }
}

run "refuses_a_subject_on_an_sms_trigger" {
  command = plan

  variables {
    trigger = { name = "Code", channel = "SMS", subject = "Your code", content = "{{code}}" }
  }

  expect_failures = [var.trigger]
}

run "refuses_a_seed_that_is_not_an_address" {
  command = plan

  variables {
    seed_recipients = ["qa at acme"]
  }

  expect_failures = [var.seed_recipients]
}
