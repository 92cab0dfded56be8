# Secret fields go in the write-only sensitive_body (Terraform 1.11+,
# OpenTofu 1.11+): laid over body when sent, never stored in plan or state,
# and left out of output even when the service echoes them. Terraform cannot
# compare a write-only value, so change sensitive_body_version to send a new
# one. An ephemeral variable keeps the secret out of the saved plan too.
variable "smtp_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "rms_resource" "mail_relay" {
  collection = "integration"
  body = {
    name = "Mail relay"
    host = "smtp.example.com"
    user = "rms"
  }
  sensitive_body = {
    password = var.smtp_password
  }
  sensitive_body_version = 1
}
