# A campaign: the body is an HCL object, written as the entity's JSON would
# be, without jsonencode. Plans show a change per key.
resource "rms_resource" "spring_sale" {
  collection = "campaigns"
  body = {
    name    = "Spring sale"
    subject = "20% off everything"
    budget  = 2500
    tags    = ["seasonal", "sale"]
    audience = {
      rule = { field = "status", op = "eq", value = "SUBSCRIBED" }
    }
  }
}

# Fields the service adds are in output, navigated directly.
output "spring_sale_status" {
  value = try(rms_resource.spring_sale.output.status, null)
}

# Triggers have no typed resource: they are managed through rms_resource.
# Their `channel` (EMAIL, the default, or SMS) decides what a transactional
# message sent through them needs (see rms_transactional_message).
resource "rms_resource" "order_confirmation" {
  collection = "triggers"
  body = {
    name    = "Order confirmation"
    channel = "EMAIL"
    subject = "Your order {{order.id}}"
    content = "Hello {{firstname}}, thank you for your order."
  }
}

# A nested collection under an existing entity.
resource "rms_resource" "spring_sale_note" {
  collection = "campaigns/${rms_resource.spring_sale.id}/notes"
  body = {
    text = "Reviewed by marketing"
  }
}

# A key another tool manages can be left alone.
resource "rms_resource" "newsletter_filter" {
  collection = "filters"
  body = {
    name        = "Active subscribers"
    description = "maintained in the web interface"
  }
  lifecycle {
    ignore_changes = [body.description]
  }
}
