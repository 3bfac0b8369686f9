# Staging with a pool of three pairs of accounts: with --godog.concurrency, the
# scenarios that change an account run at once, each on a pair of its own.
# Every account is its own user of its own client; the secrets come from the
# CI secret store.
base_url         = https://staging.example.com/v1
email            = contract-qa-a@example.com
password         = ${PRICING_STAGING_PASSWORD}
api_key          = ${PRICING_STAGING_API_KEY}
other_email      = contract-qa-b@example.com
other_password   = ${PRICING_STAGING_OTHER_PASSWORD}
other_api_key    = ${PRICING_STAGING_OTHER_API_KEY}
email_2          = contract-qa-a2@example.com
password_2       = ${PRICING_STAGING_PASSWORD_2}
api_key_2        = ${PRICING_STAGING_API_KEY_2}
other_email_2    = contract-qa-b2@example.com
other_password_2 = ${PRICING_STAGING_OTHER_PASSWORD_2}
other_api_key_2  = ${PRICING_STAGING_OTHER_API_KEY_2}
email_3          = contract-qa-a3@example.com
password_3       = ${PRICING_STAGING_PASSWORD_3}
api_key_3        = ${PRICING_STAGING_API_KEY_3}
other_email_3    = contract-qa-b3@example.com
other_password_3 = ${PRICING_STAGING_OTHER_PASSWORD_3}
other_api_key_3  = ${PRICING_STAGING_OTHER_API_KEY_3}
