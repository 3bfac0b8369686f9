@s7.2 @s4
Feature: a client's mistake is answered with a client error, never a server error
  Section 4: requests carrying a body use JSON and every field is typed; section 7.2 names the
  statuses an endpoint answers, and none of them is a 5xx. Where the spec names no code for a
  mistake (malformed JSON, a body that is no object, a field of the wrong JSON type, a path id
  that is no number), a correct server may answer 400, 404, 415, 422 or another 4xx, so these
  scenarios assert only the class: 4xx. Beside them, every scenario of the suite is held to the
  floor: a request that earns a 5xx fails the scenario that sent it, whether or not a step asserts
  its status. The field values of the wrong type are ones no careful reading could take for the
  type the spec gives (a number for a String, a string for a Boolean or an Object, true for a
  Number); a name, platform.id of the wrong type go in a body without a marketapp hash, since 4.2
  uses them only when no hash is given.

  Background:
    Given I am account "A" using the api-key header

  Scenario Outline: <endpoint> answers a body that is <case> with a client error
    Given the raw request body is:
      """
      <body>
      """
    When I send "<method>" to "<path>"
    Then the response status is 4xx

    @put-users @s4.1 @mutates-A
    Examples: PUT /users/:userId
      | endpoint           | method | path                | case                   | body                 |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | malformed JSON         | {"email": "x",       |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | JSON with a stray text | {"password": null} x |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | a JSON array           | []                   |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | a JSON string          | "user"               |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | a JSON number          | 42                   |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | JSON null              | null                 |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | empty                  |                      |

    @post-apps @s4.2
    Examples: POST /apps
      | endpoint   | method | path  | case                   | body                    |
      | POST /apps | POST   | /apps | malformed JSON         | {"marketapp": {"hash": |
      | POST /apps | POST   | /apps | JSON with a stray text | {} {}                   |
      | POST /apps | POST   | /apps | a JSON array           | [{"name": "x"}]         |
      | POST /apps | POST   | /apps | a JSON string          | "app"                   |
      | POST /apps | POST   | /apps | a JSON number          | 42                      |
      | POST /apps | POST   | /apps | JSON null              | null                    |
      | POST /apps | POST   | /apps | empty                  |                         |

    @post-clients @s4.3
    Examples: POST /clients
      | endpoint      | method | path     | case                   | body              |
      | POST /clients | POST   | /clients | malformed JSON         | {"name": 'x'}     |
      | POST /clients | POST   | /clients | JSON with a stray text | {"name": "x"}]    |
      | POST /clients | POST   | /clients | a JSON array           | [1, 2]            |
      | POST /clients | POST   | /clients | a JSON string          | "client"          |
      | POST /clients | POST   | /clients | a JSON number          | -1.5e3            |
      | POST /clients | POST   | /clients | JSON null              | null              |
      | POST /clients | POST   | /clients | empty                  |                   |

    @put-clients @s4.4 @mutates-A
    Examples: PUT /clients/:clientId
      | endpoint               | method | path                    | case                   | body             |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | malformed JSON         | {name: "x"}      |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | JSON with a stray text | true false       |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | a JSON array           | [{}]             |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | a JSON string          | "client"         |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | a JSON number          | 0                |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | JSON null              | null             |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | empty                  |                  |

    @post-sessions @s5
    Examples: POST /sessions
      | endpoint       | method | path      | case                   | body                      |
      | POST /sessions | POST   | /sessions | malformed JSON         | {"email": "{{A.email}}    |
      | POST /sessions | POST   | /sessions | JSON with a stray text | {"email": ""}}            |
      | POST /sessions | POST   | /sessions | a JSON array           | ["{{A.email}}"]           |
      | POST /sessions | POST   | /sessions | a JSON string          | "{{A.email}}"             |
      | POST /sessions | POST   | /sessions | a JSON number          | 42                        |
      | POST /sessions | POST   | /sessions | JSON null              | null                      |
      | POST /sessions | POST   | /sessions | empty                  |                           |

  Scenario Outline: <endpoint> answers <field> of the wrong JSON type (<value>) with a client error
    Given the request body is the template "<body>"
    And the request body field "<field>" is <value>
    When I send "<method>" to "<path>"
    Then the response status is 4xx

    @put-users @s4.1 @mutates-A
    Examples: PUT /users/:userId
      | endpoint           | method | path                | body | field               | value   |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | email               | 42      |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | firstName           | 42      |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | lastName            | true    |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | subscribeWelcome    | "true"  |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | subscribeBlog       | "no"    |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | subscribeHowto      | {}      |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | subscribeOnboarding | [false] |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | timezone            | 42      |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | password            | true    |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user | client              | "acme"  |

    @post-apps @s4.2
    Examples: POST /apps
      | endpoint   | method | path  | body        | field          | value     |
      | POST /apps | POST   | /apps | app         | marketapp      | true      |
      | POST /apps | POST   | /apps | app         | marketapp.hash | 42        |
      | POST /apps | POST   | /apps | app         | nextplan       | "pro"     |
      | POST /apps | POST   | /apps | app         | nextplan.id    | true      |
      | POST /apps | POST   | /apps | app-by-name | name           | 42        |
      | POST /apps | POST   | /apps | app-by-name | platform       | "Android" |
      | POST /apps | POST   | /apps | app-by-name | platform.id    | true      |

    @post-clients @s4.3
    Examples: POST /clients
      | endpoint      | method | path     | body   | field           | value |
      | POST /clients | POST   | /clients | client | name            | 42    |
      | POST /clients | POST   | /clients | client | addressLine1    | 42    |
      | POST /clients | POST   | /clients | client | addressLine2    | 42    |
      | POST /clients | POST   | /clients | client | addressCity     | 42    |
      | POST /clients | POST   | /clients | client | addressPostcode | 42    |
      | POST /clients | POST   | /clients | client | addressCountry  | 42    |
      | POST /clients | POST   | /clients | client | vat             | 42    |
      | POST /clients | POST   | /clients | client | currency        | "GBP" |
      | POST /clients | POST   | /clients | client | currency.id     | true  |
      | POST /clients | POST   | /clients | client | terms           | true  |
      | POST /clients | POST   | /clients | client | app             | "app" |

    @put-clients @s4.4 @mutates-A
    Examples: PUT /clients/:clientId
      | endpoint               | method | path                    | body   | field           | value |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | name            | 42    |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | addressLine1    | 42    |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | addressLine2    | 42    |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | addressCity     | 42    |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | addressPostcode | 42    |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | addressCountry  | 42    |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | vat             | 42    |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | currency        | "GBP" |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | currency.id     | true  |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | terms           | true  |

  Scenario Outline: <endpoint> answers <field>, an id with a fraction, with a client error
    An id names an entry of its catalogue (2.2, 2.3: "ID of the billing currency", "ID of the
    subscription plan"); no entry has an id with a fraction, so <field> at the profile's id plus
    .5 names none. Read as the integer below it, it would store an entry that was never sent.
    Given the request body is the template "<body>"
    And the request body field "<field>" is {{<id>}}.5
    When I send "<method>" to "<path>"
    Then the response status is 4xx

    @post-clients @s4.3 @s2.2
    Examples: POST /clients
      | endpoint      | method | path     | body   | field       | id         |
      | POST /clients | POST   | /clients | client | currency.id | currencyId |

    @put-clients @s4.4 @s2.2 @mutates-A
    Examples: PUT /clients/:clientId
      | endpoint               | method | path                    | body   | field       | id         |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client | currency.id | currencyId |

    @post-apps @s4.2 @s2.3
    Examples: POST /apps
      | endpoint   | method | path  | body | field       | id     |
      | POST /apps | POST   | /apps | app  | nextplan.id | planId |

  @post-sessions @s5
  Scenario Outline: POST /sessions answers credentials of the wrong JSON type (<case>) with a client error
    Given I am not authenticated
    And the request body is:
      """json
      {"email": <email>, "password": <password>}
      """
    When I send "POST" to "/sessions"
    Then the response status is 4xx

    Examples:
      | case                         | email                      | password         |
      | a number for the email       | 42                         | "{{A.password}}" |
      | an object for the email      | {"address": "{{A.email}}"} | "{{A.password}}" |
      | a boolean for the password   | "{{A.email}}"              | true             |
      | an array for the password    | "{{A.email}}"              | ["{{A.password}}"] |
      | null for the password        | "{{A.email}}"              | null             |

  @post-sessions @s5
  Scenario Outline: POST /sessions with <case> opens no session
    A session is obtained "with the credentials of the account to use" (5): an email alone is not
    the account's credentials, whatever else the body holds.
    Given I am not authenticated
    And the request body is:
      """json
      <body>
      """
    When I send "POST" to "/sessions"
    Then the response status is 4xx

    Examples:
      | case                                | body                                         |
      | an email and no password            | {"email": "{{A.email}}"}                     |
      | an email and another member         | {"email": "{{A.email}}", "pass": "{{A.password}}"} |

  Scenario Outline: PUT <resource>/<id>, the caller's own id with its first digit percent-encoded, names the same <what> (RFC 3986 2.3)
    Given I am account "A" using the api-key header
    And the request body is the template "<body>"
    When I send "PUT" to "<resource>/{{pct-first:A.<id>}}"
    Then the response status is 200
    And the JSON at "id" is {{A.<id>}}

    @put-users @s4.1 @mutates-A
    Examples: PUT /users/:userId
      | resource | what   | body   | id       |
      | /users   | user   | user   | userId   |

    @put-clients @s4.4 @mutates-A
    Examples: PUT /clients/:clientId
      | resource | what   | body   | id       |
      | /clients | client | client | clientId |

  Scenario Outline: PUT <resource>/<id>, a path id that is no <what> number, is answered with a client error
    Given the request body is the template "<body>"
    When I send "PUT" to "<resource>/<id>"
    Then the response status is 4xx

    @put-users @s4.1 @mutates-A
    Examples: PUT /users/:userId
      | resource | what    | body | id                   |
      | /users   | user's  | user | abc                  |
      | /users   | user's  | user | 99999999999999999999 |
      | /users   | user's  | user | -1                   |
      | /users   | user's  | user | 1.5                  |

    @put-clients @s4.4 @mutates-A
    Examples: PUT /clients/:clientId
      | resource | what     | body   | id                   |
      | /clients | client's | client | abc                  |
      | /clients | client's | client | 99999999999999999999 |
      | /clients | client's | client | -1                   |
      | /clients | client's | client | 1.5                  |

  Scenario Outline: <endpoint> may take or refuse a body field the spec does not name, and the account is served next
    The spec neither allows nor forbids a field it does not name: ignoring it (200) and refusing it
    (4xx) are both correct, so no step asserts the first answer. The floor holds it: a 5xx fails.
    Given the request body is the template "<body>"
    And the request body field "contractUnnamedField" is {"nested": [1, "two", null]}
    When I send "<method>" to "<path>"
    Given the request body is the template "user"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200

    @put-users @s4.1 @mutates-A
    Examples: PUT /users/:userId
      | endpoint           | method | path                | body |
      | PUT /users/:userId | PUT    | /users/{{A.userId}} | user |

    @post-apps @s4.2 @mutates-A
    Examples: POST /apps
      | endpoint   | method | path  | body |
      | POST /apps | POST   | /apps | app  |

    @post-clients @s4.3 @mutates-A
    Examples: POST /clients
      | endpoint      | method | path     | body   |
      | POST /clients | POST   | /clients | client |

    @put-clients @s4.4 @mutates-A
    Examples: PUT /clients/:clientId
      | endpoint               | method | path                    | body   |
      | PUT /clients/:clientId | PUT    | /clients/{{A.clientId}} | client |
