@s7.1
Feature: the error body of a 400
  Section 7.1: a 400 answers a JSON array; each element is an object with the string fields
  fieldName, error and message. Section 7.2 gives the meaning of 400, 401, 403 and 404. Every
  errors step also holds each message to "Human-readable text" (a string with a letter in it).
  fieldName is the "Name of the offending body field": for a body whose only offending fields are
  top-level ones, the errors name each of them and no field that was valid. The spec does not
  say whether one field may carry several elements, nor how a nested field is named, so spec
  scenarios assert neither (the mock's one element per field is @reference).

  Background:
    Given I am account "A" using the api-key header

  @s7.2 @s1
  Scenario Outline: a validation failure of <method> <path> answers the error array
    Given the request body is the template "<body>"
    And the request body field "<field>" is <value>
    When I send "<method>" to "<path>"
    Then the response status is 400
    And the response is JSON
    And the response matches the shape "errors"
    And the JSON at "@this" is an array
    And the JSON at "0.fieldName" is a string
    And the JSON at "0.error" is a string
    And the JSON at "0.message" is a string

    @put-users @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body   | field          | value          |
      | PUT    | /users/{{A.userId}} | user   | email          | "not-an-email" |

    @post-apps
    Examples: POST /apps
      | method | path                    | body   | field          | value          |
      | POST   | /apps                   | app    | marketapp.hash | "{{gen:hex:39}}" |

    @put-clients @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | body   | field          | value          |
      | PUT    | /clients/{{A.clientId}} | client | name           | ""             |

  @s7.2 @post-clients
  Scenario: a validation failure of POST /clients answers the error array
    Given the profile value "clients_per_user" is "several"
    And the request body is the template "client"
    And the request body field "name" is ""
    When I send "POST" to "/clients"
    Then the response status is 400
    And the response is JSON
    And the response matches the shape "errors"
    And the JSON at "@this" is an array
    And the JSON at "0.fieldName" is a string
    And the JSON at "0.error" is a string
    And the JSON at "0.message" is a string

  @put-users @s7.3 @mutates-A
  Scenario: several invalid fields of PUT /users/:userId are answered together
    Given the request body is the template "user"
    And the request body field "email" is "not-an-email"
    And the request body field "firstName" is ""
    And the request body field "lastName" is ""
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response matches the shape "errors"
    And the errors include:
      | fieldName | error            |
      | email     | InvalidEmail     |
      | firstName | InvalidFirstName |
      | lastName  | InvalidLastName  |
    And the errors name only the fields "email", "firstName" and "lastName"

  @s7.3
  Scenario Outline: <endpoint> with <field> the only offending field answers errors for <field> alone
    Given the request body is the template "<body>"
    And the request body field "<field>" is <value>
    When I send "<method>" to "<path>"
    Then the errors include:
      | fieldName | error  |
      | <field>   | <code> |
    And the errors name only the field "<field>"

    @put-users @mutates-A
    Examples: PUT /users/:userId
      | endpoint           | method | path                | body | field     | value                | code             |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | email     | "not-an-email"       | InvalidEmail     |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | firstName | ""                   | InvalidFirstName |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | lastName  | ""                   | InvalidLastName  |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | password  | "{{gen:password:5}}" | InvalidPassword  |

    @put-clients @s4.4 @mutates-A
    Examples: PUT /clients/:clientId
      | endpoint               | method | path                    | body   | field | value | code        |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | name  | ""    | InvalidName |

  @post-clients @s7.3 @s4.3
  Scenario: POST /clients with an empty name the only offending field answers errors for name alone
    Given the profile value "clients_per_user" is "several"
    And the request body is the template "client"
    And the request body field "name" is ""
    When I send "POST" to "/clients"
    Then the errors include:
      | fieldName | error       |
      | name      | InvalidName |
    And the errors name only the field "name"

  @put-users @s7.3 @s8 @mutates-A
  Scenario: an invalid password and an invalid email are answered together
    Given the request body is the template "user"
    And the request body field "email" is "not-an-email"
    And the request body field "password" is "{{gen:password:5}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors include:
      | fieldName | error           |
      | email     | InvalidEmail    |
      | password  | InvalidPassword |
    And the errors name only the fields "email" and "password"

  @post-clients @s7.3 @s4.3
  Scenario: an empty name and wrong terms of POST /clients are answered together
    Given the profile value "clients_per_user" is "several"
    And the request body is the template "client"
    And the request body field "name" is ""
    And the request body field "terms" is "no"
    When I send "POST" to "/clients"
    Then the errors include:
      | fieldName | error       |
      | name      | InvalidName |
    And the errors name the field "terms"
    And the errors name only the fields "name" and "terms"

  @reference @put-users @s7.3 @mutates-A
  Scenario: several invalid fields of PUT /users/:userId are answered exactly
    Given the request body is the template "user"
    And the request body field "email" is "not-an-email"
    And the request body field "firstName" is ""
    And the request body field "lastName" is ""
    And the request body field "password" is "12345"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors are exactly:
      | fieldName | error            |
      | email     | InvalidEmail     |
      | firstName | InvalidFirstName |
      | lastName  | InvalidLastName  |
      | password  | InvalidPassword  |

  @reference @post-clients @s4.3
  Scenario: every invalid field of POST /clients is answered at once
    Given the request body is the template "client"
    And the request body field "name" is ""
    And the request body field "addressCity" is absent
    And the request body field "currency.id" is 999999
    And the request body field "terms" is "no"
    When I send "POST" to "/clients"
    Then the errors are exactly:
      | fieldName   | error              |
      | name        | InvalidName        |
      | addressCity | InvalidAddressCity |
      | currency.id | InvalidCurrencyId  |
      | terms       | InvalidTerms       |

  @reference @post-apps
  Scenario Outline: a body that is <case> is answered InvalidBody
    Given the raw request body is:
      """
      <body>
      """
    When I send "POST" to "/apps"
    Then the errors are exactly:
      | fieldName | error       |
      |           | InvalidBody |

    Examples:
      | case                | body                 |
      | malformed JSON      | {"marketapp": {      |
      | a JSON array        | [1, 2]               |
      | a JSON string       | "app"                |
      | empty               |                      |

  @s7.2 @s8 @mutates-A
  Scenario Outline: a text of <n> characters in <field> of <method> <path> is a client error, never a server error
    The spec bounds every text at 255 characters and names no body size: a target refuses such a
    body as too large (413) or its field as too long (400), and either way with a 4xx.
    Given I am account "A" using the api-key header
    And the request body is the template "<body>"
    And the request body field "<field>" is a string of <n> characters
    When I send "<method>" to "<path>"
    Then the response status is 4xx

    @put-users @s4.1
    Examples: PUT /users/:userId
      | method | path                    | body        | field       | n       |
      | PUT    | /users/{{A.userId}}     | user   | firstName | 1048576 |
      | PUT    | /users/{{A.userId}}     | user   | lastName  | 100000  |

    @post-apps @s4.2
    Examples: POST /apps
      | method | path                    | body        | field       | n       |
      | POST   | /apps                   | app-by-name | name | 1048576 |
      | POST   | /apps                   | app-by-name | name | 100000  |

    @post-clients @s4.3
    Examples: POST /clients
      | method | path                    | body        | field       | n       |
      | POST   | /clients                | client | name      | 1048576 |
      | POST   | /clients                | client | addressCity | 100000 |

    @put-clients @s4.4
    Examples: PUT /clients/:clientId
      | method | path                    | body        | field       | n       |
      | PUT    | /clients/{{A.clientId}} | client | vat       | 1048576 |

  @reference @post-clients
  Scenario: a body over 1 MiB is answered 413 with the error array
    Given the request body is the template "client"
    And the request body field "name" is a string of 1048576 characters
    When I send "POST" to "/clients"
    Then the response status is 413
    And the response matches:
      """json
      [{"fieldName": "", "error": "BodyTooLarge", "message": "#string"}]
      """

  @reference @s7.2 @put-users
  Scenario: a method the resource does not have is answered 405 with the error array
    When I send "DELETE" to "/users/{{A.userId}}"
    Then the response status is 405
    And the response matches:
      """json
      [{"fieldName": "", "error": "MethodNotAllowed", "message": "#string"}]
      """

  @reference @s7.2 @get-extensions
  Scenario: an unknown path is answered 404 with the error array
    When I send "GET" to "/no-such-resource"
    Then the response status is 404
    And the response matches:
      """json
      [{"fieldName": "", "error": "NotFound", "message": "#string"}]
      """

  @reference @s4.2 @post-apps
  Scenario: a JSON body is parsed whatever its Content-Type
    Given the request content type is "text/plain"
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200
    And the response matches the shape "app"
