# The contacts of a list are imported by the list id. Nothing is managed
# until the first apply, which writes only the contacts that differ.
terraform import rms_list_contacts.customers 42
