resource "rms_list" "customers" {
  name = "Customers"
  # Refuse to delete it while it holds contacts (the default).
  deletion_protection = true
}

# Adds (or updates) the contacts of a CSV exported from the shop system. Its
# first row names the columns: the identity column and contact attributes.
# When the file changes, the next apply imports it again.
resource "rms_list_import" "customers" {
  list_id         = rms_list.customers.id
  type            = "ADD"
  file            = "${path.module}/customers.csv"
  delimiter       = ";"
  encoding        = "ANSI" # Windows-1252, as older spreadsheet programs save it
  identity_column = "email"

  # Rows the service refuses (a wrong number of fields, no e-mail) are
  # contacts missing from the list: by default (0) any is an error naming
  # them. The shop export is known to hold a few rows without an address;
  # up to 10 are named in a warning instead.
  max_failed_rows = 10

  timeouts {
    create = "1h"
  }
}

# Unsubscribes the addresses of a small inline list.
resource "rms_list_import" "opt_outs" {
  list_id         = rms_list.customers.id
  type            = "UNSUBSCRIBE"
  identity_column = "email"
  content         = <<-CSV
    email
    left@example.com
  CSV

  depends_on = [rms_list_import.customers]
}

output "customers_import" {
  value = "${rms_list_import.customers.affected} of ${rms_list_import.customers.total} rows imported, ${rms_list_import.customers.failed} bad"
}
