# Terraform 1.14 and later. In a file ending in .tfquery.hcl beside the
# configuration that holds the provider block:
#   terraform query                                  # list what the account has
#   terraform query -generate-config-out=generated.tf  # write resources and import blocks

# Every project of the account.
list "rms_project" "all" {
  provider = rms
}

# Only projects whose name contains "spring" (any case).
list "rms_project" "spring" {
  provider = rms
  config {
    name_contains = "spring"
  }
}
