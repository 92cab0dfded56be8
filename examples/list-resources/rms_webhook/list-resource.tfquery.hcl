# Terraform 1.14 and later: run `terraform query` beside the configuration
# that holds the provider block.

# Every webhook of the account.
list "rms_webhook" "all" {
  provider = rms
}

# Active webhooks that receive finished imports.
list "rms_webhook" "imports" {
  provider = rms
  config {
    event  = "import.finished"
    active = true
  }
}
