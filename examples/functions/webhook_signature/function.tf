# Test vector for a receiver that verifies deliveries: the X-RMS-Signature
# header a delivery of this body, signed at this X-RMS-Timestamp, carries.
variable "webhook_secret" {
  type      = string
  sensitive = true
}

output "expected_signature" {
  sensitive = true
  value = provider::rms::webhook_signature(
    var.webhook_secret,
    "1795341600",
    "{\"id\":\"d-1\",\"event\":\"contact.subscribed\"}",
  )
}
