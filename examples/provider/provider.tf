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
}
