resource "rms_list" "newsletter" {
  name = "Newsletter"
  # Refuse to delete it while it holds contacts (the default).
  deletion_protection = true
}

# A few contacts as a map keyed by originalId: the plan shows per contact
# what is added or changed. Properties by attribute name or id ("3").
resource "rms_list_contacts" "team" {
  list_id = rms_list.newsletter.id
  contacts = {
    "ada" = {
      properties    = { email = "ada@example.com", firstname = "Ada" }
      email_status  = "SUBSCRIBED"
      mobile_status = "UNSUBSCRIBED"
    }
    "bob" = {
      properties = { email = "bob@example.com", "3" = "Bob" }
    }
  }
}

resource "rms_list" "customers" {
  name = "Customers"
  # Refuse to delete it while it holds contacts (the default).
  deletion_protection = true
}

# Tens of thousands of contacts from a CSV file: the state keeps digests of
# it, never its rows. Columns: the identity, contact attributes by name or
# id, and optional email_status / mobile_status. exclusive = true
# unsubscribes contacts of the list the file does not name (the service
# cannot delete a contact; they stay in the list).
resource "rms_list_contacts" "customers" {
  list_id         = rms_list.customers.id
  source_file     = "${path.module}/customers.csv"
  delimiter       = ";"
  identity_column = "customer_no"
  exclusive       = true
  batch_threshold = 200

  # A nightly sync may unsubscribe up to 500 contacts, whatever their share
  # of the list (the plan fails above it, before anything is written).
  max_unsubscribe = 500

  # Destroy (or removing this block) forgets the contacts by default and
  # writes nothing. "unsubscribe" unsubscribes, on destroy, the channels the
  # file sets a status for (its email_status / mobile_status cells), counted
  # and held by the limits above; it takes effect after one apply.
  on_destroy = "unsubscribe"

  timeouts {
    create = "1h"
    update = "1h"
  }
}
