# Placeholders (attribute tags) are values messages insert with
# {{placeholder}}: the shop's address, a support phone number.
resource "rms_resource" "shop_url" {
  collection = "placeholders"
  body = {
    name  = "shop_url"
    value = "https://shop.example.com"
  }
}
