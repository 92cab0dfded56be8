# A handful of contacts that other resources refer to, or that need
# lifecycle rules of their own: one rms_contact each.
resource "rms_contact" "ceo" {
  list_id     = rms_list.staff.id
  original_id = "staff-1"
  properties = {
    email     = "ceo@example.com"
    firstname = "Grace"
  }
  email_status = "SUBSCRIBED"
}
