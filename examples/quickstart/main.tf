# A whole account set up end to end. Run it against the bundled emulator with
# `make demo`, or against your account with the RMS_* environment variables
# set (see the provider documentation).
terraform {
  required_version = ">= 1.11"
  required_providers {
    rms = {
      source = "rms-labs/rms"
    }
  }
}

# Configured from RMS_BASE_URL, RMS_CUSTOMER_ID, RMS_USERNAME and
# RMS_PASSWORD.
provider "rms" {}

resource "rms_project" "newsletter" {
  name        = "Newsletter"
  description = "Monthly newsletter to subscribers"
}

data "rms_project" "newsletter" {
  id = rms_project.newsletter.id
}
