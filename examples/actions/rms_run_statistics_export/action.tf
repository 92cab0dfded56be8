# Export last week's opens to a local file on demand:
#   terraform apply -invoke=action.rms_run_statistics_export.opens
action "rms_run_statistics_export" "opens" {
  config {
    export_type = "OPENS"
    period      = "LAST_WEEK"
    output_path = "${path.module}/exports/opens.csv"
  }
}
