data "rms_lists" "all" {}

output "list_names" {
  value = { for l in data.rms_lists.all.lists : l.id => l.name }
}
