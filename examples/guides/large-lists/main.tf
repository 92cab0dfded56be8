terraform {
  required_providers {
    rms = {
      source = "rms-labs/rms"
    }
  }
}

# Credentials from RMS_BASE_URL, RMS_CUSTOMER_ID, RMS_USERNAME and
# RMS_PASSWORD.
provider "rms" {}

resource "rms_list" "staff" {
  name = "Staff"
}

resource "rms_list" "newsletter" {
  name = "Newsletter"
}

resource "rms_list" "customers" {
  name = "Customers"
}

resource "rms_list" "archive" {
  name = "Archive"
}
