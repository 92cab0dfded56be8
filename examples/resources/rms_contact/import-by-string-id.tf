import {
  to = rms_contact.ada
  id = "42/customer-1815"
}
