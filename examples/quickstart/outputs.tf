output "project" {
  description = "The project the quickstart created, as the service holds it."
  value = {
    id           = rms_project.newsletter.id
    name         = data.rms_project.newsletter.name
    description  = data.rms_project.newsletter.description
    date_created = rms_project.newsletter.date_created
  }
}
