@s2.5 @get-platforms
Feature: Collections answer a wrapper object
  # Placeholder written by the lead so the embed compiles; helper F replaces this file.

  Scenario: GET /platforms answers a wrapper object with a platforms array
    Given I am account "A" using the api-key header
    When I send "GET" to "/platforms"
    Then the response status is 200
    And the response matches the shape "platforms"
