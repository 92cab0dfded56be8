terraform {
  # optional() object attributes with defaults need 1.3; the provider itself
  # is supported from Terraform 1.11 and OpenTofu 1.10.
  required_version = ">= 1.3.0"

  required_providers {
    rms = {
      source = "rms-labs/rms"
    }
  }
}
