terraform {
  required_providers {
    rms = {
      source = "rms-labs/rms"
    }
  }
}

# Credentials are best given through RMS_USERNAME and RMS_PASSWORD so they
# stay out of the configuration.
provider "rms" {
  base_url    = "https://server.example.com"
  customer_id = 1000

  # Optional tuning.
  request_timeout     = "60s"
  max_retries         = 5
  batch_poll_interval = "30s"

  # Guardrail on mass unsubscription, for every resource of this provider:
  # a plan that unsubscribes (or, by a REPLACE import, removes) more than
  # max_unsubscribe contacts and more than max_unsubscribe_percent of a
  # list fails before anything is written. Defaults: 100 and 10.
  max_unsubscribe_percent = 25
}
