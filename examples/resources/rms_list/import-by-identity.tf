# Terraform 1.12 and later: import by the list's resource identity.
import {
  to       = rms_list.newsletter
  identity = { id = "42" }
}
