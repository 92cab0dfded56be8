# Bring contacts that already exist in list 12 under management.
locals {
  existing = ["ada@example.com", "grace@example.com"]
}

import {
  for_each = toset(local.existing)
  to       = rms_contact.subscriber[each.key]
  id       = provider::rms::contact_import_id("12", each.key) # "12/ada@example.com"
}

resource "rms_contact" "subscriber" {
  for_each    = toset(local.existing)
  list_id     = "12"
  original_id = each.key
  properties = {
    email = each.key
  }
}
