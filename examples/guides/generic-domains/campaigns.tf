# A campaign: a message to a list (or a filter's selection of it). The body
# is written as the entity's JSON would be; plans show a change per key.
resource "rms_resource" "spring_sale" {
  collection = "campaigns"
  body = {
    name     = "Spring sale"
    subject  = "20% off for {{firstname}}"
    listId   = tonumber(rms_list.customers.id)
    filterId = tonumber(rms_resource.pro_customers.id)
    content  = "Visit {{shop_url}} before Sunday."
    tags     = ["seasonal", "sale"]
  }
}

# A note on the campaign, in the nested collection campaigns/{id}/notes.
resource "rms_resource" "spring_sale_review" {
  collection = "campaigns/${rms_resource.spring_sale.id}/notes"
  body = {
    text = "Approved by marketing"
  }
}
