# Export yesterday's opens once a day: the date in triggers changes daily,
# which runs a new export; the file is streamed to a local path.
resource "rms_statistics_export" "daily_opens" {
  export_type = "OPENS"
  period      = "LAST_DAY"
  output_path = "${path.module}/exports/opens.csv"

  triggers = {
    day = formatdate("YYYY-MM-DD", plantimestamp())
  }

  timeouts {
    create = "1h"
  }
}

output "opens_export" {
  value = {
    batch_id = rms_statistics_export.daily_opens.batch_id
    rows     = rms_statistics_export.daily_opens.total
    sha256   = rms_statistics_export.daily_opens.sha256
  }
}
