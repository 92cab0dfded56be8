# A whole account set up end to end. Run it against the bundled emulator with
# `make demo`, or against your account with the RMS_* environment variables
# set (see the provider documentation).
terraform {
  required_providers {
    rms = {
      source = "rms-labs/rms"
    }
  }
}

# Configured from RMS_BASE_URL, RMS_CUSTOMER_ID, RMS_USERNAME and
# RMS_PASSWORD.
provider "rms" {}

resource "rms_project" "newsletter" {
  name        = "Newsletter"
  description = "Monthly newsletter to subscribers"
}

data "rms_project" "newsletter" {
  id = rms_project.newsletter.id
}

resource "rms_list" "subscribers" {
  name         = "Newsletter subscribers"
  description  = "Receives the monthly newsletter"
  sender_name  = "Newsletter"
  sender_email = "news@example.com"
  # A demo, destroyed again with its contacts. Keep the default (true) for a
  # real list: deleting it would delete its recipients' opt-outs too.
  deletion_protection = false
}

resource "rms_contact" "ada" {
  list_id     = rms_list.subscribers.id
  original_id = "customer-1815"
  properties = {
    email     = "ada@example.com"
    firstname = "Ada"
    lastname  = "Lovelace"
  }
}

resource "rms_contact" "charles" {
  list_id     = rms_list.subscribers.id
  original_id = "customer-1791"
  properties = {
    email = "charles@example.com"
    "3"   = "Charles" # attribute id 3 is firstname
  }
  # Has asked for e-mail only.
  mobile_status = "UNSUBSCRIBED"
}

data "rms_contacts" "subscribers" {
  list_id    = rms_list.subscribers.id
  depends_on = [rms_contact.ada, rms_contact.charles, rms_list_import.subscribers]
}

# More subscribers, imported in bulk from a CSV file (streamed to the
# service; a changed file is imported again on the next apply).
resource "rms_list_import" "subscribers" {
  list_id = rms_list.subscribers.id
  type    = "ADD"
  file    = "${path.module}/subscribers.csv"
}

# A statistics export of the account's lists, with their contact counts,
# streamed to a local CSV file. The import's batch in triggers orders the
# export after the import and runs it again when the list is re-imported.
resource "rms_statistics_export" "lists" {
  export_type = "LISTS"
  period      = "TODAY"
  output_path = "${path.module}/exports/lists.csv"

  triggers = {
    import = rms_list_import.subscribers.batch_id
  }
  depends_on = [rms_contact.ada, rms_contact.charles]
}
