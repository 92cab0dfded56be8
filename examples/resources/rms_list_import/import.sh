# An import is imported as <list_id>/<type>/<import_id>/<batch_id>. The first
# apply afterwards adopts the file and settings of the configuration without
# importing again.
terraform import rms_list_import.customers 5/ADD/17/18
