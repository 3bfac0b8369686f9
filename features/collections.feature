@s2.5
Feature: collections answer a wrapper object
  Section 2.5: a collection endpoint answers a wrapper object with a property named after the
  collection, not a bare array. Section 4.5 names GET on the platforms resource but shows neither
  its path (the profile's platforms_path, /platforms by default) nor its item fields: 2.5 shows
  them no further than the identifiers, so an item has its id, and a name, when it has one, is
  one of section 2.3's. The collection is read with the api key, so that a server that requires
  authentication passes too; the other collections are the mock's extensions.

  @get-platforms @s4.5 @s2.3 @s1
  Scenario: GET on the platforms resource answers a wrapper object with a platforms array
    Given I am account "A" using the api-key header
    When I send "GET" to "{{platformsPath}}"
    Then the response status is 200
    And the response is JSON
    And the JSON at "@this" is an object
    And the JSON at "platforms" is an array
    And the response matches the shape "platforms"

  @get-platforms @s4.5 @s2.3
  Scenario: the platform of the profile's marketplace app is in the platforms collection
    Given I am account "A" using the api-key header
    When I send "GET" to "{{platformsPath}}"
    Then the response status is 200
    And the JSON at "platforms.#(id=={{platformId}})" matches:
      """json
      {"id": "{{platformId}}", "name": {"#optional": "#regex (Android|iOS)"}}
      """

  @reference @get-platforms @s4.5
  Scenario: GET /platforms needs no authentication and answers the seed's platforms
    Given I am not authenticated
    When I send "GET" to "/platforms"
    Then the response status is 200
    And the response matches:
      """json
      {
        "platforms": [
          {"id": 1, "created": "#iso8601", "creatorUserId": "#number", "name": "Android"},
          {"id": 2, "created": "#iso8601", "creatorUserId": "#number", "name": "iOS"}
        ]
      }
      """

  @reference @get-extensions
  Scenario Outline: GET /<collection> answers a wrapper object without authentication
    Given I am not authenticated
    When I send "GET" to "/<collection>"
    Then the response status is 200
    And the JSON at "<collection>" matches:
      """json
      {"#each": <item>, "#minItems": <min>}
      """

    Examples:
      | collection     | min | item                                                                                                  |
      | currencies     | 3   | {"id": "#number", "code": "#regex [A-Z]{3}"}                                                          |
      | plans          | 3   | {"id": "#number", "name": "#string", "isLite": "#boolean", "isPro": "#boolean", "isDynamic": "#boolean", "needBilling": "#boolean"} |
      | phoneCountries | 5   | {"id": "#number", "name": "#regex .*[(][+][0-9]+[)]", "dialCode": "#regex [+][0-9]+"}                 |
      | marketapps     | 6   | {"hash": "#regex [0-9a-f]{40}", "name": "#string", "platform": {"id": "#number", "name": "#regex (Android\|iOS)"}} |

  @reference @get-extensions
  Scenario: the plans collection names the three plans and their flags
    When I send "GET" to "/plans"
    Then the response status is 200
    And the JSON at "plans.#(id==1)" matches:
      """json
      {"name": "lite", "isLite": true, "isPro": false, "isDynamic": false, "needBilling": false}
      """
    And the JSON at "plans.#(id==2)" matches:
      """json
      {"name": "pro", "isLite": false, "isPro": true, "isDynamic": false, "needBilling": true}
      """
    And the JSON at "plans.#(id==3)" matches:
      """json
      {"name": "dynamic", "isLite": false, "isPro": false, "isDynamic": true, "needBilling": true}
      """

  @reference @get-extensions
  Scenario: the marketapps collection holds the profile's marketplace app
    When I send "GET" to "/marketapps"
    Then the response status is 200
    And the JSON at "marketapps.#(hash=="{{marketappHash}}")" matches:
      """json
      {"hash": "{{marketappHash}}", "platform": {"id": "{{platformId}}"}}
      """

  @reference @get-extensions @s2.1
  Scenario: the phoneCountries collection holds the profile's phone country
    When I send "GET" to "/phoneCountries"
    Then the response status is 200
    And the JSON at "phoneCountries.#(id=={{phoneCountryId}})" matches:
      """json
      {"id": "{{phoneCountryId}}", "name": "#string", "dialCode": "#regex \\+[0-9]+"}
      """

  @reference @get-extensions @s2.1 @s2.2 @s2.3
  Scenario: the read endpoints answer the objects of section 2
    Given I am account "A" using the api-key header
    When I send "GET" to "/users/{{A.userId}}"
    Then the response status is 200
    And the response matches the shape "user"
    And the JSON at "id" is {{A.userId}}
    When I send "GET" to "/users/{{A.userId}}/clients"
    Then the response status is 200
    And the JSON at "clients" matches:
      """json
      {"#each": {"id": "#number", "createdDate": "#iso8601", "name": "#string", "currency": {"id": "#number", "code": "#regex [A-Z]{3}"}}, "#minItems": 1}
      """
    And the JSON at "clients.#(id=={{A.clientId}})" matches the shape "client"
    When I send "GET" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the response matches the shape "client"
    And the JSON at "id" is {{A.clientId}}
    When I send "GET" to "/clients/{{A.clientId}}/apps"
    Then the response status is 200
    And the JSON at "apps" matches:
      """json
      {"#each": {"id": "#number", "created": "#iso8601", "name": "#string", "writeKey": "#regex [0-9a-f]{32}", "platform": {"id": "#number", "name": "#regex (Android|iOS)"}, "marketapp": "#object"}, "#minItems": 1}
      """
    And I remember the JSON at "apps.0.id" as "appId"
    When I send "GET" to "/apps/{{appId}}"
    Then the response status is 200
    And the JSON at "id" is {{appId}}
    And the JSON at "writeKey" matches the pattern "^[0-9a-f]{32}$"
