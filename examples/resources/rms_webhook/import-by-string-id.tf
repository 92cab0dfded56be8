import {
  to = rms_webhook.crm_sync
  id = "42"
}
