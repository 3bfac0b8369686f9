@s5
Feature: authentication and permission on every endpoint that needs them
  Section 5 and 7.2: the api-key header, the session-token header and the sessionToken query each
  authenticate; missing, unknown or malformed credentials are answered 401; another user's or
  another client's resource is answered 403; an unknown id 404 (or 403: an implementation may
  check permission first). Bodies are valid, so that only authentication decides.

  Scenario Outline: <method> <path> accepts the <scheme>
    The sessionToken query with every character percent-encoded is the same query: any octet of a
    URI may be written %HH, and a percent-encoded unreserved character is that character (RFC 3986
    2.1, 6.2.2.2), as every server's query decoding reads it.

    Given I am account "A" using the <scheme>
    And the request body is the template "<body>"
    When I send "<method>" to "<path>"
    Then the response status is 200
    And the response is JSON

    @put-users @s4.1 @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body | scheme                                                  |
      | PUT    | /users/{{A.userId}} | user | api-key header                                          |
      | PUT    | /users/{{A.userId}} | user | session-token header                                    |
      | PUT    | /users/{{A.userId}} | user | sessionToken query                                      |
      | PUT    | /users/{{A.userId}} | user | sessionToken query with every character percent-encoded |

    @put-clients @s4.4 @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | body   | scheme                                                  |
      | PUT    | /clients/{{A.clientId}} | client | api-key header                                          |
      | PUT    | /clients/{{A.clientId}} | client | session-token header                                    |
      | PUT    | /clients/{{A.clientId}} | client | sessionToken query                                      |
      | PUT    | /clients/{{A.clientId}} | client | sessionToken query with every character percent-encoded |

  Scenario Outline: account B's <scheme> authenticates account B, not another user
    Every scheme for every account: a server whose session tokens all act as one user, or whose
    api keys all belong to the first account, passes what account A alone can show.
    Given I am account "B" using the <scheme>
    And the request body is the template "<body>"
    When I send "<method>" to "<path>"
    Then the response status is 200
    And the response is JSON
    Given I am account "B" using the <scheme>
    And the request body is the template "<body>"
    When I send "<method>" to "<other>"
    Then the response status is 403 or 404

    @put-users @s4.1 @mutates-B @mutates-A
    Examples: PUT /users/:userId
      | method | path                | other               | body | scheme               |
      | PUT    | /users/{{B.userId}} | /users/{{A.userId}} | user | api-key header       |
      | PUT    | /users/{{B.userId}} | /users/{{A.userId}} | user | session-token header |
      | PUT    | /users/{{B.userId}} | /users/{{A.userId}} | user | sessionToken query   |

  @s7.2 @put-users @s4.1 @mutates-A @mutates-B
  Scenario Outline: the two schemes are not interchangeable: account <acct>'s <what> sent as <as> is answered 401
    Section 5 names two schemes: an API key in "Authorization: api-key", a session token in the
    session-token header or the sessionToken query. A credential of one in the place of the other, or
    in a place neither names (a Bearer Authorization, an apiKey query), is not "authenticated
    correctly".
    When I log in as account "<acct>"
    And I remember the JSON at "token" as "token"
    Given I am not authenticated
    And the request <where> "<name>" is "<value>"
    And the request body is the template "user"
    When I send "PUT" to "/users/{{<acct>.userId}}"
    Then the response status is 401

    Examples:
      | acct | what          | as                      | where           | name          | value                 |
      | A    | session token | an api key              | header          | Authorization | api-key {{token}}     |
      | B    | session token | an api key              | header          | Authorization | api-key {{token}}     |
      | A    | api key       | a session-token header  | header          | session-token | {{A.apiKey}}          |
      | B    | api key       | a session-token header  | header          | session-token | {{B.apiKey}}          |
      | A    | api key       | a sessionToken query    | query parameter | sessionToken  | {{A.apiKey}}          |
      | B    | api key       | a sessionToken query    | query parameter | sessionToken  | {{B.apiKey}}          |
      | A    | session token | a Bearer token          | header          | Authorization | Bearer {{token}}      |
      | B    | session token | a Bearer token          | header          | Authorization | Bearer {{token}}      |
      | A    | api key       | an apiKey query         | query parameter | apiKey        | {{A.apiKey}}          |
      | B    | api key       | an api_key query        | query parameter | api_key       | {{B.apiKey}}          |
      | A    | api key       | a Bearer token          | header          | Authorization | Bearer {{A.apiKey}}   |
      | B    | api key       | a Bearer token          | header          | Authorization | Bearer {{B.apiKey}}   |
      | A    | session token | a session-token Authorization | header    | Authorization | session-token {{token}} |
      | B    | session token | a session-token Authorization | header    | Authorization | session-token {{token}} |
      | A    | session token | a session_token query   | query parameter | session_token | {{token}}             |
      | B    | session token | a session_token query   | query parameter | session_token | {{token}}             |

  @s7.2 @mutates-A @mutates-B
  Scenario Outline: without correct credentials <method> <path> is answered 401, whatever its id (<case>)
    Section 5: a request that is not authenticated correctly is answered 401, whether its id names
    the caller's resource, another's or none: a server that looks the id up first tells an attacker
    which ids exist.
    Given I am not authenticated
    And the request body is the template "<body>" with stand-ins for the profile values it lacks
    When I send "<method>" to "<path>"
    Then the response status is 401

    @put-users @s4.1
    Examples: PUT /users/:userId
      | method | path                | body | case                    |
      | PUT    | /users/{{B.userId}} | user | another user's id       |
      | PUT    | /users/999999999    | user | an unknown id           |

    @put-clients @s4.4
    Examples: PUT /clients/:clientId
      | method | path                    | body   | case                    |
      | PUT    | /clients/{{B.clientId}} | client | another client's id     |
      | PUT    | /clients/999999999      | client | an unknown id           |

  @s7.2 @mutates-A @mutates-B
  Scenario Outline: without correct credentials <method> <path>, whose id is no id, is answered 401 or refused as no such path (<case>)
    An id that is no plain positive decimal names no resource, so answering it tells nothing of
    which ids exist: a server may refuse it as a path it does not serve (400 or 404, as a router
    with typed parameters does) before it authenticates, or answer 401 (README, "Where the spec is
    silent", malformed-id). Never 403 and never 200: nobody was authenticated.
    Given I am not authenticated
    And the request body is the template "<body>" with stand-ins for the profile values it lacks
    When I send "<method>" to "<path>"
    Then the response status is 401 or 4xx but not 403

    @put-users @s4.1
    Examples: PUT /users/:userId
      | method | path        | body | case           |
      | PUT    | /users/abc  | user | a malformed id |
      | PUT    | /users/0    | user | id 0           |

    @put-clients @s4.4
    Examples: PUT /clients/:clientId
      | method | path         | body   | case           |
      | PUT    | /clients/abc | client | a malformed id |

  @s7.2 @mutates-A
  Scenario Outline: without correct credentials <method> <path> is answered 401, whatever its body (<case>)
    Authentication comes before the body: an unauthenticated request is 401, not 400.
    Given I am not authenticated
    And the request <where> "<name>" is "<value>"
    And the request body is the template "<body>" with stand-ins for the profile values it lacks
    And the request body field "<field>" is <bad>
    When I send "<method>" to "<path>"
    Then the response status is 401

    @put-users @s4.1
    Examples: PUT /users/:userId
      | method | path                    | body   | field     | bad            | case                          | where  | name          | value                     |
      | PUT    | /users/{{A.userId}}     | user   | email     | "not-an-email" | no credentials, invalid email | header | X-None        | none                      |
      | PUT    | /users/{{A.userId}}     | user   | firstName | ""             | a wrong key, no first name    | header | Authorization | api-key {{gen:string:32}} |
      | PUT    | /users/999999999        | user   | email     | 5              | a wrong key and an unknown id | header | Authorization | api-key {{gen:string:32}} |

    @put-clients @s4.4
    Examples: PUT /clients/:clientId
      | method | path                    | body   | field     | bad            | case                          | where  | name          | value                     |
      | PUT    | /clients/{{A.clientId}} | client | name      | ""             | no credentials, no name       | header | X-None        | none                      |

    @post-clients @s4.3
    Examples: POST /clients
      | method | path                    | body   | field     | bad            | case                          | where  | name          | value                     |
      | POST   | /clients                | client | name      | ""             | a wrong token, no name        | header | session-token | {{gen:hex:64}}            |
      | POST   | /clients                | client | name      | ""             | no credentials, no name       | header | X-None        | none                      |
      | POST   | /clients                | client | terms     | "no"           | no credentials, wrong terms   | header | X-None        | none                      |

    @post-apps @s4.2
    Examples: POST /apps
      | method | path                    | body   | field     | bad            | case                          | where  | name          | value                     |
      | POST   | /apps                   | app    | nextplan  | "x"            | no credentials, a bad plan    | header | X-None        | none                      |

  Scenario Outline: POST <path> accepts the <scheme>
    Account A has a client, and the seed's app uses the profile's marketplace app: a target where
    a user holds one client, or that refuses a second app of a marketplace app (the profile's
    clients_per_user and apps_per_marketapp), refuses these bodies, but never with 401.

    Given I am account "A" using the <scheme>
    And the request body is the template "<body>"
    When I send "POST" to "<path>"
    Then the response is one of:
      | status | shape  | when      |
      | 200    | <body> | <key>=several |
      | 400    | errors | <key>=one |
      | 403    |        | <key>=one |
    And the response is JSON

    @post-apps @s4.2
    Examples: POST /apps
      | path  | body | key                | scheme               |
      | /apps | app  | apps_per_marketapp | api-key header       |
      | /apps | app  | apps_per_marketapp | session-token header |
      | /apps | app  | apps_per_marketapp | sessionToken query   |

    @post-clients @s4.3
    Examples: POST /clients
      | path     | body   | key              | scheme               |
      | /clients | client | clients_per_user | api-key header       |
      | /clients | client | clients_per_user | session-token header |
      | /clients | client | clients_per_user | sessionToken query   |

  @s7.2
  Scenario Outline: <method> <path> without credentials is answered 401
    Given I am not authenticated
    And the request body is the template "<body>" with stand-ins for the profile values it lacks
    When I send "<method>" to "<path>"
    Then the response status is 401

    @put-users @s4.1 @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body |
      | PUT    | /users/{{A.userId}} | user |

    @post-apps @s4.2
    Examples: POST /apps
      | method | path  | body |
      | POST   | /apps | app  |

    @post-clients @s4.3
    Examples: POST /clients
      | method | path     | body   |
      | POST   | /clients | client |

    @put-clients @s4.4 @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | body   |
      | PUT    | /clients/{{A.clientId}} | client |

  @s7.2
  Scenario Outline: <method> <path> with <case> is answered 401
    Given I am not authenticated
    And the request <where> "<name>" is "<value>"
    And the request body is the template "<body>" with stand-ins for the profile values it lacks
    When I send "<method>" to "<path>"
    Then the response status is 401

    @put-users @s4.1 @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body | case                            | where           | name          | value                        |
      | PUT    | /users/{{A.userId}} | user | a Bearer token                  | header          | Authorization | Bearer x                     |
      | PUT    | /users/{{A.userId}} | user | api-key without a key           | header          | Authorization | api-key                      |
      | PUT    | /users/{{A.userId}} | user | an unknown api key              | header          | Authorization | api-key {{gen:string:32}}    |
      | PUT    | /users/{{A.userId}} | user | the api key without api-key     | header          | Authorization | {{A.apiKey}}                 |
      | PUT    | /users/{{A.userId}} | user | an empty Authorization header   | header          | Authorization |                              |
      | PUT    | /users/{{A.userId}} | user | an empty session-token header   | header          | session-token |                              |
      | PUT    | /users/{{A.userId}} | user | an unknown session-token header | header          | session-token | {{gen:hex:64}}               |
      | PUT    | /users/{{A.userId}} | user | an empty sessionToken query     | query parameter | sessionToken  |                              |
      | PUT    | /users/{{A.userId}} | user | an unknown sessionToken query   | query parameter | sessionToken  | {{gen:hex:64}}               |

    @post-apps @s4.2
    Examples: POST /apps
      | method | path  | body | case                            | where           | name          | value                        |
      | POST   | /apps | app  | a Bearer token                  | header          | Authorization | Bearer x                     |
      | POST   | /apps | app  | api-key without a key           | header          | Authorization | api-key                      |
      | POST   | /apps | app  | an unknown api key              | header          | Authorization | api-key {{gen:string:32}}    |
      | POST   | /apps | app  | the api key without api-key     | header          | Authorization | {{A.apiKey}}                 |
      | POST   | /apps | app  | an empty Authorization header   | header          | Authorization |                              |
      | POST   | /apps | app  | an empty session-token header   | header          | session-token |                              |
      | POST   | /apps | app  | an unknown session-token header | header          | session-token | {{gen:hex:64}}               |
      | POST   | /apps | app  | an empty sessionToken query     | query parameter | sessionToken  |                              |
      | POST   | /apps | app  | an unknown sessionToken query   | query parameter | sessionToken  | {{gen:hex:64}}               |

    @post-clients @s4.3
    Examples: POST /clients
      | method | path     | body   | case                            | where           | name          | value                        |
      | POST   | /clients | client | a Bearer token                  | header          | Authorization | Bearer x                     |
      | POST   | /clients | client | api-key without a key           | header          | Authorization | api-key                      |
      | POST   | /clients | client | an unknown api key              | header          | Authorization | api-key {{gen:string:32}}    |
      | POST   | /clients | client | the api key without api-key     | header          | Authorization | {{A.apiKey}}                 |
      | POST   | /clients | client | an empty Authorization header   | header          | Authorization |                              |
      | POST   | /clients | client | an empty session-token header   | header          | session-token |                              |
      | POST   | /clients | client | an unknown session-token header | header          | session-token | {{gen:hex:64}}               |
      | POST   | /clients | client | an empty sessionToken query     | query parameter | sessionToken  |                              |
      | POST   | /clients | client | an unknown sessionToken query   | query parameter | sessionToken  | {{gen:hex:64}}               |

    @put-clients @s4.4 @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | body   | case                            | where           | name          | value                        |
      | PUT    | /clients/{{A.clientId}} | client | a Bearer token                  | header          | Authorization | Bearer x                     |
      | PUT    | /clients/{{A.clientId}} | client | api-key without a key           | header          | Authorization | api-key                      |
      | PUT    | /clients/{{A.clientId}} | client | an unknown api key              | header          | Authorization | api-key {{gen:string:32}}    |
      | PUT    | /clients/{{A.clientId}} | client | the api key without api-key     | header          | Authorization | {{A.apiKey}}                 |
      | PUT    | /clients/{{A.clientId}} | client | an empty Authorization header   | header          | Authorization |                              |
      | PUT    | /clients/{{A.clientId}} | client | an empty session-token header   | header          | session-token |                              |
      | PUT    | /clients/{{A.clientId}} | client | an unknown session-token header | header          | session-token | {{gen:hex:64}}               |
      | PUT    | /clients/{{A.clientId}} | client | an empty sessionToken query     | query parameter | sessionToken  |                              |
      | PUT    | /clients/{{A.clientId}} | client | an unknown sessionToken query   | query parameter | sessionToken  | {{gen:hex:64}}               |

  @s7.2 @put-users @s4.1
  Scenario Outline: account <account>'s <scheme> with <change> is answered 401
    Section 5: a credential that is not the one the server issued is not authenticated correctly,
    however close to it: a server that compares a prefix, a hash cut short or what is left once
    the last character is dropped takes a near miss for the real key or token.
    Given I am account "<account>" using the <scheme> with <change>
    And the request body is the template "user" with stand-ins for the profile values it lacks
    And the request body field "email" is "{{<account>.email}}"
    When I send "PUT" to "/users/{{<account>.userId}}"
    Then the response status is 401

    @mutates-A
    Examples: account A
      | account | scheme               | change                      |
      | A       | api-key header       | its last character changed  |
      | A       | api-key header       | its first character changed |
      | A       | api-key header       | a character added           |
      | A       | api-key header       | its last character removed  |
      | A       | session-token header | its last character changed  |
      | A       | session-token header | its first character changed |
      | A       | session-token header | a character added           |
      | A       | session-token header | its last character removed  |
      | A       | sessionToken query   | its last character changed  |
      | A       | sessionToken query   | its last character removed  |

    @mutates-B
    Examples: account B
      | account | scheme               | change                      |
      | B       | api-key header       | its last character removed  |
      | B       | session-token header | its last character removed  |

  @s7.2
  Scenario Outline: account <actor> using the <scheme> may not modify <what> of account <owner>
    Given I am account "<actor>" using the <scheme>
    And the request body is the template "<body>"
    When I send "PUT" to "<path>"
    Then the response status is 403

    @put-users @s4.1 @mutates-A @mutates-B
    Examples: PUT /users/:userId
      | actor | owner | what     | scheme               | body | path                |
      | A     | B     | the user | api-key header       | user | /users/{{B.userId}} |
      | A     | B     | the user | session-token header | user | /users/{{B.userId}} |
      | A     | B     | the user | sessionToken query   | user | /users/{{B.userId}} |
      | B     | A     | the user | api-key header       | user | /users/{{A.userId}} |

    @put-clients @s4.4 @mutates-A @mutates-B
    Examples: PUT /clients/:clientId
      | actor | owner | what       | scheme               | body   | path                    |
      | A     | B     | the client | api-key header       | client | /clients/{{B.clientId}} |
      | A     | B     | the client | session-token header | client | /clients/{{B.clientId}} |
      | A     | B     | the client | sessionToken query   | client | /clients/{{B.clientId}} |
      | B     | A     | the client | api-key header       | client | /clients/{{A.clientId}} |

  @s7.2
  Scenario Outline: PUT <path> of an unknown id is answered 404 or 403
    Given I am account "A" using the api-key header
    And the request body is the template "<body>"
    When I send "PUT" to "<path>"
    Then the response status is 404 or 403

    @put-users @s4.1
    Examples: PUT /users/:userId
      | path             | body |
      | /users/999999999 | user |

    @put-clients @s4.4
    Examples: PUT /clients/:clientId
      | path               | body   |
      | /clients/999999999 | client |

  @reference @s7.2
  Scenario Outline: PUT <path> of an unknown id is answered 404 with the error array
    Given I am account "A" using the api-key header
    And the request body is the template "<body>"
    When I send "PUT" to "<path>"
    Then the response status is 404
    And the response matches:
      """json
      [{"fieldName": "", "error": "NotFound", "message": "#string"}]
      """

    @put-users
    Examples: PUT /users/:userId
      | path             | body |
      | /users/999999999 | user |
      | /users/abc       | user |

    @put-clients
    Examples: PUT /clients/:clientId
      | path               | body   |
      | /clients/999999999 | client |
      | /clients/abc       | client |

  @reference @s7.2 @post-apps
  Scenario: a 401 carries the error array with the code Unauthorized
    Given I am not authenticated
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 401
    And the response matches:
      """json
      [{"fieldName": "", "error": "Unauthorized", "message": "#string"}]
      """

  @reference @s7.2 @put-users @mutates-B
  Scenario: a 403 carries the error array with the code Forbidden
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    When I send "PUT" to "/users/{{B.userId}}"
    Then the response status is 403
    And the response matches:
      """json
      [{"fieldName": "", "error": "Forbidden", "message": "#string"}]
      """

  @reference @post-apps
  Scenario Outline: the scheme word <case> is accepted
    Given I am not authenticated
    And the request header "Authorization" is "<value>"
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200

    Examples:
      | case                    | value                   |
      | in upper case           | API-KEY {{A.apiKey}}    |
      | in mixed case           | Api-Key {{A.apiKey}}    |
      | followed by two spaces  | api-key  {{A.apiKey}}   |

  @put-users @s4.1 @mutates-A
  Scenario Outline: account A's api key with its session token in the <place> is taken as account A or refused 401
    Section 5 names each scheme alone. A request that carries two credentials of one account may be
    taken (its own record: 200) or refused as not authenticated correctly (401); never 403, which is
    for a caller who may not modify the resource.
    When I log in as account "A"
    Then the response status is 200
    And I remember the JSON at "token" as "token"
    Given I am account "A" using the api-key header
    And the request <where> "<name>" is "{{token}}"
    And the request body is the template "user"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200 or 401

    Examples:
      | place                | where           | name          |
      | session-token header | header          | session-token |
      | sessionToken query   | query parameter | sessionToken  |

  @put-users @s4.1 @mutates-A @mutates-B
  Scenario: account A's api key with account B's session token is refused 401 or answered as one account alone
    Which of two accounts' credentials counts is not in the spec: a server may refuse the pair (401)
    or take either credential, and answer as that account alone: account A's own record (200) or,
    as account B, another's (403, or 404).
    When I log in as account "B"
    Then the response status is 200
    And I remember the JSON at "token" as "token"
    Given I am account "A" using the api-key header
    And the request header "session-token" is "{{token}}"
    And the request body is the template "user"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response is one of:
      | status | shape |
      | 200    |       |
      | 401    |       |
      | 403    |       |
      | 404    |       |

  @reference @post-apps
  Scenario: two credentials of the same user are accepted
    When I log in as account "A"
    Then the response status is 200
    And I remember the JSON at "token" as "token"
    Given I am account "A" using the api-key header
    And the request header "session-token" is "{{token}}"
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200

  @reference @post-apps
  Scenario: credentials of two different users are answered 401
    When I log in as account "B"
    Then the response status is 200
    And I remember the JSON at "token" as "token"
    Given I am account "A" using the api-key header
    And the request header "session-token" is "{{token}}"
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 401

  @reference @post-apps
  Scenario: a valid api key with an unknown session token is answered 401
    Given I am account "A" using the api-key header
    And the request query parameter "sessionToken" is "{{gen:hex:64}}"
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 401

  @reference @s7.2 @put-users @mutates-A @mutates-B
  Scenario Outline: the checks run in the order 401, 404, 403, 400 (<case>)
    Given <auth>
    And the request body is the template "user"
    And the request body field "email" is "not-an-email"
    When I send "PUT" to "<path>"
    Then the response status is <status>

    Examples:
      | case                                   | auth                                        | path                | status |
      | unauthenticated and unknown id         | I am not authenticated                      | /users/999999999    | 401    |
      | unknown id and invalid body            | I am account "A" using the api-key header   | /users/999999999    | 404    |
      | another user's id and invalid body     | I am account "A" using the api-key header   | /users/{{B.userId}} | 403    |
      | own id and invalid body                | I am account "A" using the api-key header   | /users/{{A.userId}} | 400    |

  @s5 @s2.3 @post-apps
  Scenario Outline: account A asking for account B's new app <how> is shown nothing of it
    5: a caller may not view another account's resources. Whatever a server answers at a path
    the spec does not show (an extension, 403, 404), the answer carries nothing of the app, its
    write key least of all.

    Given the profile value "apps_per_marketapp" is "several"
    And I am account "B" using the api-key header
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200
    And I remember the JSON at "id" as "appId"
    And I remember the JSON at "writeKey" as "writeKey"
    Given I am account "A" using the api-key header
    When I send "GET" to "<path>"
    Then the response does not carry the text "{{writeKey}}"

    Examples:
      | how            | path                          |
      | by its id      | /apps/{{appId}}               |
      | by its client  | /apps?clientId={{B.clientId}} |

  @reference @s7.2 @get-extensions
  Scenario Outline: the read endpoint GET <path> of account <owner> answers <status> to account A
    Given I am account "A" using the session-token header
    When I send "GET" to "<path>"
    Then the response status is <status>

    Examples:
      | owner   | path                         | status |
      | A       | /users/{{A.userId}}          | 200    |
      | A       | /users/{{A.userId}}/clients  | 200    |
      | A       | /clients/{{A.clientId}}      | 200    |
      | A       | /clients/{{A.clientId}}/apps | 200    |
      | B       | /users/{{B.userId}}          | 403    |
      | B       | /users/{{B.userId}}/clients  | 403    |
      | B       | /clients/{{B.clientId}}      | 403    |
      | B       | /clients/{{B.clientId}}/apps | 403    |
      | nobody  | /users/999999999             | 404    |
      | nobody  | /clients/999999999           | 404    |
      | nobody  | /apps/999999999              | 404    |

  @reference @s7.2 @get-extensions
  Scenario Outline: the read endpoint GET <path> without credentials is answered 401
    Given I am not authenticated
    When I send "GET" to "<path>"
    Then the response status is 401

    Examples:
      | path                         |
      | /users/{{A.userId}}          |
      | /users/{{A.userId}}/clients  |
      | /clients/{{A.clientId}}      |
      | /clients/{{A.clientId}}/apps |
      | /apps/999999999              |

  @reference @s7.2 @get-extensions
  Scenario: another client's app is answered 403
    Given I am account "B" using the api-key header
    When I send "GET" to "/clients/{{B.clientId}}/apps"
    Then the response status is 200
    And I remember the JSON at "apps.0.id" as "appId"
    Given I am account "A" using the api-key header
    When I send "GET" to "/apps/{{appId}}"
    Then the response status is 403

  @s7.2 @s2.1 @put-users @mutates-B
  Scenario: the 403 for another account's user does not show that user's email address
    5: the caller may not view the resource, so the answer that refuses it shows nothing of it the
    request did not send: account A sent B's id, never B's email address (2.1).

    Given I am account "A" using the api-key header
    And the request body is the template "user"
    When I send "PUT" to "/users/{{B.userId}}"
    Then the response status is 403
    And the response does not carry the text "{{B.email}}"

  @s7.1 @s4.1 @s2.1 @put-users @mutates-A
  Scenario: an email address another account holds is refused without naming the user that holds it
    Two users with one email address could not both log in with their credentials (5), so account
    A may not take B's; but which user holds it is B's user's data (its id, 2.1), which A may not
    view (5): no message of the refusal names B's user id.

    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is "{{B.email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 4xx but not 401
    And the error messages do not carry the number "{{B.userId}}"
