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

# A statistics export of the account's projects, streamed to a local CSV
# file. Referencing the project in triggers orders the export after it and
# re-runs the export when the project is replaced.
resource "rms_statistics_export" "projects" {
  export_type = "PROJECTS"
  period      = "TODAY"
  output_path = "${path.module}/exports/projects.csv"

  triggers = {
    project = rms_project.newsletter.id
  }
}
