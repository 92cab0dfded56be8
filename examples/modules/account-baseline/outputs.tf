output "contact_attribute_ids" {
  description = "Ids of the contact attributes this module created, by name."
  value       = { for name, p in rms_resource.contact_attribute : name => p.id }
}

output "list_ids" {
  description = "Ids of the lists, by the key given in var.lists."
  value       = { for key, l in rms_list.this : key => l.id }
}

output "seed_contacts" {
  description = "The seed contacts, as \"<list key>/<address>\" => the list id they are in."
  value       = { for key, c in rms_contact.seed : key => c.list_id }
}

output "project_id" {
  description = "Id of the project."
  value       = rms_project.this.id
}

output "webhook_id" {
  description = "Id of the webhook."
  value       = rms_webhook.this.id
}

output "trigger_id" {
  description = "Id of the trigger, for rms_transactional_message and the send action."
  value       = rms_resource.trigger.id
}
