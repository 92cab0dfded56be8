# Fill a new list from a CSV file right after it is created; or run the
# import on demand with
#   terraform apply -invoke=action.rms_run_list_import.subscribers
action "rms_run_list_import" "subscribers" {
  config {
    list_id         = rms_list.newsletter.id
    type            = "ADD"
    file            = "${path.module}/subscribers.csv"
    identity_column = "email"
    timeout         = "1h"
  }
}

resource "rms_list" "newsletter" {
  name = "Newsletter"
  # Refuse to delete it while it holds contacts (the default).
  deletion_protection = true
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.rms_run_list_import.subscribers]
    }
  }
}
