variable "pipeline_webhook_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

# Terraform 1.11 and later (not OpenTofu 1.10): a write-only secret never
# reaches state or plan, and the variable can be ephemeral; bump the version
# to rotate it.
resource "rms_webhook" "pipeline" {
  url               = "https://ci.example.com/hooks/rms"
  events            = ["import.finished", "export.finished"]
  secret_wo         = var.pipeline_webhook_secret
  secret_wo_version = 1
}
