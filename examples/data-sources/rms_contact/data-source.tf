# Does this recipient exist? No error when it does not.
data "rms_contact" "ada" {
  list_id     = "42"
  original_id = "customer-1815"
}

output "ada_is_mailable" {
  value = data.rms_contact.ada.exists && data.rms_contact.ada.email_status == "SUBSCRIBED"
}
