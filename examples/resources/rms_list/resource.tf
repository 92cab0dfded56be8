resource "rms_list" "newsletter" {
  name         = "Newsletter subscribers"
  description  = "Everyone who signed up on the website"
  sender_name  = "Example News"
  sender_email = "news@example.com"

  # The default: while the list holds contacts, a plan that deletes or
  # replaces it fails (its contacts and their opt-outs would go with it).
  # Apply false first to delete it on purpose.
  deletion_protection = true
}
