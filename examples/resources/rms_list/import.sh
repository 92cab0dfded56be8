# A list is imported by its numeric id.
terraform import rms_list.newsletter 42
