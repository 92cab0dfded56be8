import {
  to = rms_resource.spring_sale
  id = "campaigns/42"
}
