# An export is imported as <batch_id>/<export_type>/<period>: the batch does
# not say which export it ran. The next apply fetches its result URL (and the
# file, with output_path) without starting a new export.
terraform import rms_statistics_export.daily_opens 12/OPENS/LAST_DAY
