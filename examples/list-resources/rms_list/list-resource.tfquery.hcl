# Terraform 1.14 and later: run `terraform query` beside the configuration
# that holds the provider block.

# Every recipient list of the account, with the whole rms_list of each in
# the results.
list "rms_list" "all" {
  provider         = rms
  include_resource = true
}

# Only lists whose name contains "newsletter" (any case).
list "rms_list" "newsletters" {
  provider = rms
  config {
    name_contains = "newsletter"
  }
}
