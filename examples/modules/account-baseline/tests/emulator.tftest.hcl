# Applies the module for real, then destroys what it made. Run it against
# rms-emulator in CI (start the emulator, export RMS_BASE_URL,
# RMS_CUSTOMER_ID, RMS_USERNAME and RMS_PASSWORD, then `terraform test`);
# the provider has no block here, so it reads those variables. It works
# against a real account as well, which it leaves as it found it.

variables {
  name_prefix        = "test: "
  contact_attributes = ["plan"]
  # The test destroys its lists, seed contacts and all: unprotected.
  lists = {
    "Newsletter" = { sender_name = "Test News", sender_email = "news@example.com", deletion_protection = false }
    "Customers"  = { description = "everyone with an order", deletion_protection = false }
  }
  seed_recipients = ["qa@example.com"]
  project_name    = "Onboarding"
  webhook_url     = "https://hooks.example.com/rms"
  webhook_events  = ["contact.unsubscribed"]
  trigger = {
    name    = "Welcome"
    subject = "Welcome"
    content = "Hello {{firstname}}, your {{plan}} plan is ready."
  }
}

run "creates_the_baseline" {
  assert {
    condition     = length(output.list_ids) == 2 && alltrue([for id in values(output.list_ids) : can(regex("^[0-9]+$", id))])
    error_message = "Expected two lists with numeric ids, got ${jsonencode(output.list_ids)}."
  }
  assert {
    condition     = rms_list.this["Newsletter"].name == "test: Newsletter"
    error_message = "The list name lacks the prefix: ${rms_list.this["Newsletter"].name}."
  }
  assert {
    condition     = rms_contact.seed["Customers/qa@example.com"].email_status == "SUBSCRIBED"
    error_message = "The seed contact is not subscribed in Customers."
  }
  # output is what the service holds, read back: a mock cannot show it.
  assert {
    condition     = rms_resource.trigger.output.name == "test: Welcome"
    error_message = "The service holds trigger ${jsonencode(rms_resource.trigger.output)}."
  }
}

# A new prefix renames in place: the lists keep their ids.
run "renames_in_place" {
  variables {
    name_prefix = "renamed: "
  }

  assert {
    condition     = output.list_ids == run.creates_the_baseline.list_ids
    error_message = "The lists were replaced: ${jsonencode(run.creates_the_baseline.list_ids)} became ${jsonencode(output.list_ids)}."
  }
  assert {
    condition     = rms_project.this.name == "renamed: Onboarding"
    error_message = "The project was not renamed: ${rms_project.this.name}."
  }
}
