# Terraform 1.14 and later: run `terraform query` beside the configuration
# that holds the provider block.

# The first 500 contacts of list 42, in order of creation. Terraform asks
# for 100 results unless `limit` says otherwise; the provider reads the list
# page by page and stops there.
list "rms_contact" "newsletter" {
  provider = rms
  limit    = 500
  config {
    list_id = "42"
  }
}

# Contacts of list 42 that opted out of e-mail but still receive SMS.
list "rms_contact" "email_opt_outs" {
  provider = rms
  limit    = 10000
  config {
    list_id       = "42"
    email_status  = "UNSUBSCRIBED"
    mobile_status = "SUBSCRIBED"
  }
}
