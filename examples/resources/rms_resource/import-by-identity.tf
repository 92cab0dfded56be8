# Terraform 1.12 and later: import by the entity's resource identity, its
# collection and its id there.
import {
  to = rms_resource.spring_sale
  identity = {
    collection = "campaigns"
    id         = "42"
  }
}
