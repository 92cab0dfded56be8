terraform {
  required_providers {
    rms = {
      source = "rms-labs/rms"
    }
  }
}

# The client secret comes from the pipeline's secret store as an ephemeral
# variable (TF_VAR_rms_client_secret): Terraform 1.10+ keeps it out of the
# saved plan and the state. Apply a saved plan with the variable set again.
variable "rms_client_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

provider "rms" {
  base_url    = "https://server.example.com"
  customer_id = 1000

  # OAuth 2.0 client credentials: the provider asks token_url for a token
  # once per run and renews it before it expires, however long the apply.
  oauth2 = {
    token_url     = "https://auth.example.com/oauth2/token"
    client_id     = "terraform-ci"
    client_secret = var.rms_client_secret
    scopes        = ["lists", "contacts"]
    # What the gateway wants besides, in every token request:
    endpoint_params = { audience = "https://server.example.com/rest" }
  }
}
