# A trigger is a transactional e-mail or SMS, sent one message at a time
# through rms_transactional_message (or the service's API). Its channel is
# EMAIL (the default) or SMS.
resource "rms_resource" "order_confirmation" {
  collection = "triggers"
  body = {
    name    = "Order confirmation"
    channel = "EMAIL"
    subject = "Your order {{order.id}}"
    content = "Hello {{firstname}}, thank you for your order."
  }
}

resource "rms_resource" "delivery_sms" {
  collection = "triggers"
  body = {
    name    = "Delivery notice"
    channel = "SMS"
    content = "Your parcel arrives today."
  }
}

output "order_confirmation_trigger_id" {
  value = rms_resource.order_confirmation.id
}
