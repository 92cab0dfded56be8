# Terraform 1.14 and later: run `terraform query` beside the configuration
# that holds the provider block.

# Every campaign of the account, each with its whole entity in body.
list "rms_resource" "campaigns" {
  provider         = rms
  include_resource = true
  config {
    collection = "campaigns"
  }
}

# The triggers that transactional messages are sent through.
list "rms_resource" "triggers" {
  provider = rms
  config {
    collection = "triggers"
  }
}
