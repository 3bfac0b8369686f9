@s8
Feature: the limits of section 8 at their edges
  Every string field marked ..255 rejects 256 characters, and a free-text one accepts 255; a
  password has at least 6 characters; a marketapp hash is 40 hexadecimal characters. The spec
  names no error code for a too-long field, so spec-level scenarios check that the errors name the
  field; the codes are the mock's decisions (@reference). The postcode, country and VAT number
  may be validated by their form (7.3: "validation codes for the address ... not shown"), so 255
  random characters there are accepted only by the mock (@reference). An email address has at
  most 254 characters by RFC 5321 and 255 by the spec: 254 is accepted and 256 rejected at spec
  level, 255 is the mock's decision.

  Background:
    Given I am account "A" using the api-key header

  Scenario Outline: PUT /users/:userId accepts 255 characters in <field>
    Given I remember "{{gen:string:255}}" as "value"
    And the request body is the template "user"
    And the request body field "<field>" is "{{value}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "<field>" is "{{value}}"

    @put-users @s4.1 @mutates-A
    Examples:
      | field     |
      | firstName |
      | lastName  |

  @post-clients @s4.3
  Scenario Outline: POST /clients accepts 255 characters in the free-text field <field>
    Given the profile value "clients_per_user" is "several"
    And I remember "{{gen:string:255}}" as "value"
    And the request body is the template "client"
    And the request body field "<field>" is "{{value}}"
    When I send "POST" to "/clients"
    Then the response status is 200
    And the response matches the shape "client"
    And the response matches:
      """json
      {"<field>": <answer>}
      """

    Examples:
      | field        | answer                     |
      | name         | "{{value}}"                |
      | addressLine1 | "{{value}}"                |
      | addressLine2 | {"#optional": "{{value}}"} |
      | addressCity  | "{{value}}"                |

  @put-clients @s4.4 @mutates-A
  Scenario Outline: PUT /clients/:clientId accepts 255 characters in the free-text field <field>
    Given I remember "{{gen:string:255}}" as "value"
    And the request body is the template "client"
    And the request body field "<field>" is "{{value}}"
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the response matches the shape "client"
    And the response matches:
      """json
      {"<field>": <answer>}
      """

    Examples:
      | field        | answer                     |
      | name         | "{{value}}"                |
      | addressLine1 | "{{value}}"                |
      | addressLine2 | {"#optional": "{{value}}"} |
      | addressCity  | "{{value}}"                |

  Scenario Outline: <method> <path> rejects 256 characters in <field>
    Given the request body is the template "<body>"
    And the request body field "<field>" is a string of 256 characters
    When I send "<method>" to "<path>"
    Then the errors name the field "<field>"

    @put-users @s4.1 @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body | field     |
      | PUT    | /users/{{A.userId}} | user | firstName |
      | PUT    | /users/{{A.userId}} | user | lastName  |

    @put-clients @s4.4 @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | body   | field           |
      | PUT    | /clients/{{A.clientId}} | client | name            |
      | PUT    | /clients/{{A.clientId}} | client | addressLine1    |
      | PUT    | /clients/{{A.clientId}} | client | addressLine2    |
      | PUT    | /clients/{{A.clientId}} | client | addressCity     |
      | PUT    | /clients/{{A.clientId}} | client | addressPostcode |
      | PUT    | /clients/{{A.clientId}} | client | addressCountry  |
      | PUT    | /clients/{{A.clientId}} | client | vat             |
      | PUT    | /clients/{{A.clientId}} | client | terms           |

  @s8 @post-apps @s4.2
  Scenario: POST /apps refuses an app name of 256 characters
    Every ..255 field of every endpoint: the name of an app made from a name and a platform. A
    target that makes apps only from a store refuses the body for that reason; either way it is
    refused.
    Given I am account "A" using the api-key header
    And the request body is the template "app-by-name"
    And the request body field "name" is a string of 256 characters
    When I send "POST" to "/apps"
    Then the response status is 4xx

  @s8 @post-clients @s4.3
  Scenario: POST /clients refuses a client whose app has a name of 256 characters
    Given the profile value "clients_per_user" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "client-with-app-by-name"
    And the request body field "app.name" is a string of 256 characters
    When I send "POST" to "/clients"
    Then the response status is 4xx

  @post-clients @s4.3
  Scenario Outline: POST /clients rejects 256 characters in <field>
    Given the profile value "clients_per_user" is "several"
    And the request body is the template "client"
    And the request body field "<field>" is a string of 256 characters
    When I send "POST" to "/clients"
    Then the errors name the field "<field>"

    Examples:
      | field           |
      | name            |
      | addressLine1    |
      | addressLine2    |
      | addressCity     |
      | addressPostcode |
      | addressCountry  |
      | vat             |
      | terms           |

  @put-users @s4.1 @mutates-A
  Scenario: PUT /users/:userId accepts an email of 254 characters, the most both the spec and RFC 5321 allow
    Given I remember "{{gen:email:254}}" as "email"
    And the request body is the template "user"
    And the request body field "email" is "{{email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "email" is "{{email}}"

  @put-users @s4.1 @mutates-A
  Scenario: PUT /users/:userId rejects an email of 256 characters
    Given the request body is the template "user"
    And the request body field "email" is an email of 256 characters
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors name the field "email"

  @reference @put-users @s4.1 @mutates-A
  Scenario: PUT /users/:userId accepts an email of 255 characters, as the spec's ..255 allows
    Given I remember "{{gen:email:255}}" as "email"
    And the request body is the template "user"
    And the request body field "email" is "{{email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "email" is "{{email}}"

  @reference @s4.3 @s4.4
  Scenario Outline: <method> <path> accepts 255 characters in <field>
    Given I remember "{{gen:string:255}}" as "value"
    And the request body is the template "client"
    And the request body field "<field>" is "{{value}}"
    When I send "<method>" to "<path>"
    Then the response status is 200
    And the JSON at "<field>" is "{{value}}"

    @post-clients
    Examples: POST /clients
      | method | path     | field           |
      | POST   | /clients | addressPostcode |
      | POST   | /clients | addressCountry  |
      | POST   | /clients | vat             |
      | POST   | /clients | addressLine2    |

    @put-clients @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | field           |
      | PUT    | /clients/{{A.clientId}} | addressPostcode |
      | PUT    | /clients/{{A.clientId}} | addressCountry  |
      | PUT    | /clients/{{A.clientId}} | vat             |

  @put-users @s4.1 @mutates-A
  Scenario: PUT /users/:userId rejects a timezone of 256 characters
    Given the request body is the template "user"
    And the request body field "timezone" is "Europe/{{gen:string:249}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors name the field "timezone"

  @reference @put-users @s4.1 @mutates-A
  Scenario: PUT /users/:userId accepts a timezone of 255 characters of the form Area/City
    Given I remember "Europe/{{gen:string:248}}" as "timezone"
    And the request body is the template "user"
    And the request body field "timezone" is "{{timezone}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "timezone" is "{{timezone}}"

  @put-users @s4.1 @s7.3 @mutates-A
  Scenario Outline: PUT /users/:userId rejects a password of <length> characters
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{gen:password:<length>}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors include:
      | fieldName | error           |
      | password  | InvalidPassword |
    When I log in with email "{{A.email}}" and password "{{A.password}}"
    Then the response status is 200

    Examples:
      | length |
      | 1      |
      | 5      |

  @put-users @s4.1 @mutates-A
  Scenario: PUT /users/:userId accepts a password of 6 characters, which then logs in
    Given I remember "{{gen:password:6}}" as "password"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{password}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I log in with email "{{A.email}}" and password "{{password}}"
    Then the response status is 200

  @post-apps @s4.2
  Scenario Outline: POST /apps rejects a marketapp hash of <case>
    Given the request body is the template "app"
    And the request body field "marketapp.hash" is "<hash>"
    When I send "POST" to "/apps"
    Then the response status is 400
    And the response matches the shape "errors"

    Examples:
      | case                                     | hash            |
      | 39 hexadecimal characters                | {{gen:hex:39}}  |
      | 41 hexadecimal characters                | {{gen:hex:41}}  |
      | 40 characters with a non-hexadecimal one | {{gen:hex:39}}x |

  @post-apps @s4.2
  Scenario Outline: POST /apps rejects a marketapp hash of <case> even with a name and a platform
    Given the request body is the template "app"
    And the request body field "marketapp.hash" is "<hash>"
    And the request body field "name" is "{{gen:name}}"
    And the request body field "platform.id" is {{platformId}}
    When I send "POST" to "/apps"
    Then the response status is 400
    And the response matches the shape "errors"

    Examples:
      | case                                        | hash               |
      | 39 hexadecimal characters                   | {{gen:hex:39}}     |
      | 41 characters, the profile's hash and a 0   | {{marketappHash}}0 |

  @reference @s7.1
  Scenario Outline: <method> <path> answers <code> for 256 characters in <field>
    Given the request body is the template "<body>"
    And the request body field "<field>" is a string of 256 characters
    When I send "<method>" to "<path>"
    Then the errors are exactly:
      | fieldName | error  |
      | <field>   | <code> |

    @put-users @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body | field     | code             |
      | PUT    | /users/{{A.userId}} | user | firstName | InvalidFirstName |
      | PUT    | /users/{{A.userId}} | user | lastName  | InvalidLastName  |
      | PUT    | /users/{{A.userId}} | user | timezone  | InvalidTimezone  |

    @post-clients
    Examples: POST /clients
      | method | path     | body   | field           | code                   |
      | POST   | /clients | client | name            | InvalidName            |
      | POST   | /clients | client | addressLine1    | InvalidAddressLine1    |
      | POST   | /clients | client | addressLine2    | InvalidAddressLine2    |
      | POST   | /clients | client | addressCity     | InvalidAddressCity     |
      | POST   | /clients | client | addressPostcode | InvalidAddressPostcode |
      | POST   | /clients | client | addressCountry  | InvalidAddressCountry  |
      | POST   | /clients | client | vat             | InvalidVat             |
      | POST   | /clients | client | terms           | InvalidTerms           |

    @put-clients @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | body   | field           | code                   |
      | PUT    | /clients/{{A.clientId}} | client | name            | InvalidName            |
      | PUT    | /clients/{{A.clientId}} | client | addressLine1    | InvalidAddressLine1    |
      | PUT    | /clients/{{A.clientId}} | client | addressLine2    | InvalidAddressLine2    |
      | PUT    | /clients/{{A.clientId}} | client | addressCity     | InvalidAddressCity     |
      | PUT    | /clients/{{A.clientId}} | client | addressPostcode | InvalidAddressPostcode |
      | PUT    | /clients/{{A.clientId}} | client | addressCountry  | InvalidAddressCountry  |
      | PUT    | /clients/{{A.clientId}} | client | vat             | InvalidVat             |
      | PUT    | /clients/{{A.clientId}} | client | terms           | InvalidTerms           |

  @reference @s7.1 @put-users @mutates-A
  Scenario: PUT /users/:userId answers InvalidEmail for an email of 256 characters
    Given the request body is the template "user"
    And the request body field "email" is an email of 256 characters
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors are exactly:
      | fieldName | error        |
      | email     | InvalidEmail |
