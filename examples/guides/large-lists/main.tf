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
  name                = "Staff"
  deletion_protection = true # refuse to delete it while it holds contacts
}

resource "rms_list" "newsletter" {
  name                = "Newsletter"
  deletion_protection = true # refuse to delete it while it holds contacts
}

resource "rms_list" "customers" {
  name                = "Customers"
  deletion_protection = true # refuse to delete it while it holds contacts
}

resource "rms_list" "archive" {
  name                = "Archive"
  deletion_protection = true # refuse to delete it while it holds contacts
}
