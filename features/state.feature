Feature: what a server answered stays true afterwards
  Behaviour over time: an answer is checked against the later answers of the same server.
  created and createdDate never change; passwordLastChanged moves when the password changes and
  stays put on "password": null; every app and client created has its own id and every app its
  own writeKey; an update is stored, so the next login, and the next read where the target has a
  read extension, see it; a session token acts only as its own user; and a request answered 400,
  401 or 403 changes nothing. Every check runs inside the scenario, before the suite restores the
  account, so that the restore never hides a leak. Dates are compared as instants, each as
  precise as the server writes it (a date, a time to the second or finer, any offset), and a
  scenario that must tell two dates apart first waits for the server's clock to move on a second.

  @s2.1 @s2.2 @s4.1 @s4.4 @put-users @put-clients @mutates-A
  Scenario: created and createdDate never change, and passwordLastChanged moves with a new password and only with it
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And I remember the JSON at "created" as "created"
    And I remember the JSON at "passwordLastChanged" as "passwordLastChanged"
    Given the request body is the template "client"
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And I remember the JSON at "createdDate" as "createdDate"
    When I log in as account "A" after the server's clock has moved on a second
    Then I remember the JSON at "created" as "loggedIn"
    Given the request body is the template "client"
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the JSON at "createdDate" names the same instant as "{{createdDate}}"
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is null
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "created" names the same instant as "{{created}}"
    And the JSON at "passwordLastChanged" names the same instant as "{{passwordLastChanged}}"
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{gen:password}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "created" names the same instant as "{{created}}"
    And the JSON at "passwordLastChanged" names an instant no earlier than "{{loggedIn}}"

  @s2.2 @s4.3 @post-clients
  Scenario: a new client is dated when it is created
    Given the profile value "clients_per_user" is "several"
    When I log in as account "A"
    Then I remember the JSON at "created" as "loggedIn"
    Given I am account "A" using the api-key header
    And the request body is the template "client"
    When I send "POST" to "/clients"
    Then the response status is 200
    And the JSON at "createdDate" names an instant no earlier than "{{loggedIn}}"

  @s4.2 @s7.2 @post-apps @get-extensions
  Scenario: a POST /apps refused for an unknown plan creates no app, as the read extension GET /clients/:clientId/apps shows where the target has it
    A refused request is refused (7.2: the error is the answer to it): an app stored before its plan
    was looked up stays, an app the answer says was not made. An app by name, so that the one it
    would have made is known by its name; a target that refuses apps by name makes none either.
    Given I am account "A" using the api-key header
    And I remember "contract-{{gen:hex:12}}" as "appName"
    And the request body is the template "app-by-name"
    And the request body field "name" is "{{appName}}"
    And the request body field "nextplan.id" is 999999999
    When I send "POST" to "/apps"
    Then the response status is 4xx
    When I send "GET" to "/clients/{{A.clientId}}/apps" if the target has that read extension
    Then the response status is 200
    And the JSON at "apps.#(name=="{{appName}}")" is absent

  @s2.3 @s4.2 @post-apps
  Scenario: a new app is dated when it is created
    Given the profile value "apps_per_marketapp" is "several"
    When I log in as account "A"
    Then I remember the JSON at "created" as "loggedIn"
    Given I am account "A" using the api-key header
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200
    And the JSON at "created" names an instant no earlier than "{{loggedIn}}"

  @s2.3 @s4.2 @post-apps
  Scenario: two apps created one after the other have their own ids and their own writeKeys
    Given the profile value "apps_per_marketapp" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200
    And I remember the JSON at "id" as "firstId"
    And I remember the JSON at "writeKey" as "firstWriteKey"
    Given the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200
    And the JSON at "id" differs from {{firstId}}
    And the JSON at "writeKey" differs from {{firstWriteKey}}

  @s2.2 @s4.3 @post-clients
  Scenario: two clients created one after the other have their own ids
    Given the profile value "clients_per_user" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "client"
    When I send "POST" to "/clients"
    Then the response status is 200
    And I remember the JSON at "id" as "firstId"
    Given the request body is the template "client"
    When I send "POST" to "/clients"
    Then the response status is 200
    And the JSON at "id" differs from {{firstId}}

  @s4.1 @s2.1 @put-users @get-extensions @mutates-A
  Scenario: a user's update is stored, as a later read shows where the target has the read extension GET /users/:userId
    Given I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "firstName"
    And I remember "{{gen:name}}" as "lastName"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "firstName" is "{{firstName}}"
    And the request body field "lastName" is "{{lastName}}"
    And the request body field "subscribeWelcome" is false
    And the request body field "subscribeBlog" is true
    And the request body field "subscribeHowto" is false
    And the request body field "subscribeOnboarding" is true
    And the request body field "timezone" is "Asia/Tokyo"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I send "GET" to "/users/{{A.userId}}" if the target has that read extension
    Then the response status is 200
    And the response matches:
      """json
      {
        "id": "{{A.userId}}",
        "email": "{{A.email}}",
        "firstName": "{{firstName}}",
        "lastName": "{{lastName}}",
        "subscribeWelcome": false,
        "subscribeBlog": true,
        "subscribeHowto": false,
        "subscribeOnboarding": true,
        "timezone": "Asia/Tokyo"
      }
      """

  @s4.4 @s2.2 @put-clients @get-extensions @mutates-A
  Scenario: a client's update is stored, as a later read shows where the target has the read extension GET /clients/:clientId
    Given I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "name"
    And I remember "{{gen:name}}" as "addressLine1"
    And the request body is the template "client"
    And the request body field "name" is "{{name}}"
    And the request body field "addressLine1" is "{{addressLine1}}"
    And the request body field "currency.id" is {{currencies.2.id}}
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    When I send "GET" to "/clients/{{A.clientId}}" if the target has that read extension
    Then the response status is 200
    And the response matches:
      """json
      {"id": "{{A.clientId}}", "name": "{{name}}", "addressLine1": "{{addressLine1}}", "currency": {"id": "{{currencies.2.id}}"}}
      """

  @s5 @s4.1 @put-users @post-sessions @mutates-A @mutates-B
  Scenario: a session token acts as its own user, whoever logged in after it
    When I log in as account "A"
    Then the response status is 200
    And I remember the JSON at "token" as "tokenOfA"
    When I log in as account "B"
    Then the response status is 200
    Given I am not authenticated
    And the request header "session-token" is "{{tokenOfA}}"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "id" is {{A.userId}}
    Given the request query parameter "sessionToken" is "{{tokenOfA}}"
    And the request body is the template "user"
    And the request body field "email" is "{{B.email}}"
    When I send "PUT" to "/users/{{B.userId}}"
    Then the response status is 403

  @s4.1 @s7.3 @put-users @post-sessions @mutates-A
  Scenario Outline: a PUT /users/:userId refused for <bad> stores nothing, not even its valid new email and password
    A refused request changes nothing, all of it: a server that applies the user's own fields and
    then refuses the client the body carries has changed the user. A target that allows one
    client per user may refuse that client with 403: nothing changes either way.
    Given I am account "A" using the api-key header
    And I remember "{{gen:email}}" as "newEmail"
    And I remember "{{gen:password}}" as "newPassword"
    And the request body is the template "<template>"
    And the request body field "email" is "{{newEmail}}"
    And the request body field "password" is "{{newPassword}}"
    And the request body field "<bad>" is <invalid>
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 4xx but not 401
    When I log in with email "{{newEmail}}" and password "{{newPassword}}"
    Then the response status is 401 or 400
    When I log in with email "{{A.email}}" and password "{{newPassword}}"
    Then the response status is 401 or 400
    When I log in with email "{{A.email}}" and password "{{A.password}}"
    Then the response status is 200

    Examples:
      | bad          | template         | invalid          |
      | firstName    | user             | ""               |
      | client.name  | user-with-client | ""               |
      | client.terms | user-with-client | "I do not agree" |

  @s4.1 @s7.3 @put-users @get-extensions @mutates-A
  Scenario Outline: a PUT /users/:userId answered 400 for <bad> stores none of its valid fields, not even <field>, as the read extension GET /users/:userId shows where the target has it
    A refused request changes nothing, all of it: a server that stores each valid field as it checks
    it, and then answers 400 for another, has changed the user.
    Given I am account "A" using the api-key header
    When I send "GET" to "/users/{{A.userId}}" if the target has that read extension
    Then the response status is 200
    And I remember the JSON at "<field>" as "before"
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "<field>" is <new>
    And the request body field "<bad>" is <invalid>
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 400
    When I send "GET" to "/users/{{A.userId}}" if the target has that read extension
    Then the response status is 200
    And the JSON at "<field>" is "{{before}}"

    Examples:
      | field            | new                     | bad       | invalid        |
      | firstName        | "{{gen:name}}"          | email     | "not-an-email" |
      | lastName         | "{{gen:name}}"          | firstName | ""             |
      | timezone         | "Pacific/Auckland"      | lastName  | ""             |
      | subscribeBlog    | true                    | email     | 5              |
      | phoneNumber      | "2025550199"            | firstName | ""             |

  @s4.4 @s7.3 @put-clients @get-extensions @mutates-A
  Scenario Outline: a PUT /clients/:clientId refused for its <bad> stores none of its valid fields, not even <field>, as the read extension GET /clients/:clientId shows where the target has it
    A body refused as a whole changes nothing (7.2: the refusal is the answer to the request). An
    unknown currency names no entry: its refusal is a client error, its status one the spec does
    not name (7.3: the currency's codes are not shown).
    Given I am account "A" using the api-key header
    When I send "GET" to "/clients/{{A.clientId}}" if the target has that read extension
    Then the response status is 200
    And I remember the JSON at "<field>" as "before"
    Given the request body is the template "client"
    And the request body field "<field>" is <new>
    And the request body field "<bad>" is <invalid>
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is <status>
    When I send "GET" to "/clients/{{A.clientId}}" if the target has that read extension
    Then the response status is 200
    And the JSON at "<field>" is "{{before}}"

    Examples:
      | field        | new                        | bad         | invalid          | status |
      | addressLine1 | "{{gen:name}} Street"      | name        | ""               | 400    |
      | addressCity  | "{{gen:name}}"             | name        | ""               | 400    |
      | currency.id  | {{currencies.2.id}}        | name        | ""               | 400    |
      | name         | "contract-{{gen:name}}"    | terms       | "I do not agree" | 400    |
      | addressCity  | "{{gen:name}}"             | terms       | "no"             | 400    |
      | name         | "contract-{{gen:name}}"    | app         | {"marketapp": {"hash": "{{marketappHash}}"}, "name": null, "platform": {"id": null}, "nextplan": {"id": 1}} | 400 |
      | addressLine1 | "{{gen:name}} Street"      | app         | "app"            | 400    |
      | name         | "contract-{{gen:name}}"    | currency.id | 999999999        | 4xx    |
      | addressLine1 | "{{gen:name}} Street"      | currency.id | 999999999        | 4xx    |

  @s5 @s7.2 @put-users @post-sessions
  Scenario Outline: a PUT /users/:userId answered <status> (<case>) changes nothing: its new password does not log in
    Given <caller>
    And I remember "{{gen:password}}" as "newPassword"
    And the request body is the template "user"
    And the request body field "email" is "{{<owner>.email}}"
    And the request body field "password" is "{{newPassword}}"
    When I send "PUT" to "/users/{{<owner>.userId}}"
    Then the response status is <status>
    When I log in with email "{{<owner>.email}}" and password "{{newPassword}}"
    Then the response status is 401 or 400
    When I log in with email "{{<owner>.email}}" and password "{{<owner>.password}}"
    Then the response status is 200

    @mutates-A
    Examples: not authenticated
      | status | case                | caller                 | owner |
      | 401    | without credentials | I am not authenticated | A     |

    @mutates-B
    Examples: not permitted
      | status | case                               | caller                                    | owner |
      | 403    | account A changing account B's user | I am account "A" using the api-key header | B     |

  @s5 @s7.2 @s4.4 @put-clients @get-extensions @mutates-B
  Scenario: a PUT /clients/:clientId answered 403 changes nothing, as the read extension GET /clients/:clientId shows where the target has it
    Given I am account "B" using the api-key header
    When I send "GET" to "/clients/{{B.clientId}}" if the target has that read extension
    Then the response status is 200
    And I remember the JSON at "name" as "name"
    Given I am account "A" using the api-key header
    And the request body is the template "client"
    When I send "PUT" to "/clients/{{B.clientId}}"
    Then the response status is 403
    Given I am account "B" using the api-key header
    When I send "GET" to "/clients/{{B.clientId}}" if the target has that read extension
    Then the response status is 200
    And the JSON at "name" is {{name}}

  @s2.1 @s2.2 @s2.3 @s2.4 @s1
  Scenario Outline: the <field> of <what> is the date of now, by the runner's clock
    Dates are of events: a login, a password change, a client or an app made a moment ago is dated
    a moment ago. A server whose every date is hours off (local time labelled Z) or of 1970 agrees
    with itself; the runner's clock, within the profile's clock_skew, does not.
    Given the profile value "<key>" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "<body>"
    And the request body field "<set>" is <value>
    When I send "<method>" to "<path>"
    Then the response status is 200
    And the JSON at "<field>" names an instant within the clock skew of now

    @post-clients @s4.3
    Examples: POST /clients
      | what      | key                | body   | set  | value         | method | path     | field       |
      | a client  | clients_per_user   | client | name | "{{gen:name}}" | POST   | /clients | createdDate |

    @post-apps @s4.2
    Examples: POST /apps
      | what      | key                | body   | set      | value      | method | path  | field   |
      | an app    | apps_per_marketapp | app    | nextplan | {"id": "{{planId}}"} | POST | /apps | created |

  @s1 @s2.1 @s2.4 @s4.1 @put-users @post-sessions @mutates-A
  Scenario: a login and a password change are dated now, by the runner's clock
    When I log in as account "A"
    Then the response status is 200
    And the JSON at "created" names an instant within the clock skew of now
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "password" is "{{gen:password}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "passwordLastChanged" names an instant within the clock skew of now
