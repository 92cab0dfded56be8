# A contact is imported by its list id and original id joined by a slash.
# The original id may itself contain slashes: the first slash splits.
terraform import rms_contact.ada 42/customer-1815
