import {
  to = rms_list_import.customers
  id = "5/ADD/17/18"
}
