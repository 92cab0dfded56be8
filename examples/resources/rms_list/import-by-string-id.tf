import {
  to = rms_list.newsletter
  id = "42"
}
