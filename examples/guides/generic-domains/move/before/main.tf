# Before: a project and a list managed as rms_resource.
resource "rms_resource" "newsletter" {
  collection = "projects"
  body = {
    name        = "Newsletter"
    description = "Monthly newsletter"
  }
}

resource "rms_resource" "subscribers" {
  collection = "lists"
  body = {
    name        = "Newsletter subscribers"
    senderName  = "Example Shop"
    senderEmail = "news@example.com"
  }
}
