resource "rms_list" "newsletter" {
  name = "Newsletter subscribers"
}

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

  # Managed: an opt-out made elsewhere is planned back. Leave these out to
  # only read the states.
  email_status  = "SUBSCRIBED"
  mobile_status = "UNSUBSCRIBED"
}
