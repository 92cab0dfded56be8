# Properties are the account's contact attributes. A new account has email,
# mobile, firstname and lastname; add your own, then use them by name in
# rms_contact.properties, in the same configuration too: a contact resource
# that depends_on the attribute's rms_resource is applied once it exists.
# Names are unique and may not be digits only.
resource "rms_resource" "plan" {
  collection = "properties"
  body = {
    name        = "plan"
    description = "Subscription plan of the customer"
  }
}

resource "rms_resource" "city" {
  collection = "properties"
  body = {
    name = "city"
  }
}
