import {
  to = rms_project.newsletter
  id = "42"
}
