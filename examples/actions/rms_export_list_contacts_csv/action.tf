# Write list 42's contacts as a source_file of rms_list_contacts, to adopt
# a list above 1,000 contacts (Terraform 1.14+):
#   terraform apply -invoke=action.rms_export_list_contacts_csv.newsletter
action "rms_export_list_contacts_csv" "newsletter" {
  config {
    list_id     = "42"
    output_path = "${path.module}/list-42.csv"
  }
}
