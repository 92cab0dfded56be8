# Terraform 1.12 and later: import by the webhook's resource identity.
import {
  to       = rms_webhook.crm_sync
  identity = { id = "42" }
}
