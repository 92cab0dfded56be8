resource "rms_list" "newsletter" {
  name = "Newsletter subscribers"
  # Refuse to delete it while it holds contacts (the default).
  deletion_protection = true
}

# The safe pattern: leave the subscription statuses to the service (and to
# the recipients, who opt in and out on the service's hosted pages).
# email_status and mobile_status then only read them.
resource "rms_contact" "ada" {
  list_id     = rms_list.newsletter.id
  original_id = "customer-1815"

  # Keys are attribute names or attribute ids written as strings ("3" is
  # firstname in a new account); either form is kept as written.
  properties = {
    email    = "ada@example.com"
    "3"      = "Ada"
    lastname = "Lovelace"
  }
}

# Managing statuses: unsubscribing always works. A configured SUBSCRIBED
# never undoes an opt-out the recipient made outside Terraform: the plan
# warns and names the contact, service_email_status / service_mobile_status
# show the service's status, and the apply sends nothing. Changing a status
# here from UNSUBSCRIBED to SUBSCRIBED does re-subscribe.
resource "rms_contact" "charles" {
  list_id     = rms_list.newsletter.id
  original_id = "customer-1791"
  properties  = { email = "charles@example.com" }

  # Has asked for e-mail only.
  mobile_status = "UNSUBSCRIBED"
}

# Only with the recipient's consent (a new opt-in collected elsewhere):
# allow_resubscribe = true lets an apply undo an opt-out made outside
# Terraform.
resource "rms_contact" "grace" {
  list_id     = rms_list.newsletter.id
  original_id = "customer-1906"
  properties  = { email = "grace@example.com" }

  email_status      = "SUBSCRIBED"
  allow_resubscribe = true
}
