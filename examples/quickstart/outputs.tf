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

output "subscribers_import" {
  description = "The bulk import of subscribers.csv."
  value = {
    batch_id = rms_list_import.subscribers.batch_id
    status   = rms_list_import.subscribers.status
    rows     = rms_list_import.subscribers.total
    imported = rms_list_import.subscribers.affected
    bad_rows = rms_list_import.subscribers.failed
  }
}

output "lists_export" {
  description = "The statistics export of the account's lists and the file it wrote."
  value = {
    batch_id    = rms_statistics_export.lists.batch_id
    status      = rms_statistics_export.lists.status
    rows        = rms_statistics_export.lists.total
    file        = rms_statistics_export.lists.output_path
    sha256      = rms_statistics_export.lists.sha256
    finished_at = rms_statistics_export.lists.finished_at
  }
}
