# Written by pricing-contract explore (go test ... -run TestExploreFindsDefects, seed 7) against the mock with the fault refused-user-update-stores-names: the shortest sequence it found that diverges from the reference.
@s5 @s7.1 @s7.2 @s7.3 @mutates-A @mutates-B @put-users @get-extensions
Feature: a divergence found by pricing-contract explore

  Scenario: PUT /users/:userId (own id) by account A with api-key, a new first name; a timezone of 256 characters; a new client; client. an empty name: afterwards GET /users/1: firstName is "contract-Juwan", the reference's "Quinn"
    Given I am account "A" using the api-key header
    And the request body is:
      """
      {
        "client": {
          "addressCity": "London",
          "addressCountry": "United Kingdom",
          "addressLine1": "1 Contract Street",
          "addressLine2": "Floor 2",
          "addressPostcode": "EC1A 1BB",
          "currency": {
            "id": 1
          },
          "name": "",
          "terms": "I agree",
          "vat": "GB123456789"
        },
        "email": "{{A.email}}",
        "firstName": "contract-Juwan",
        "lastName": "Assurance",
        "password": null,
        "phoneCountry": {
          "id": 1
        },
        "phoneExtension": null,
        "phoneNumber": "7700900123",
        "subscribeBlog": false,
        "subscribeHowto": true,
        "subscribeOnboarding": false,
        "subscribeWelcome": true,
        "timezone": "Europe/ttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt"
      }
      """
    When I send "PUT" to "/users/{{A.userId}}"
    Given I am account "A" using the api-key header
    When I send "GET" to "/users/{{A.userId}}" if the target has that read extension
    Then the response status is 200
    Then the JSON at "firstName" is "Quinn"
