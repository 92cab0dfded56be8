# The service's list import takes the delimiter as a decimal ASCII code.
output "semicolon_code" {
  value = provider::rms::delimiter_code(";") # "59"
}

output "tab_code" {
  value = provider::rms::delimiter_code("\t") # "9"
}
