variable "webhook_secret" {
  type      = string
  sensitive = true
}

# Deliveries are POSTed to url and signed with the secret: the header
# X-RMS-Signature is "v1=" + hex(HMAC-SHA256(secret, timestamp + "." + body)).
resource "rms_webhook" "crm_sync" {
  url         = "https://hooks.example.com/rms"
  events      = ["contact.subscribed", "contact.unsubscribed", "message.bounced"]
  description = "keeps the CRM's opt-outs in step"
  secret      = var.webhook_secret
}
