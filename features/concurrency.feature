Feature: requests sent at once are answered as some order of them would answer them
  A server answers requests that overlap in time as it would answer them one after the other, in
  some order: nothing in the spec lets two creates share an id, an update be answered with
  another request's record, or two users hold one email. These scenarios send two requests at once
  (the answers kept by name) and assert what every order of them gives. The explorer checks the
  same of its own batches against the reference (README, "Concurrent histories").

  @s2.2 @s4.3 @post-clients
  Scenario: two clients created at once have their own ids
    Given the profile value "clients_per_user" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "client"
    And I prepare "POST" to "/clients" as "first"
    And the request body is the template "client"
    And I prepare "POST" to "/clients" as "second"
    When I send the prepared requests at once
    Then I look at the answer "first"
    And the response status is 200
    And I remember the JSON at "id" as "firstId"
    Then I look at the answer "second"
    And the response status is 200
    And the JSON at "id" differs from {{firstId}}

  @s2.3 @s4.2 @post-apps
  Scenario: two apps created at once have their own ids and their own writeKeys
    Given the profile value "apps_per_marketapp" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "app"
    And I prepare "POST" to "/apps" as "first"
    And the request body is the template "app"
    And I prepare "POST" to "/apps" as "second"
    When I send the prepared requests at once
    Then I look at the answer "first"
    And the response status is 200
    And I remember the JSON at "id" as "firstId"
    And I remember the JSON at "writeKey" as "firstWriteKey"
    Then I look at the answer "second"
    And the response status is 200
    And the JSON at "id" differs from {{firstId}}
    And the JSON at "writeKey" differs from {{firstWriteKey}}

  @s2.1 @s4.1 @put-users @mutates-A
  Scenario: two updates of one user at once are each answered with its own record
    Given I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "one"
    And I remember "{{gen:name}}" as "two"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "firstName" is "{{one}}"
    And I prepare "PUT" to "/users/{{A.userId}}" as "first"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "firstName" is "{{two}}"
    And I prepare "PUT" to "/users/{{A.userId}}" as "second"
    When I send the prepared requests at once
    Then I look at the answer "first"
    And the response status is 200
    And the JSON at "firstName" is "{{one}}"
    Then I look at the answer "second"
    And the response status is 200
    And the JSON at "firstName" is "{{two}}"

  @s4.1 @s7.3 @put-users @mutates-A @mutates-B
  Scenario: of two users claiming one new email at once, exactly one has it
    5: a session is obtained "with the credentials of the account to use", an email and a
    password: two users with one email could not both log in, so whichever claim comes first in
    the order, the other finds the address taken.

    Given I remember "{{gen:email}}" as "claimed"
    And I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is "{{claimed}}"
    And I prepare "PUT" to "/users/{{A.userId}}" as "A's claim"
    And I am account "B" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is "{{claimed}}"
    And I prepare "PUT" to "/users/{{B.userId}}" as "B's claim"
    When I send the prepared requests at once
    Then exactly one of the answers "A's claim" and "B's claim" has the status 200

  @s2.4 @s5 @post-sessions
  Scenario: two accounts logging in at once get two sessions, each its own token
    2.4: a session has its id and its token, and 5 makes the token the session's credential: two
    logins in any order open two sessions, and one token for both would act as both accounts. The
    logins are prepared as JSON, the body of section 4, on a target whose login takes it.

    Given the profile value "login_encoding" is "json"
    And I am not authenticated
    And the request body is:
      """json
      {"email": "{{A.email}}", "password": "{{A.password}}"}
      """
    And I prepare "POST" to "/sessions" as "A's login"
    And the request body is:
      """json
      {"email": "{{B.email}}", "password": "{{B.password}}"}
      """
    And I prepare "POST" to "/sessions" as "B's login"
    When I send the prepared requests at once
    Then I look at the answer "A's login"
    And the response status is 200
    And I remember the JSON at "id" as "firstId"
    And I remember the JSON at "token" as "firstToken"
    Then I look at the answer "B's login"
    And the response status is 200
    And the JSON at "id" differs from {{firstId}}
    And the JSON at "token" differs from {{firstToken}}

  @s4.1 @put-users @mutates-A
  Scenario: a new password sent beside an update that keeps the password logs in
    4.1: "null keeps the existing password", so of a PUT that sets a new password and one with
    password null sent at once, in either order the new password is the one kept: it logs in, and
    the old one no longer does.

    Given I am account "A" using the api-key header
    And I remember "{{gen:password}}" as "newPassword"
    And I remember "{{gen:name}}" as "name"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{newPassword}}"
    And I prepare "PUT" to "/users/{{A.userId}}" as "the new password"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is null
    And the request body field "firstName" is "{{name}}"
    And I prepare "PUT" to "/users/{{A.userId}}" as "the password kept"
    When I send the prepared requests at once
    Then I look at the answer "the new password"
    And the response status is 200
    Then I look at the answer "the password kept"
    And the response status is 200
    When I log in with email "{{A.email}}" and password "{{newPassword}}"
    Then the response status is 200
    And the JSON at "userId" is {{A.userId}}
    When I log in with email "{{A.email}}" and password "{{A.password}}"
    Then the response status is 401 or 400

  @s2.3 @s4.2 @post-apps
  Scenario Outline: four apps created at once by two accounts have their own ids (attempt <attempt>)
    Each account's app is its own (4.2 creates it on the caller's client): one id for two apps would
    name both, so that one of them could not be told from the other by its id (2.3). Sent five
    times, two apps of each account each time: a server that hands out an id read before its write
    shows it only when the requests overlap.

    Given the profile value "apps_per_marketapp" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "app"
    And I prepare "POST" to "/apps" as "A's first app"
    And the request body is the template "app"
    And I prepare "POST" to "/apps" as "A's second app"
    And I am account "B" using the api-key header
    And the request body is the template "app"
    And I prepare "POST" to "/apps" as "B's first app"
    And the request body is the template "app"
    And I prepare "POST" to "/apps" as "B's second app"
    When I send the prepared requests at once
    Then I look at the answer "A's first app"
    And the response status is 200
    And I remember the JSON at "id" as "firstOfA"
    Then I look at the answer "A's second app"
    And the response status is 200
    And the JSON at "id" differs from {{firstOfA}}
    And I remember the JSON at "id" as "secondOfA"
    Then I look at the answer "B's first app"
    And the response status is 200
    And the JSON at "id" differs from {{firstOfA}}
    And the JSON at "id" differs from {{secondOfA}}
    And I remember the JSON at "id" as "firstOfB"
    Then I look at the answer "B's second app"
    And the response status is 200
    And the JSON at "id" differs from {{firstOfA}}
    And the JSON at "id" differs from {{secondOfA}}
    And the JSON at "id" differs from {{firstOfB}}

    Examples:
      | attempt |
      | 1       |
      | 2       |
      | 3       |
      | 4       |
      | 5       |

  @s4.1 @s5 @put-users @post-sessions @mutates-A
  Scenario Outline: of updates of one user at once, one with a new password and the others with a null one, the new password holds (attempt <attempt>)
    4.1: a null password keeps the existing password, so in every order of these updates the new
    password is the user's afterwards, and it logs in (5). The scenario above sends one of each,
    once; a server that writes back a copy of the user it read before the new password was stored
    loses it only when the requests overlap and a null one is written last, about one run in two
    there, so this one sends five null ones beside the new password, twenty times: the ledger
    lineage's window is 3 ms, and on a loaded machine five tries missed it in one run of two.

    Given I am account "A" using the api-key header
    And I remember "{{gen:password}}" as "newPassword"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is null
    And I prepare "PUT" to "/users/{{A.userId}}" as "null first"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{newPassword}}"
    And I prepare "PUT" to "/users/{{A.userId}}" as "new password"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is null
    And I prepare "PUT" to "/users/{{A.userId}}" as "null second"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is null
    And I prepare "PUT" to "/users/{{A.userId}}" as "null third"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is null
    And I prepare "PUT" to "/users/{{A.userId}}" as "null fourth"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is null
    And I prepare "PUT" to "/users/{{A.userId}}" as "null fifth"
    When I send the prepared requests at once
    Then I look at the answer "new password"
    And the response status is 200
    Then I look at the answer "null first"
    And the response status is 200
    Then I look at the answer "null second"
    And the response status is 200
    Then I look at the answer "null third"
    And the response status is 200
    Then I look at the answer "null fourth"
    And the response status is 200
    Then I look at the answer "null fifth"
    And the response status is 200
    When I log in with email "{{A.email}}" and password "{{newPassword}}"
    Then the response status is 200
    And the JSON at "userId" is {{A.userId}}

    Examples:
      | attempt |
      | 1       |
      | 2       |
      | 3       |
      | 4       |
      | 5       |
      | 6       |
      | 7       |
      | 8       |
      | 9       |
      | 10      |
      | 11      |
      | 12      |
      | 13      |
      | 14      |
      | 15      |
      | 16      |
      | 17      |
      | 18      |
      | 19      |
      | 20      |
