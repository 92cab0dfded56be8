# A sign-up form that adds contacts to a list, asking for the attributes
# named in fields.
resource "rms_resource" "signup" {
  collection = "forms"
  body = {
    name        = "Newsletter sign-up"
    listId      = tonumber(rms_list.customers.id)
    fields      = ["email", "firstname", rms_resource.city.output.name]
    doubleOptIn = true
    redirectUrl = "https://www.example.com/thanks"
  }
}
