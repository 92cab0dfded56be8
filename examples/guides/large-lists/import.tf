# A one-off load that Terraform should not keep in line afterwards: one
# import batch, run again only when the file changes. Changes made in the
# service later are not Terraform's concern.
resource "rms_list_import" "archive" {
  list_id         = rms_list.archive.id
  type            = "ADD"
  file            = "${path.module}/customers.csv"
  delimiter       = ";"
  identity_column = "customer_no"
}
