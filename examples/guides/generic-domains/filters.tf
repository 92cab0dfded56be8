# A filter selects contacts of a list by their attributes; campaigns send to
# a filter's selection.
resource "rms_resource" "pro_customers" {
  collection = "filters"
  body = {
    name   = "Pro customers in Berlin"
    listId = tonumber(rms_list.customers.id)
    rules = [
      { attribute = rms_resource.plan.output.name, op = "eq", value = "pro" },
      { attribute = rms_resource.city.output.name, op = "eq", value = "Berlin" },
    ]
    match = "ALL"
  }
}

resource "rms_list" "customers" {
  name = "Customers"
}
