Feature: valid but unusual input is accepted
  Section 8 counts characters, not bytes: a string of 255 letters outside ASCII is accepted and
  answered as sent, and one of 256 refused, in every field that takes free text. The letters used
  take two or three bytes in UTF-8, one code point and one UTF-16 unit each, and no normalisation
  changes them, so that every reading of "character" but bytes agrees. Valid emails with a +, dots
  and a subdomain of the profile's email domain are accepted and log in; hexadecimal in upper case
  is hexadecimal; a one-character name is a name provided; a name may hold quotes, a backslash and
  markup; a timezone's city may have a hyphen. And every catalogue value the profile lists works,
  so that a server that ignores currency.id or nextplan.id (and always takes its first entry) is
  caught; platform.id is checked in consequences.feature. The equivalent forms HTTP and JSON
  give a request are taken as the plain one: a string with \u escapes is the same string (RFC
  8259 7), a body in chunks the same body (RFC 9112 7.1), application/json with a charset or in
  capitals the same media type (RFC 9110 8.3.1), and an Accept header that admits JSON asks for
  the answer a request without one gets (RFC 9110 12.5.1).

  Scenario Outline: <method> <path> accepts 255 non-ASCII characters in <field> and answers them as sent
    Given I am account "A" using the api-key header
    And I remember "{{gen:unicode:255}}" as "value"
    And the request body is the template "<body>"
    And the request body field "<field>" is "{{value}}"
    When I send "<method>" to "<path>"
    Then the response status is 200
    And the response matches:
      """json
      {"<field>": <answer>}
      """

    @put-users @s4.1 @s8 @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body | field     | answer      |
      | PUT    | /users/{{A.userId}} | user | firstName | "{{value}}" |
      | PUT    | /users/{{A.userId}} | user | lastName  | "{{value}}" |

    @put-clients @s4.4 @s8 @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | body   | field        | answer                     |
      | PUT    | /clients/{{A.clientId}} | client | name         | "{{value}}"                |
      | PUT    | /clients/{{A.clientId}} | client | addressLine1 | "{{value}}"                |
      | PUT    | /clients/{{A.clientId}} | client | addressLine2 | {"#optional": "{{value}}"} |
      | PUT    | /clients/{{A.clientId}} | client | addressCity  | "{{value}}"                |

  @post-clients @s4.3 @s8
  Scenario Outline: POST /clients accepts 255 non-ASCII characters in <field> and answers them as sent
    Given the profile value "clients_per_user" is "several"
    And I am account "A" using the api-key header
    And I remember "{{gen:unicode:255}}" as "value"
    And the request body is the template "client"
    And the request body field "<field>" is "{{value}}"
    When I send "POST" to "/clients"
    Then the response status is 200
    And the response matches:
      """json
      {"<field>": <answer>}
      """

    Examples:
      | field        | answer                     |
      | name         | "{{value}}"                |
      | addressLine1 | "{{value}}"                |
      | addressCity  | "{{value}}"                |

  Scenario Outline: <method> <path> refuses 256 non-ASCII characters in <field>
    Given I am account "A" using the api-key header
    And the request body is the template "<body>"
    And the request body field "<field>" is a non-ASCII string of 256 characters
    When I send "<method>" to "<path>"
    Then the errors name the field "<field>"

    @put-users @s4.1 @s8 @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body | field     |
      | PUT    | /users/{{A.userId}} | user | firstName |
      | PUT    | /users/{{A.userId}} | user | lastName  |

    @put-clients @s4.4 @s8 @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | body   | field        |
      | PUT    | /clients/{{A.clientId}} | client | name         |
      | PUT    | /clients/{{A.clientId}} | client | addressLine1 |

  @put-users @s4.1 @s8 @post-sessions @mutates-A
  Scenario: a password of 6 non-ASCII characters is accepted and logs in
    Given I am account "A" using the api-key header
    And I remember "{{gen:unicode:6}}" as "newPassword"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{newPassword}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I log in with email "{{A.email}}" and password "{{newPassword}}"
    Then the response status is 200
    And the JSON at "userId" is {{A.userId}}

  @put-users @s4.1 @s8 @post-sessions @mutates-A
  Scenario: a password with spaces around it and inside it is accepted and logs in as it was set
    4.1: a String of at least 6 characters replaces the password; a space is a character, so the
    password is the string as sent, and only that string logs in (5).

    Given I am account "A" using the api-key header
    And I remember "  {{gen:hex:4}} {{gen:hex:4}}  " as "newPassword"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{newPassword}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I log in with email "{{A.email}}" and password "{{newPassword}}"
    Then the response status is 200
    And the JSON at "userId" is {{A.userId}}

  @put-users @s4.1 @s8 @s7.3 @post-sessions @mutates-A
  Scenario: a password of 5 non-ASCII characters, more than 6 bytes, is too short
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{gen:unicode:5}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors include:
      | fieldName | error           |
      | password  | InvalidPassword |
    When I log in with email "{{A.email}}" and password "{{A.password}}"
    Then the response status is 200

  @put-users @s4.1 @s2.1 @post-sessions @mutates-A
  Scenario Outline: an email with <form> is accepted, answered as sent, and logs in
    Given I am account "A" using the api-key header
    And I remember "{{gen:email:<generator>}}" as "email"
    And the request body is the template "user"
    And the request body field "email" is "{{email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "email" is "{{email}}"
    When I log in with email "{{email}}" and password "{{A.password}}"
    Then the response status is 200
    And the JSON at "userId" is {{A.userId}}

    Examples:
      | form                                   | generator |
      | a plus sign in its local part          | plus      |
      | dots in its local part                 | dots      |
      | a subdomain of the profile's domain    | subdomain |

  @put-users @s4.1 @s2.1 @s7.3 @mutates-A
  Scenario Outline: a first name <case> is accepted and answered as sent
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "firstName" is <value>
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "firstName" is <value>

    Examples:
      | case                              | value                               |
      | of one character                  | "Q"                                 |
      | with an apostrophe and a hyphen   | "contract-O'Brien-Smith"            |
      | with quotes and a backslash       | "contract-\"Q\" \\\\ the 2nd"       |
      | with markup                       | "contract-<b>Q</b> & co"            |
      | with spaces around it             | "  contract-Q  "                    |

  @put-users @s4.1 @s2.1 @mutates-A
  Scenario Outline: the timezone <timezone>, a name of the form Area/City, is accepted and answered as sent
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "timezone" is "<timezone>"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "timezone" is "<timezone>"

    Examples:
      | timezone               |
      | America/Port-au-Prince |
      | America/Los_Angeles    |

  @post-apps @s4.2 @s8
  Scenario: a marketapp hash in upper-case hexadecimal names the same marketplace app
    Where a target takes one app of a marketplace app, the app may be refused as a second one; it
    is never unknown (404).

    Given I am account "A" using the api-key header
    And the request body is the template "app"
    And the request body field "marketapp.hash" is "{{upper:marketappHash}}"
    When I send "POST" to "/apps"
    Then the response is one of:
      | status | shape                                                                                          | when                   |
      | 200    | {"marketapp": {"hash": "#regex (?i)^{{marketappHash}}$"}, "platform": {"id": {{platformId}}}} |                        |
      | 400    | errors                                                                                         | apps_per_marketapp=one |

  @put-clients @s4.4 @s2.2 @mutates-A
  Scenario Outline: PUT /clients/:clientId with the currency <n> of the profile answers that currency
    Given I am account "A" using the api-key header
    And the request body is the template "client"
    And the request body field "currency.id" is {{currencies.<n>.id}}
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the JSON at "currency.id" is {{currencies.<n>.id}}
    And the JSON at "currency.code" matches the pattern "(?i)^{{currencies.<n>.code}}$"

    Examples:
      | n |
      | 1 |
      | 2 |

  @post-clients @s4.3 @s2.2
  Scenario Outline: POST /clients with the currency <n> of the profile answers that currency
    Given the profile value "clients_per_user" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "client"
    And the request body field "currency.id" is {{currencies.<n>.id}}
    When I send "POST" to "/clients"
    Then the response status is 200
    And the JSON at "currency.id" is {{currencies.<n>.id}}
    And the JSON at "currency.code" matches the pattern "(?i)^{{currencies.<n>.code}}$"

    Examples:
      | n |
      | 1 |
      | 2 |

  @post-apps @s4.2 @s2.3
  Scenario Outline: POST /apps with the plan <n> of the profile answers the plan flags the profile gives it
    The app answers plan flags, not a plan id (2.3); the profile's plans say which flag an app
    created with each nextplan.id answers.

    Given the profile value "apps_per_marketapp" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "app"
    And the request body field "nextplan.id" is {{plans.<n>.id}}
    When I send "POST" to "/apps"
    Then the response status is 200
    And the JSON at "plan" matches:
      """json
      {"isLite": "{{plans.<n>.isLite}}", "isPro": "{{plans.<n>.isPro}}", "isDynamic": "{{plans.<n>.isDynamic}}"}
      """

    Examples:
      | n |
      | 1 |
      | 2 |

  @put-clients @s4.4 @s4.3 @s1 @mutates-A
  Scenario Outline: PUT /clients/:clientId takes terms written <case>, the same JSON string as I agree
    RFC 8259 7: any character of a JSON string may be written as a \u escape, and the string is the
    same; terms that read as the literal I agree once the JSON is parsed are I agree (4.3), and
    PUT /clients/:clientId takes the fields of POST /clients (4.4). A PUT, so that the scenario
    creates nothing a target may bound.

    Given I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "name"
    And the raw request body is:
      """
      {"name": "{{name}}", "addressLine1": "{{addressLine1}}", "addressCity": "{{addressCity}}", "addressPostcode": "{{addressPostcode}}", "addressCountry": "{{addressCountry}}", "currency": {"id": {{currencyId}}}, "terms": "<terms>"}
      """
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the response matches the shape "client"
    And the JSON at "name" is "{{name}}"

    Examples:
      | case                         | terms                                      |
      | with its space escaped       | I\u0020agree                               |
      | with every character escaped | \u0049\u0020\u0061\u0067\u0072\u0065\u0065 |

  Scenario Outline: <method> <path> with its body sent in chunks is answered as with a Content-Length
    RFC 9112 7.1: the chunked transfer coding carries the same content, and every HTTP/1.1
    recipient parses it; a body in chunks is not an empty body. 6.3 lets a server refuse a body
    without a Content-Length with 411 (Length Required) instead, never read it as another body.

    Given I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "value"
    And the request body is the template "<body>"
    And the request body field "<field>" is "{{value}}"
    And the request body is sent in chunks
    When I send "<method>" to "<path>"
    Then the response is one of:
      | status | shape                       |
      | 200    | {"<field>": "{{value}}"}    |
      | 411    |                             |

    @put-users @s4.1 @s4 @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body | field     |
      | PUT    | /users/{{A.userId}} | user | firstName |

    @put-clients @s4.4 @s4 @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | body   | field |
      | PUT    | /clients/{{A.clientId}} | client | name  |

  Scenario Outline: <method> <path> with whitespace around its body is answered as without it
    RFC 8259 2: a JSON text is a value with insignificant whitespace (space, horizontal tab, line
    feed, carriage return) allowed before and after it; the body is the JSON object 4 asks for.

    Given I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "value"
    And the request body is the template "<body>"
    And the request body field "<field>" is "{{value}}"
    And the request body is sent with whitespace around it
    When I send "<method>" to "<path>"
    Then the response status is 200
    And the JSON at "<field>" is "{{value}}"

    @put-users @s4.1 @s4 @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body | field     |
      | PUT    | /users/{{A.userId}} | user | firstName |

    @put-clients @s4.4 @s4 @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | body   | field |
      | PUT    | /clients/{{A.clientId}} | client | name  |

  @put-users @s4.1 @s4 @s1 @mutates-A
  Scenario Outline: a body labelled <type> is read as JSON
    RFC 9110 8.3.1: the type and subtype of a media type are case-insensitive; RFC 8259 11 defines
    no charset parameter for application/json, and adding one has no effect on a compliant
    recipient. The body is the JSON that 4 asks for.

    Given I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "firstName"
    And the request body is the template "user"
    And the request body field "firstName" is "{{firstName}}"
    And the request content type is "<type>"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "firstName" is "{{firstName}}"

    Examples:
      | type                            |
      | application/json; charset=utf-8 |
      | application/json;charset=UTF-8  |
      | Application/JSON                |

  @put-users @s4.1 @s4 @s1 @mutates-A
  Scenario Outline: an Accept header of <accept> is answered as a request without one, with JSON
    RFC 9110 12.5.1: <accept> admits application/json, and the API answers JSON (1), so the answer
    is the one a request without an Accept header gets: 406 is for a request that admits none of
    the available media types.

    Given I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "firstName"
    And the request body is the template "user"
    And the request body field "firstName" is "{{firstName}}"
    And the request header "Accept" is "<accept>"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the response is JSON
    And the JSON at "firstName" is "{{firstName}}"

    Examples:
      | accept                                       |
      | */*                                          |
      | application/*                                |
      | application/json; charset=utf-8              |
      | text/html;q=0.9, application/json, */*;q=0.1 |
