Feature: failures explain themselves
  Every scenario fails on purpose; the test reads the output.

  @mutates-A
  Scenario: a wrong status after the account was changed
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is "contract-changed@example.com"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    Given I remember "{{gen:password:5}}" as "short"
    And the request body is the template "user"
    And the request body field "email" is "contract-changed@example.com"
    And the request body field "password" is "{{short}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200

  Scenario: a shape that does not match, with a session token
    Given I am account "B" using the session-token header
    When I send "GET" to "/users/{{B.userId}}"
    Then the response matches:
      """json
      {"email": "#number", "phoneCountry": {"dialCode": "#regex [0-9]+"}, "nickname": "#present"}
      """

  Scenario: errors that differ from the table
    Given I am account "B" using the sessionToken query
    And the request body is:
      """json
      {"email": "{{B.email}}", "firstName": "", "lastName": "Other", "timezone": "America/New_York",
       "subscribeWelcome": true, "subscribeBlog": true, "subscribeHowto": true, "subscribeOnboarding": true,
       "password": "{{B.password}}"}
      """
    When I send "PUT" to "/users/{{B.userId}}"
    Then the errors are exactly:
      | fieldName | error           |
      | lastName  | InvalidLastName |

  Scenario: an unknown variable
    When I send "GET" to "/users/{{C.userId}}"

  Scenario: an answer that is none of those allowed
    When I send "GET" to "/platforms"
    Then the response is one of:
      | status | shape  | when                 |
      | 200    |        | clients_per_user=one |
      | 400    | errors |                      |
      | 200    | {"platforms": {"#each": {"name": "#regex ios"}}} | |
