# Thousands to hundreds of thousands of contacts that Terraform keeps in
# line with a CSV file: the state holds digests of the file, never its
# rows. exclusive = true unsubscribes contacts of the list the file does
# not name (they stay in the list: the service cannot delete a contact).
resource "rms_list_contacts" "customers" {
  list_id         = rms_list.customers.id
  source_file     = "${path.module}/customers.csv"
  delimiter       = ";"
  identity_column = "customer_no"
  exclusive       = true

  # The list is made in the same apply, so the first plan cannot count what
  # exclusive unsubscribes: it unsubscribes nobody it could not count (the
  # new list is empty). Later plans count, and each apply unsubscribes
  # nobody its plan did not count.

  timeouts {
    create = "1h"
    update = "1h"
  }
}
