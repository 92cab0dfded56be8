# Takes over the contacts of an existing list, by the list's id. Nothing is
# managed until the first apply, which writes only the contacts that differ.
import {
  to = rms_list_contacts.customers
  id = "42"
}
