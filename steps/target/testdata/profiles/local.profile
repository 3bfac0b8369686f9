# An implementation under development on this machine. The port and the
# accounts default to what its seed script creates; override any of them in
# the environment without editing this file.
base_url         = http://127.0.0.1:${PRICING_LOCAL_PORT:-3000}/v1
email            = ${PRICING_LOCAL_EMAIL:-qa@example.com}
password         = ${PRICING_LOCAL_PASSWORD:-qa-password}
api_key          = ${PRICING_LOCAL_API_KEY:-qa-api-key}
other_email      = other@example.com
other_password   = other-password
other_api_key    = other-api-key
login_encoding   = form
# Narrow the run while working on one area: PRICING_LOCAL_TAGS=@s5 (godog syntax).
tags             = ${PRICING_LOCAL_TAGS:-}
