# A batch's startTime and endTime are epoch milliseconds; Terraform's own
# time functions (timeadd, timecmp, formatdate) take RFC 3339.
output "export_finished_at" {
  value = provider::rms::batch_time(1795341600000) # "2026-11-22T10:00:00Z"
}

output "result_expires_at" {
  value = timeadd(provider::rms::batch_time(1795341600000), "24h") # "2026-11-23T10:00:00Z"
}
