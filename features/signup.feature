@reference @s4.5 @post-users
Feature: POST /users signs a new user up (the mock's decisions)
  Section 4.5 names POST /users but shows neither its body nor its answer, so every scenario
  here checks the mock's decision: no authentication; the body of PUT /users with password,
  phoneCountry.id and phoneNumber required and an optional client (itself with an optional app);
  user, client and app are all created or none is; the answer is the user object.

  Background:
    Given I am not authenticated

  @s2.1 @s2.4 @post-sessions @get-extensions
  Scenario: a user signed up with a client and an app logs in and sees them
    Given I remember "{{gen:email}}" as "email"
    And I remember "{{gen:password}}" as "password"
    And I remember "{{gen:name}}" as "clientName"
    And the request body is the template "signup-with-client"
    And the request body field "email" is "{{email}}"
    And the request body field "password" is "{{password}}"
    And the request body field "client.name" is "{{clientName}}"
    When I send "POST" to "/users"
    Then the response status is 200
    And the response matches the shape "user"
    And the JSON at "email" is "{{email}}"
    And the JSON at "phoneCountry.id" is {{phoneCountryId}}
    And the JSON at "phoneNumber" is "7700900456"
    And I remember the JSON at "id" as "userId"
    When I log in with email "{{email}}" and password "{{password}}"
    Then the response status is 200
    And the response matches the shape "session"
    And the JSON at "userId" is {{userId}}
    And I remember the JSON at "clientId" as "clientId"
    And I remember the JSON at "token" as "token"
    Given the request header "session-token" is "{{token}}"
    When I send "GET" to "/clients/{{clientId}}"
    Then the response status is 200
    And the response matches the shape "client"
    And the JSON at "name" is "{{clientName}}"
    Given the request header "session-token" is "{{token}}"
    When I send "GET" to "/clients/{{clientId}}/apps"
    Then the response status is 200
    And the JSON at "apps.#" is 1
    And the JSON at "apps.0" matches the shape "app"
    And the JSON at "apps.0.marketapp.hash" is "{{marketappHash}}"

  @s2.4 @s5 @post-sessions @post-apps @put-users
  Scenario: a user signed up without a client has a session without a client
    Given I remember "{{gen:email}}" as "email"
    And I remember "{{gen:password}}" as "password"
    And the request body is the template "signup"
    And the request body field "email" is "{{email}}"
    And the request body field "password" is "{{password}}"
    When I send "POST" to "/users"
    Then the response status is 200
    And the response matches the shape "user"
    And I remember the JSON at "id" as "userId"
    When I log in with email "{{email}}" and password "{{password}}"
    Then the response status is 200
    And the JSON at "clientId" is null
    And I remember the JSON at "token" as "token"
    Given the request header "session-token" is "{{token}}"
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 403
    And the response matches:
      """json
      [{"fieldName": "#string", "error": "NoClient", "message": "#string"}]
      """
    Given the request query parameter "sessionToken" is "{{token}}"
    And the request body is the template "user"
    And the request body field "email" is "{{email}}"
    When I send "PUT" to "/users/{{userId}}"
    Then the response status is 200
    And the JSON at "id" is {{userId}}

  @s4.3 @post-sessions @post-clients @post-apps
  Scenario: a user without a client who creates one gets it as primary client
    Given I remember "{{gen:email}}" as "email"
    And I remember "{{gen:password}}" as "password"
    And the request body is the template "signup"
    And the request body field "email" is "{{email}}"
    And the request body field "password" is "{{password}}"
    When I send "POST" to "/users"
    Then the response status is 200
    When I log in with email "{{email}}" and password "{{password}}"
    Then the response status is 200
    And I remember the JSON at "token" as "token"
    Given the request header "session-token" is "{{token}}"
    And the request body is the template "client"
    When I send "POST" to "/clients"
    Then the response status is 200
    And I remember the JSON at "id" as "clientId"
    When I log in with email "{{email}}" and password "{{password}}"
    Then the response status is 200
    And the JSON at "clientId" is {{clientId}}
    Given the request header "session-token" is "{{token}}"
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200

  @s7.1 @post-sessions
  Scenario Outline: an invalid <part> creates nothing
    Given I remember "{{gen:email}}" as "email"
    And the request body is the template "signup-with-client"
    And the request body field "email" is "{{email}}"
    And the request body field "password" is "contract-password"
    And the request body field "<field>" is <value>
    When I send "POST" to "/users"
    Then the errors are exactly:
      | fieldName | error  |
      | <field>   | <code> |
    When I log in with email "{{email}}" and password "contract-password"
    Then the response status is 401

    Examples:
      | part   | field                     | value            | code                 |
      | app    | client.app.marketapp.hash | "{{gen:hex:39}}" | InvalidMarketappHash |
      | client | client.terms              | "no"             | InvalidTerms         |
      | client | client.name               | ""               | InvalidName          |
      | user   | lastName                  | ""               | InvalidLastName      |

  @s7.3 @s7.1
  Scenario Outline: POST /users with <field> <case> is answered <code>
    Given the request body is the template "signup"
    And the request body field "<field>" <change>
    When I send "POST" to "/users"
    Then the errors are exactly:
      | fieldName    | error  |
      | <errorField> | <code> |

    Examples:
      | field        | case                   | change             | errorField      | code                  |
      | password     | that is absent         | is absent          | password        | InvalidPassword       |
      | password     | that is null           | is null            | password        | InvalidPassword       |
      | password     | of 5 characters        | is "12345"         | password        | InvalidPassword       |
      | phoneCountry | that is absent         | is absent          | phoneCountry.id | InvalidPhoneCountryId |
      | phoneNumber  | that is absent         | is absent          | phoneNumber     | InvalidPhoneNumber    |
      | email        | of an existing user    | is "{{B.email}}"   | email           | InvalidEmail          |
      | email        | that is not an email   | is "not-an-email"  | email           | InvalidEmail          |
