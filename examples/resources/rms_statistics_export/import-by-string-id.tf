import {
  to = rms_statistics_export.daily_opens
  id = "12/OPENS/LAST_DAY"
}
