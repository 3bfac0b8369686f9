@post-sessions
Feature: POST /sessions opens a session
  Section 5: a client obtains a session by POST /sessions with the credentials of the account
  to use; the answer is the session object of section 2.4, whose token authenticates later
  requests (auth.feature). The spec does not show the request body, so spec-level scenarios log
  in through the login step (JSON or form body, as the target profile says); the body formats
  are the mock's decisions and are @reference. Nor does it show the errors of POST /sessions:
  wrong credentials may be a validation failure (400) or a failed authentication (401), never 200.

  @s5 @s2.4 @s1 @s4
  Scenario Outline: the right credentials of account <account> answer the session object
    When I log in as account "<account>"
    Then the response status is 200
    And the response is JSON
    And the response matches the shape "session"
    And the JSON at "userId" is a number
    And the JSON at "clientId" is a number
    And the JSON at "creatorUserId" is a number
    And the JSON at "token" is a string
    And the JSON at "token" matches the pattern "^.+$"
    And the JSON at "created" matches the pattern "T[0-9]{2}"

    Examples:
      | account |
      | A       |
      | B       |

  @s5
  Scenario: a wrong password is refused
    When I log in with email "{{A.email}}" and password "{{gen:password}}"
    Then the response status is 401 or 400

  @s5
  Scenario: an unknown email is refused
    When I log in with email "{{gen:email}}" and password "{{A.password}}"
    Then the response status is 401 or 400

  @s5
  Scenario: the password of another account is refused
    When I log in with email "{{A.email}}" and password "{{B.password}}"
    Then the response status is 401 or 400

  @s5
  Scenario Outline: account A's password with <change> is refused
    A password one character off, or in other letter case, is a wrong password: a server that
    compares a prefix, a hash cut short or the letters without case takes it for the right one.
    When I log in with email "{{A.email}}" and password "{{<kind>:A.password}}"
    Then the response status is 401 or 400

    Examples:
      | change                       | kind         |
      | its last character changed   | near-last    |
      | its first character changed  | near-first   |
      | a character added            | near-added   |
      | its last character removed   | near-removed |
      | its letters in the other case | near-case   |

  @s5 @s2.4
  Scenario Outline: a login of account B that carries account A's <credential> opens account B's session or is refused
    Section 5: a session is obtained "with the credentials of the account to use", those of the
    body. A credential sent beside them is not shown by the spec: a server may ignore it or refuse
    the login, but a session it opens is the body's account's, never the credential's.
    When I log in as account "A"
    Then the response status is 200
    And I remember the JSON at "token" as "token"
    Given I am not authenticated
    And the request <where> "<name>" is "<value>"
    When I log in with email "{{B.email}}" and password "{{B.password}}"
    Then the response is one of:
      | status | shape                    |
      | 200    | {"userId": {{B.userId}}} |
      | 400    |                          |
      | 401    |                          |
      | 403    |                          |

    Examples:
      | credential                   | where           | name          | value                |
      | api key                      | header          | Authorization | api-key {{A.apiKey}} |
      | session token                | header          | session-token | {{token}}            |
      | session token, in the query  | query parameter | sessionToken  | {{token}}            |

  @reference @s5
  Scenario: wrong credentials are answered 401
    When I log in with email "{{A.email}}" and password "{{gen:password}}"
    Then the response status is 401
    When I log in with email "{{gen:email}}" and password "{{A.password}}"
    Then the response status is 401

  @reference @s5 @s2.4
  Scenario: POST /sessions takes a JSON body and names the caller's user and client
    Given I am not authenticated
    And the request body is:
      """json
      {"email": "{{A.email}}", "password": "{{A.password}}"}
      """
    When I send "POST" to "/sessions"
    Then the response status is 200
    And the response matches the shape "session"
    And the JSON at "userId" is {{A.userId}}
    And the JSON at "clientId" is {{A.clientId}}
    And the JSON at "created" matches the pattern "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"

  @reference @s5 @s2.4
  Scenario: POST /sessions takes a form-encoded body
    Given I am not authenticated
    And the request content type is "application/x-www-form-urlencoded"
    And the raw request body is:
      """
      email={{A.email}}&password={{A.password}}
      """
    When I send "POST" to "/sessions"
    Then the response status is 200
    And the response matches the shape "session"
    And the JSON at "userId" is {{A.userId}}

  @reference @s5
  Scenario: a form-encoded body with a wrong password is answered 401
    Given I am not authenticated
    And the request content type is "application/x-www-form-urlencoded"
    And the raw request body is:
      """
      email={{A.email}}&password=contract-wrong-password
      """
    When I send "POST" to "/sessions"
    Then the response status is 401

  @reference @s5 @s7.1
  Scenario Outline: a body without <missing> is answered 400
    Given I am not authenticated
    And the request body is:
      """json
      <body>
      """
    When I send "POST" to "/sessions"
    Then the errors are exactly:
      | fieldName | error           |
      | <field>   | <code>          |

    Examples:
      | missing            | body                              | field    | code            |
      | a password         | {"email": "{{A.email}}"}          | password | InvalidPassword |
      | an email           | {"password": "{{A.password}}"}    | email    | InvalidEmail    |

  @reference @s5 @s7.1
  Scenario: an empty body object is answered 400 naming both fields
    Given I am not authenticated
    And the request body is:
      """json
      {}
      """
    When I send "POST" to "/sessions"
    Then the errors are exactly:
      | fieldName | error           |
      | email     | InvalidEmail    |
      | password  | InvalidPassword |

  @reference @s5 @get-extensions
  Scenario: two sessions of one account both authenticate
    When I log in as account "A"
    Then the response status is 200
    And I remember the JSON at "token" as "first"
    When I log in as account "A"
    Then the response status is 200
    And I remember the JSON at "token" as "second"
    Given I am not authenticated
    And the request header "session-token" is "{{first}}"
    When I send "GET" to "/users/{{A.userId}}"
    Then the response status is 200
    Given the request header "session-token" is "{{second}}"
    When I send "GET" to "/users/{{A.userId}}"
    Then the response status is 200
