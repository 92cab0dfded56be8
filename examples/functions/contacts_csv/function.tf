# Adopt list 42, above 1,000 contacts, on Terraform 1.11+: render its
# contacts as a source_file, write it once, then import the list with it.
#   terraform apply -target=data.rms_contacts.newsletter
#   terraform output -raw newsletter_csv > list-42.csv
data "rms_contacts" "newsletter" {
  list_id = "42"
}

output "newsletter_csv" {
  value = provider::rms::contacts_csv(data.rms_contacts.newsletter.contacts)
}
