resource "rms_statistics_export" "daily_opens" {
  export_type = "OPENS"
  period      = "TODAY"
}

# The status and progress of any batch (an import or an export) by its id.
data "rms_batch" "export" {
  id = rms_statistics_export.daily_opens.batch_id
}

output "export_rows" {
  value = "${data.rms_batch.export.processed}/${data.rms_batch.export.total} rows, ${data.rms_batch.export.status}"
}
