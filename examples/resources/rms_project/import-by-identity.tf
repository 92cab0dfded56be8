# Terraform 1.12 and later: import by the project's resource identity.
import {
  to       = rms_project.newsletter
  identity = { id = "42" }
}
