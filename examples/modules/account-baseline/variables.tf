variable "name_prefix" {
  description = "Prepended to the name of every list, the project and the trigger this module creates (not to contact attributes, which contacts name in every account alike), e.g. \"acme: \". Lets one look at an account and see which baseline made what."
  type        = string
  default     = ""
  nullable    = false

  validation {
    condition     = length(var.name_prefix) <= 40
    error_message = "name_prefix must be at most 40 characters: it is prepended to names the service also limits."
  }
}

variable "contact_attributes" {
  description = "Names of the account's own contact attributes (the properties collection), beyond the standard email, mobile, firstname and lastname every account has. Contacts then set them by name in rms_contact.properties."
  type        = list(string)
  default     = []
  nullable    = false

  validation {
    condition     = alltrue([for n in var.contact_attributes : can(regex("^[A-Za-z_][A-Za-z0-9_]*$", n))])
    error_message = "Each contact attribute name must start with a letter or underscore and hold only letters, digits and underscores (a name of digits only would read as an attribute id)."
  }
  validation {
    condition     = length(distinct(var.contact_attributes)) == length(var.contact_attributes)
    error_message = "contact_attributes lists a name twice; attribute names are unique within an account."
  }
  validation {
    condition     = length(setintersection(var.contact_attributes, ["email", "mobile", "firstname", "lastname"])) == 0
    error_message = "contact_attributes must not name email, mobile, firstname or lastname: every account has them already."
  }
}

variable "lists" {
  description = "Recipient lists to create, keyed by name (name_prefix is prepended). Each may set a description, the sender shown to recipients, and deletion_protection (default true: a list that holds contacts, the seed recipients included, is not destroyed until false has been applied)."
  type = map(object({
    description         = optional(string)
    sender_name         = optional(string)
    sender_email        = optional(string)
    deletion_protection = optional(bool, true)
  }))
  default  = {}
  nullable = false

  validation {
    condition     = alltrue([for name, l in var.lists : l.sender_email == null || can(regex("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", l.sender_email))])
    error_message = "Each list's sender_email must be a bare e-mail address such as news@example.com."
  }
}

variable "seed_recipients" {
  description = "E-mail addresses added, subscribed, to every list of var.lists (their originalId is the address): the team's own inboxes, to see each mailing as recipients do."
  type        = list(string)
  default     = []
  nullable    = false

  validation {
    condition     = alltrue([for a in var.seed_recipients : can(regex("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", a))])
    error_message = "Each seed_recipients entry must be a bare e-mail address such as qa@example.com."
  }
  validation {
    condition     = length(distinct(var.seed_recipients)) == length(var.seed_recipients)
    error_message = "seed_recipients lists an address twice."
  }
}

variable "project_name" {
  description = "Name of the account's project (name_prefix is prepended)."
  type        = string
  nullable    = false

  validation {
    condition     = length(trimspace(var.project_name)) > 0
    error_message = "project_name must not be empty."
  }
}

variable "project_description" {
  description = "Description of the account's project."
  type        = string
  default     = null
}

variable "webhook_url" {
  description = "Where the service POSTs the account's events: an https URL (plain http only to a loopback address)."
  type        = string
  nullable    = false

  validation {
    condition     = can(regex("^https?://[^/]+", var.webhook_url))
    error_message = "webhook_url must be an absolute http(s) URL such as https://hooks.example.com/rms."
  }
}

variable "webhook_events" {
  description = "Event kinds the webhook receives."
  type        = set(string)
  default     = ["contact.subscribed", "contact.unsubscribed", "message.bounced"]
  nullable    = false

  validation {
    condition     = length(var.webhook_events) > 0
    error_message = "webhook_events must name at least one event kind."
  }
  validation {
    condition = length(setsubtract(var.webhook_events, [
      "contact.created", "contact.updated", "contact.deleted", "contact.subscribed", "contact.unsubscribed",
      "import.finished", "export.finished", "message.sent", "message.opened", "message.clicked", "message.bounced",
    ])) == 0
    error_message = "webhook_events holds an unknown event kind; known kinds are contact.created, contact.updated, contact.deleted, contact.subscribed, contact.unsubscribed, import.finished, export.finished, message.sent, message.opened, message.clicked and message.bounced."
  }
}

variable "webhook_secret" {
  description = "Secret the service signs deliveries with (X-RMS-Signature); null sends none. The service never shows it back, so changing it here is the only way to rotate it."
  type        = string
  default     = null
  sensitive   = true
}

variable "trigger" {
  description = "The account's transactional message (a trigger): its name (name_prefix is prepended), channel (EMAIL or SMS), subject (e-mail only) and content."
  type = object({
    name    = string
    channel = optional(string, "EMAIL")
    subject = optional(string)
    content = string
  })
  nullable = false

  validation {
    condition     = contains(["EMAIL", "SMS"], var.trigger.channel)
    error_message = "trigger.channel must be EMAIL or SMS."
  }
  validation {
    condition     = var.trigger.channel == "EMAIL" || var.trigger.subject == null
    error_message = "trigger.subject is for e-mail triggers only; an SMS has no subject."
  }
}
