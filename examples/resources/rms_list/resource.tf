resource "rms_list" "newsletter" {
  name         = "Newsletter subscribers"
  description  = "Everyone who signed up on the website"
  sender_name  = "Example News"
  sender_email = "news@example.com"
}
