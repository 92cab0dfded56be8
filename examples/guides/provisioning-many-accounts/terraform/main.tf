# Two accounts of the service, each given the same baseline, with Terraform:
# one aliased provider block per account, and one module call per account
# that names its provider. The passwords come from variables (set them with
# TF_VAR_passwords='{"acme":"...","globex":"..."}' or a .tfvars file kept
# out of version control), never from the configuration.
terraform {
  required_providers {
    rms = {
      source = "rms-labs/rms"
    }
  }
}

variable "base_url" {
  description = "The service's address; every account is served on it."
  type        = string
  default     = "https://server.example.com"
}

variable "passwords" {
  description = "Password of each account's API user, by account key."
  type        = map(string)
  sensitive   = true
}

variable "webhook_secrets" {
  description = "Secret each account's webhook signs deliveries with, by account key."
  type        = map(string)
  sensitive   = true
  default     = {}
}

provider "rms" {
  alias       = "acme"
  base_url    = var.base_url
  customer_id = 1001
  username    = "terraform@acme.example"
  password    = var.passwords["acme"]
}

provider "rms" {
  alias       = "globex"
  base_url    = var.base_url
  customer_id = 1002
  username    = "terraform@globex.example"
  password    = var.passwords["globex"]
}

# What every account has alike; what differs is passed per call.
locals {
  contact_attributes = ["plan", "region"]
  trigger = {
    name    = "Welcome"
    subject = "Welcome aboard"
    content = "Hello {{firstname}}, your {{plan}} plan is ready."
  }
}

module "acme" {
  source    = "../../../modules/account-baseline"
  providers = { rms = rms.acme }

  name_prefix        = "acme: "
  contact_attributes = local.contact_attributes
  lists = {
    "Newsletter" = { sender_name = "Acme News", sender_email = "news@acme.example" }
    "Customers"  = { description = "Everyone with an order" }
  }
  project_name   = "Onboarding"
  webhook_url    = "https://hooks.acme.example/rms"
  webhook_secret = lookup(var.webhook_secrets, "acme", null)
  trigger        = local.trigger
}

module "globex" {
  source    = "../../../modules/account-baseline"
  providers = { rms = rms.globex }

  name_prefix        = "globex: "
  contact_attributes = local.contact_attributes
  lists = {
    "Newsletter" = { sender_name = "Globex", sender_email = "news@globex.example" }
  }
  project_name   = "Onboarding"
  webhook_url    = "https://hooks.globex.example/rms"
  webhook_events = ["message.bounced"]
  webhook_secret = lookup(var.webhook_secrets, "globex", null)
  trigger        = local.trigger
}

output "list_ids" {
  description = "Each account's list ids, by account key."
  value = {
    acme   = module.acme.list_ids
    globex = module.globex.list_ids
  }
}
