# Terraform 1.12 and later: import by the contact's resource identity, the
# list's id and the contact's original id.
import {
  to = rms_contact.ada
  identity = {
    list_id     = "42"
    original_id = "customer-1815"
  }
}
