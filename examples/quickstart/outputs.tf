output "project" {
  description = "The project the quickstart created, as the service holds it."
  value = {
    id           = rms_project.newsletter.id
    name         = data.rms_project.newsletter.name
    description  = data.rms_project.newsletter.description
    date_created = rms_project.newsletter.date_created
  }
}

output "subscribers" {
  description = "The list the quickstart created, its contacts and any address that appears twice."
  value = {
    list_id    = rms_list.subscribers.id
    contacts   = { for c in data.rms_contacts.subscribers.contacts : c.original_id => c.properties["email"] }
    duplicates = data.rms_contacts.subscribers.duplicates
  }
}
