# After: the same project and list as rms_project and rms_list. The moved
# blocks keep the objects and their ids: only the state changes shape, and
# the plan has nothing to change (Terraform 1.8+, OpenTofu 1.10+).
resource "rms_project" "newsletter" {
  name        = "Newsletter"
  description = "Monthly newsletter"
}

moved {
  from = rms_resource.newsletter
  to   = rms_project.newsletter
}

# The body's keys become the typed attributes: senderName is sender_name.
resource "rms_list" "subscribers" {
  name         = "Newsletter subscribers"
  sender_name  = "Example Shop"
  sender_email = "news@example.com"
}

moved {
  from = rms_resource.subscribers
  to   = rms_list.subscribers
}
