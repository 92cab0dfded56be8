# An entity is imported as collection/id; the last segment is the id, so a
# nested entity imports as parent/{id}/name/{id}.
terraform import rms_resource.spring_sale campaigns/42
terraform import rms_resource.spring_sale_note campaigns/42/notes/7
