# The default pricing-mock (`go run ./cmd/pricing-mock`): its seed, spelled
# out. Every value here is also the suite's default.
base_url         = http://127.0.0.1:8080/v1
email            = qa@example.com
password         = qa-password
api_key          = qa-api-key
other_email      = other@example.com
other_password   = other-password
other_api_key    = other-api-key
currency_id      = 1
plan_id          = 1
platform_id      = 1
phone_country_id = 1
marketapp_hash   = fecaf482f29181490ae5ecfb2790186ce7f82078
currencies       = 1:GBP,2:EUR,3:USD
plans            = 1:lite,2:pro,3:dynamic
platforms        = 1:Android,2:iOS
