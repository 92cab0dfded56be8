# A webhook is imported by its numeric id. The service never returns the
# secret: set secret (or secret_wo) in the configuration and apply once to
# manage it.
terraform import rms_webhook.crm_sync 42
