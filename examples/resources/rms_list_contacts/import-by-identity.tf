# Terraform 1.12 and later: import by the resource identity, the list's id.
import {
  to       = rms_list_contacts.customers
  identity = { list_id = "42" }
}
