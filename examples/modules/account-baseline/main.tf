# The baseline every account of the fleet gets. The module has no provider
# block of its own: the caller passes the account's configuration in
# (`providers = { rms = rms.acme }`), which is also what lets the caller
# use count or for_each on the module.

resource "rms_resource" "contact_attribute" {
  for_each = toset(var.contact_attributes)

  collection = "properties"
  body = {
    name = each.key
  }
}

resource "rms_list" "this" {
  for_each = var.lists

  name         = "${var.name_prefix}${each.key}"
  description  = each.value.description
  sender_name  = each.value.sender_name
  sender_email = each.value.sender_email

  # A list that holds contacts is deleted only once this is false: deleting
  # it deletes its recipients' opt-outs with it.
  deletion_protection = each.value.deletion_protection
}

# Each seed address in each list, subscribed: the team sees every mailing
# as its recipients do. Keyed "<list key>/<address>" so that adding a list
# or an address adds contacts without touching the others.
resource "rms_contact" "seed" {
  for_each = {
    for pair in setproduct(keys(var.lists), var.seed_recipients) :
    "${pair[0]}/${pair[1]}" => { list = pair[0], email = pair[1] }
  }

  list_id      = rms_list.this[each.value.list].id
  original_id  = each.value.email
  properties   = { email = each.value.email }
  email_status = "SUBSCRIBED"
}

resource "rms_project" "this" {
  name        = "${var.name_prefix}${var.project_name}"
  description = var.project_description
}

resource "rms_webhook" "this" {
  url         = var.webhook_url
  events      = var.webhook_events
  description = "${var.name_prefix}baseline webhook"
  secret      = var.webhook_secret
}

resource "rms_resource" "trigger" {
  collection = "triggers"
  # A subject is sent only when set: an SMS trigger has none, and a key
  # written as null would be compared with what the service holds.
  body = merge(
    {
      name    = "${var.name_prefix}${var.trigger.name}"
      channel = var.trigger.channel
      content = var.trigger.content
    },
    var.trigger.subject == null ? {} : { subject = var.trigger.subject },
  )

  # A message template may use the account's own attributes by name
  # ({{plan}}), so they exist before it.
  depends_on = [rms_resource.contact_attribute]
}
