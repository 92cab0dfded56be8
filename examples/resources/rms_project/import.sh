# A project is imported by its numeric id.
terraform import rms_project.newsletter 42
