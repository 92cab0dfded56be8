# Any number of accounts, each given the same baseline, with OpenTofu 1.9 or
# newer: one provider block with for_each makes a provider instance per
# account, and the module call's for_each hands each instance of the module
# its account's provider. Adding an account is a new entry in var.accounts.
# Terraform has no for_each on provider blocks: see the terraform/ example.
terraform {
  required_version = ">= 1.9.0"

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

# The accounts, by a key of your choosing. Not sensitive: OpenTofu refuses
# sensitive values in for_each, so the passwords live in their own variable.
variable "accounts" {
  description = "The accounts to provision, by key."
  type = map(object({
    customer_id    = number
    username       = string
    lists          = map(object({ description = optional(string), sender_name = optional(string), sender_email = optional(string) }))
    webhook_url    = string
    webhook_events = optional(set(string), ["contact.subscribed", "contact.unsubscribed", "message.bounced"])
  }))
  default = {
    acme = {
      customer_id = 1001
      username    = "terraform@acme.example"
      lists       = { "Newsletter" = { sender_name = "Acme News", sender_email = "news@acme.example" } }
      webhook_url = "https://hooks.acme.example/rms"
    }
    globex = {
      customer_id    = 1002
      username       = "terraform@globex.example"
      lists          = { "Newsletter" = { sender_name = "Globex", sender_email = "news@globex.example" } }
      webhook_url    = "https://hooks.globex.example/rms"
      webhook_events = ["message.bounced"]
    }
  }
}

variable "passwords" {
  description = "Password of each account's API user, by account key (TF_VAR_passwords or a .tfvars file kept out of version control)."
  type        = map(string)
  sensitive   = true
}

# To remove an account, first list its key here and apply (its objects are
# destroyed through its still-configured provider), then delete it from
# var.accounts: a provider instance removed together with its resources
# leaves OpenTofu unable to destroy them.
variable "retired_accounts" {
  description = "Keys of var.accounts whose baseline is to be destroyed."
  type        = set(string)
  default     = []
}

provider "rms" {
  alias    = "by_account"
  for_each = var.accounts

  base_url    = var.base_url
  customer_id = each.value.customer_id
  username    = each.value.username
  password    = var.passwords[each.key]
}

module "baseline" {
  source   = "../../../modules/account-baseline"
  for_each = { for key, account in var.accounts : key => account if !contains(var.retired_accounts, key) }
  providers = {
    rms = rms.by_account[each.key]
  }

  name_prefix        = "${each.key}: "
  contact_attributes = ["plan", "region"]
  lists              = each.value.lists
  project_name       = "Onboarding"
  webhook_url        = each.value.webhook_url
  webhook_events     = each.value.webhook_events
  trigger = {
    name    = "Welcome"
    subject = "Welcome aboard"
    content = "Hello {{firstname}}, your {{plan}} plan is ready."
  }
}

output "list_ids" {
  description = "Each account's list ids, by account key."
  value       = { for key, m in module.baseline : key => m.list_ids }
}
