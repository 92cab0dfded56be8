# Up to a few thousand contacts written in the configuration: one
# rms_list_contacts with a map. The plan shows per contact what changes.
locals {
  members = {
    "m-1" = { email = "ada@example.com", firstname = "Ada" }
    "m-2" = { email = "bob@example.com", firstname = "Bob" }
  }
}

resource "rms_list_contacts" "newsletter" {
  list_id = rms_list.newsletter.id
  contacts = {
    for id, m in local.members : id => {
      properties   = m
      email_status = "SUBSCRIBED"
    }
  }
}
