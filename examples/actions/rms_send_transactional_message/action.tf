# The trigger whose message the action sends.
resource "rms_resource" "ready_trigger" {
  collection = "triggers"
  body = {
    name    = "Environment ready"
    channel = "EMAIL"
    subject = "{{env}} is ready"
  }
}

# Send a notice each time the action is invoked:
#   terraform apply -invoke=action.rms_send_transactional_message.ready
action "rms_send_transactional_message" "ready" {
  config {
    trigger_id = rms_resource.ready_trigger.id
    recipient  = { email = "ops@example.com" }
    properties = { env = "staging" }
  }
}

variable "release" {
  description = "The release being deployed; a new one re-creates the environment marker."
  type        = string
  default     = "v1"
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
