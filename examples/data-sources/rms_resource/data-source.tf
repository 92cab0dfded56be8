# One entity by id ...
data "rms_resource" "campaign" {
  collection = "campaigns"
  id         = "42"
}

output "campaign_name" {
  value = data.rms_resource.campaign.output.name
}

# ... or a whole collection, paged through completely.
data "rms_resource" "placeholders" {
  collection = "placeholders"
}

output "placeholder_names" {
  value = [for p in data.rms_resource.placeholders.items : try(p.name, null)]
}
