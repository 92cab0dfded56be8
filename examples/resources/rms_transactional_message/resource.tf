variable "release" {
  type = string
}

# The trigger the message goes through (see rms_resource).
resource "rms_resource" "provisioning_done" {
  collection = "triggers"
  body = {
    name    = "Provisioning finished"
    channel = "EMAIL"
    subject = "{{environment}} is ready"
  }
}

# Sends one e-mail per release: a change of triggers sends a new message.
# Destroying it does not unsend anything.
resource "rms_transactional_message" "provisioning_done" {
  trigger_id = rms_resource.provisioning_done.id
  recipient = {
    email = "ops@example.com"
  }
  properties = {
    environment = "staging"
  }
  order_rows = [
    { item = "database", size = 2, ha = true },
    { item = "cache", size = 1, ha = false },
  ]
  triggers = {
    release = var.release
  }
}

output "notice_sent_at" {
  value = rms_transactional_message.provisioning_done.sent_at
}
