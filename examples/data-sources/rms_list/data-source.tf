# By name (it must match exactly one list) ...
data "rms_list" "newsletter" {
  name = "Newsletter subscribers"
}

# ... or by id.
data "rms_list" "by_id" {
  id = "42"
}

output "newsletter_sender" {
  value = data.rms_list.newsletter.sender_email
}
