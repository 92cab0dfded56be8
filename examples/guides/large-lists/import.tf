# A one-off load that Terraform should not keep in line afterwards: one
# import batch, run again only when the file changes. Changes made in the
# service later are not Terraform's concern. The service's import has no
# status columns (it cannot set subscription statuses), so its file has no
# email_status column: a file with one is refused at plan, and belongs in
# rms_list_contacts' source_file.
resource "rms_list_import" "archive" {
  list_id         = rms_list.archive.id
  type            = "ADD"
  file            = "${path.module}/archive.csv"
  delimiter       = ";"
  identity_column = "customer_no"
}
