# Send a notice each time the action is invoked:
#   terraform apply -invoke=action.rms_send_transactional_message.ready
action "rms_send_transactional_message" "ready" {
  config {
    trigger_id = rms_resource.ready_trigger.id
    recipient  = { email = "ops@example.com" }
    properties = { env = "staging" }
  }
}

# Or send it whenever the environment is (re)created.
resource "terraform_data" "environment" {
  triggers_replace = var.release
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.rms_send_transactional_message.ready]
    }
  }
}
