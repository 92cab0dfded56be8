# Pages through the whole list.
data "rms_contacts" "newsletter" {
  list_id = "42"

  # The attribute compared to find recipients that appear more than once
  # (name or id); email is the default.
  duplicate_key = "email"

  # For a large list, keep only the count and the duplicates.
  include_contacts = false
}

output "duplicate_addresses" {
  # e.g. { "ada@example.com" = ["customer-1815", "customer-2024"] }
  value = data.rms_contacts.newsletter.duplicates
}

check "no_duplicate_recipients" {
  assert {
    condition     = length(data.rms_contacts.newsletter.duplicates) == 0
    error_message = "Some addresses appear under more than one original id: ${jsonencode(data.rms_contacts.newsletter.duplicates)}"
  }
}
