terraform {
  required_providers {
    rms = {
      source = "rms-labs/rms"
    }
  }
}

# The block rms-emulator printed when it started. For a real account, leave
# the block empty and set RMS_BASE_URL, RMS_CUSTOMER_ID, RMS_USERNAME and
# RMS_PASSWORD instead.
provider "rms" {
  base_url    = "http://127.0.0.1:8080"
  customer_id = 1000
  username    = "rms"
  password    = "rms-password"
}

resource "rms_list" "newsletter" {
  name         = "Newsletter subscribers"
  sender_name  = "Example News"
  sender_email = "news@example.com"
  # Refuse to delete it while it holds contacts (the default).
  deletion_protection = true
}

resource "rms_contact" "ada" {
  list_id     = rms_list.newsletter.id
  original_id = "customer-1815"
  properties = {
    email     = "ada@example.com"
    firstname = "Ada"
  }
  mobile_status = "UNSUBSCRIBED"
}

output "list_id" {
  value = rms_list.newsletter.id
}
