# Look a project up by name (it must be unique) ...
data "rms_project" "newsletter" {
  name = "Newsletter"
}

# ... or by id.
data "rms_project" "by_id" {
  id = "42"
}

output "newsletter_project_id" {
  value = data.rms_project.newsletter.id
}
