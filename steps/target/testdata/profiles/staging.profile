# Staging: shared accounts whose secrets live in the CI secret store, never
# in this file. A missing secret stops the run before the first request.
base_url         = https://staging.example.com/v1
email            = contract-qa-a@example.com
password         = ${PRICING_STAGING_PASSWORD}
api_key          = ${PRICING_STAGING_API_KEY}
other_email      = contract-qa-b@example.com
other_password   = ${PRICING_STAGING_OTHER_PASSWORD}
other_api_key    = ${PRICING_STAGING_OTHER_API_KEY}
# Ids and a marketplace app that exist on staging.
currency_id      = 1
plan_id          = 1
platform_id      = 1
phone_country_id = 1
marketapp_hash   = fecaf482f29181490ae5ecfb2790186ce7f82078
