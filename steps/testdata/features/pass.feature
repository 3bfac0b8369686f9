Feature: the step vocabulary against a fake server
  Every scenario passes. The run is repeated with concurrency 8 and in
  random order; scenarios that mention account A run while another one
  changes it only if the account locks are broken, and then they fail.

  Scenario: a collection answers a wrapper object
    When I send "GET" to "/platforms"
    Then the response status is 200
    And the response is JSON
    And the response matches the shape "platforms"
    And the JSON at "platforms" matches:
      """json
      {"#each": {"id": "#number", "name": "#regex Android|iOS"}, "#minItems": 2}
      """
    And the JSON at "platforms.#(name=="iOS").id" is 2
    And the JSON at "platforms.0" is {"id": 1, "name": "Android"}
    And the JSON at "platforms" is an array
    And the JSON at "platforms.1.name" is a string
    And the JSON at "platforms.1.name" matches the pattern "^(Android|iOS)$"
    And the JSON at "total" is absent
    And the JSON at "platforms.1" is present
    When I remember the JSON at "platforms.1.id" as "iosId"
    Then the JSON at "platforms.#(id=={{iosId}}).name" is "iOS"
    And the JSON at "@this" matches:
      """json
      {"platforms": [{"id": 1}, {"id": "{{iosId}}", "name": "iOS"}]}
      """

  Scenario: an answer the spec allows in several forms
    When I send "GET" to "/platforms"
    Then the response is one of:
      | status | shape     |
      | 400    | errors    |
      | 200    | platforms |
    And the response is one of:
      | status | shape                                                                                       |
      | 200    | {"platforms": {"#each": {"id": "#number", "created": {"#optional": "#iso8601"}}, "#minItems": 2}} |
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is "not-an-email"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response is one of:
      | status | shape |
      | 200    | user  |
      | 400    |       |
    And the response is one of:
      | status | shape  | when                     |
      | 400    | user   | clients_per_user=one     |
      | 400    | errors | clients_per_user=several |
      | 200    |        |                          |

  Scenario: preconditions on the profile that hold
    Given the profile value "clients_per_user" is "several"
    And the profile value "version_forms" includes "v1.0"
    When I send "GET" to "{{platformsPath}}"
    Then the response status is 200
    And the JSON at "platforms.0" matches:
      """json
      {"id": 1, "name": {"#optional": "Android"}, "vat": {"#optional": "#string"}}
      """

  Scenario: the version segment
    When I send "GET" to "/platforms" under the version "v1.0"
    Then the response status is 200
    And the response matches the shape "platforms"
    When I send "GET" to "/platforms" under the version "v2"
    Then the response status is 404

  Scenario Outline: every scheme of section 5 reaches the user
    Given I am account "A" using the <scheme>
    When I send "GET" to "/users/{{A.userId}}"
    Then the response status is 200
    And the response matches the shape "user"
    And the JSON at "id" is "{{A.userId}}"
    And the JSON at "email" is "{{A.email}}"
    And the JSON at "password" is absent

    Examples:
      | scheme               |
      | api-key header       |
      | session-token header |
      | sessionToken query   |

  Scenario Outline: malformed credentials are refused
    Given I am not authenticated
    And the request header "<header>" is "<value>"
    When I send "GET" to "/users/{{A.userId}}"
    Then the response status is 401
    And the response matches the shape "errors"

    Examples:
      | header        | value            |
      | Authorization | Bearer x         |
      | Authorization | api-key          |
      | Authorization | api-key unknown  |
      | session-token |                  |

  Scenario: an empty session token in the query is refused
    Given I am account "A" using the sessionToken query
    And the request query parameter "sessionToken" is ""
    When I send "GET" to "/users/{{A.userId}}"
    Then the response status is 401

  Scenario: another user's resource and an unknown id
    Given I am account "B" using the session-token header
    When I send "GET" to "/users/{{A.userId}}"
    Then the response status is 403 or 404
    When I send "GET" to "/users/999999"
    Then the response status is 404

  Scenario: logging in answers the session object
    When I log in as account "B"
    Then the response status is 200
    And the response matches the shape "session"
    And the JSON at "userId" is {{B.userId}}
    When I log in with email "{{B.email}}" and password "wrong-{{B.password}}"
    Then the response status is 401

  Scenario: several invalid fields are answered together
    Given I am account "A" using the session-token header
    And the request body is the template "user"
    And the request body field "email" is "not-an-email"
    And the request body field "firstName" is ""
    And the request body field "subscribeBlog" is absent
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors are exactly:
      | fieldName     | error                |
      | firstName     | InvalidFirstName     |
      | subscribeBlog | InvalidSubscribeBlog |
      | email         | InvalidEmail         |
    And the errors include:
      | error        | fieldName |
      | InvalidEmail | email     |
    And the errors name the field "firstName"

  Scenario: a malformed body
    Given I am account "A" using the api-key header
    And the raw request body is:
      """
      {"email": 
      """
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors are exactly:
      | fieldName | error       |
      |           | InvalidBody |

  Scenario Outline: a ..255 field at its edge
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "lastName" is a string of <length> characters
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is <status>

    @mutates-A
    Examples: accepted
      | length | status |
      | 255    | 200    |

    Examples: rejected
      | length | status |
      | 256    | 400    |

  @mutates-A
  Scenario Outline: an email of <length> characters
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is an email of <length> characters
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is <status>

    Examples:
      | length | status |
      | 255    | 200    |
      | 256    | 400    |

  @mutates-A
  Scenario: a new email and password work for the next login and are restored afterwards
    Given I am account "A" using the api-key header
    And I remember "{{gen:password}}" as "newPassword"
    And I remember "{{gen:email}}" as "newEmail"
    And the request body is the template "user"
    And the request body field "email" is "{{newEmail}}"
    And the request body field "password" is "{{newPassword}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "email" is "{{newEmail}}"
    When I log in with email "{{newEmail}}" and password "{{newPassword}}"
    Then the response status is 200
    And the response matches the shape "session"
    When I log in as account "A"
    Then the response status is 401

  @mutates-B
  Scenario: a body from a doc string, with numbers kept as numbers
    Given I am account "B" using the api-key header
    And I remember "{{B.userId}}" as "me"
    And the request body is:
      """json
      {"email": "{{B.email}}", "firstName": "Olive", "lastName": "Other", "timezone": "America/New_York",
       "subscribeWelcome": true, "subscribeBlog": true, "subscribeHowto": true, "subscribeOnboarding": true,
       "password": null}
      """
    When I send "PUT" to "/users/{{me}}"
    Then the response status is 200
    And the response matches:
      """json
      {"id": "{{me}}", "email": "{{B.email}}", "created": "#iso8601", "password": "#notpresent",
       "phoneExtension": "##string", "subscribeBlog": true, "#closed": false}
      """

  Scenario: building a request
    Given I am account "A" using the sessionToken query
    And the request query parameter "verbose" is "1"
    And the request header "X-Trace" is ""
    And the request body is the template "echo"
    And the request body field "app.marketapp.hash" is "{{marketappHash}}"
    And the request body field "nextplan.id" is {{planId}}
    And the request body field "name" is absent
    And the request body field "tags" is ["a", {"n": {{currencyId}}}]
    And the request body field "tags.1.n" is "{{gen:hex:8}}"
    And the request content type is "application/json; charset=utf-8"
    When I send "POST" to "/echo"
    Then the response status is 200
    And the JSON at "method" is "POST"
    And the JSON at "query.verbose" is "1"
    And the JSON at "query.sessionToken" matches the pattern "^tok-"
    And the JSON at "headers.X-Trace" is ""
    And the JSON at "headers.Content-Type" is "application/json; charset=utf-8"
    And the JSON at "body" matches:
      """json
      {"app": {"marketapp": {"hash": "{{marketappHash}}"}}, "nextplan": {"id": "{{planId}}"},
       "name": "#notpresent", "platform": {"id": null}, "marketapp": {"hash": "{{marketappHash}}"},
       "tags": ["a", {"n": "#regex [0-9a-f]{8}"}]}
      """
    And the JSON at "body.nextplan.id" is a number
    When I send "GET" to "/echo"
    Then the JSON at "body" is absent
    And the JSON at "query.verbose" is absent
    And the JSON at "query.sessionToken" is present
