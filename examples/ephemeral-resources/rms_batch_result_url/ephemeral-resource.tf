resource "rms_statistics_export" "daily" {
  export_type = "OPENS"
  period      = "LAST_DAY"
}

# The short-lived URL of the export's file, opened for this run only: it is
# never written to the plan or the state. Pass it to arguments that accept
# ephemeral values, such as write-only arguments or provider blocks.
ephemeral "rms_batch_result_url" "daily" {
  batch_id = rms_statistics_export.daily.batch_id
}
