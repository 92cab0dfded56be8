resource "rms_project" "newsletter" {
  name        = "Newsletter"
  description = "Monthly newsletter to subscribers"
}
