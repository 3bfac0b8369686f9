Feature: rules with a second half
  A rule of the spec often says two things, and an answer that looks right shows only the first:
  POST /clients with an app creates both or neither; PUT /users/:userId with a client creates the
  client, and without one creates none; an app made from a name and a platform carries them;
  "creating an app that does not exist in a store is not supported" (1); and "the password is never
  returned" (2.1) holds for every answer, not only for the password key of the user. Where only a
  read endpoint can show the second half, the scenario reads through one of the mock's read
  extensions when the target has it and is skipped where it has none; it says so in its name.

  @s1 @s4.3 @s2.3 @post-clients @get-extensions
  Scenario: POST /clients with a valid app creates the app in the new client, as the read extension GET /clients/:clientId/apps shows where the target has it
    Given the profile value "clients_per_user" is "several"
    And the profile value "apps_per_marketapp" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "client-with-app"
    When I send "POST" to "/clients"
    Then the response status is 200
    And I remember the JSON at "id" as "clientId"
    When I send "GET" to "/clients/{{clientId}}/apps" if the target has that read extension
    Then the response status is 200
    And the JSON at "apps.#" is 1
    And the JSON at "apps.0.marketapp.hash" matches the pattern "(?i)^{{marketappHash}}$"

  @s4.3 @s7.1 @post-clients @get-extensions
  Scenario Outline: POST /clients with an app <case> creates no client, as the read extension GET /users/:userId/clients shows where the target has it
    4.3: the request either creates both or returns an error and creates neither, whatever refuses
    the app: its validation, or a marketplace app the target does not know (400, 403 or 404).
    Given the profile value "clients_per_user" is "several"
    And I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "clientName"
    And the request body is the template "client-with-app"
    And the request body field "name" is "{{clientName}}"
    And the request body field "app.marketapp.hash" is "<hash>"
    When I send "POST" to "/clients"
    Then the response status is 4xx but not 401
    When I send "GET" to "/users/{{A.userId}}/clients" if the target has that read extension
    Then the response status is 200
    And the JSON at "clients.#(name=="{{clientName}}")" is absent

    Examples:
      | case                                            | hash           |
      | whose hash is 39 hexadecimal characters         | {{gen:hex:39}} |
      | whose well-formed hash names no marketplace app | {{gen:hex:40}} |

  @s4.1 @put-users @get-extensions @mutates-A
  Scenario: PUT /users/:userId with a client creates the client, as the read extension GET /users/:userId/clients shows where the target has it
    Given the profile value "clients_per_user" is "several"
    And I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "clientName"
    And the request body is the template "user-with-client"
    And the request body field "email" is "{{A.email}}"
    And the request body field "client.name" is "{{clientName}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I send "GET" to "/users/{{A.userId}}/clients" if the target has that read extension
    Then the response status is 200
    And the JSON at "clients.#(name=="{{clientName}}")" matches the shape "client"

  @s4.1 @put-users @get-extensions @mutates-A
  Scenario: PUT /users/:userId without a client creates none, as the read extension GET /users/:userId/clients shows where the target has it
    Given I am account "A" using the api-key header
    When I send "GET" to "/users/{{A.userId}}/clients" if the target has that read extension
    Then the response status is 200
    And I remember the JSON at "clients.#" as "count"
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I send "GET" to "/users/{{A.userId}}/clients" if the target has that read extension
    Then the response status is 200
    And the JSON at "clients.#" is {{count}}

  @s4.2 @s2.3 @post-apps
  Scenario Outline: an app made from a name and the platform <n> of the profile carries that name and platform, where the target makes apps without a store
    Section 1 says that creating an app that does not exist in a store is not supported, while 4.2
    gives name and platform.id for a body without a hash: a target may refuse such a body (400 or
    404), but an app it makes from one carries the name and the platform sent.

    Given I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "name"
    And the request body is the template "app"
    And the request body field "marketapp.hash" is null
    And the request body field "name" is "{{name}}"
    And the request body field "platform.id" is {{platforms.<n>.id}}
    When I send "POST" to "/apps"
    Then the response is one of:
      | status | shape                                                                                                  |
      | 200    | {"name": "{{name}}", "platform": {"id": "{{platforms.<n>.id}}", "name": "{{platforms.<n>.name}}"}} |
      | 400    | errors                                                                                                 |
      | 404    |                                                                                                        |

    Examples:
      | n |
      | 1 |
      | 2 |

  @s1 @s4.2 @s8 @post-apps
  Scenario Outline: a well-formed hash of no marketplace app is refused <case>
    Section 1: "Creating an app that does not exist in a store is not supported through the API."
    A hash of 40 random hexadecimal characters names no app of any store; the spec does not say
    which status refuses it, but 4.2 names 400, 403 and 404, and never 200.

    Given I am account "A" using the api-key header
    And the request body is the template "app"
    And the request body field "marketapp.hash" is "<hash>"
    And the request body field "name" is <name>
    And the request body field "platform.id" is <platform>
    When I send "POST" to "/apps"
    Then the response is one of:
      | status | shape  |
      | 400    | errors |
      | 403    |        |
      | 404    |        |

    Examples:
      | case                              | hash           | name           | platform       |
      | alone                             | {{gen:hex:40}} | null           | null           |
      | even with a name and a platform   | {{gen:hex:40}} | "{{gen:name}}" | {{platformId}} |
      | in upper case, with a name        | {{gen:HEX:40}} | "{{gen:name}}" | {{platformId}} |

  @s2.1 @s2.4 @post-sessions
  Scenario: the session answer does not carry the password
    When I log in as account "A"
    Then the response status is 200
    And the response does not carry the password "{{A.password}}"

  @s2.1 @s4.1 @s8 @put-users @mutates-A
  Scenario: neither the answer to a new password nor the error of a short one carries the password
    Given I am account "A" using the api-key header
    And I remember "{{gen:password}}" as "newPassword"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{newPassword}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the response does not carry the password "{{newPassword}}"
    Given I remember "{{gen:password:5}}" as "shortPassword"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{shortPassword}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors include:
      | fieldName | error           |
      | password  | InvalidPassword |
    And the response does not carry the password "{{shortPassword}}"

  @s2.1 @s4.1 @put-users @mutates-A
  Scenario: the answer to a PUT /users/:userId with a client does not carry the password
    Where a user may hold only one client, the body is refused instead; the refusal does not carry
    it either.

    Given I am account "A" using the api-key header
    And the request body is the template "user-with-client"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{A.password}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response is one of:
      | status | shape  | when                     |
      | 200    | user   | clients_per_user=several |
      | 400    | errors | clients_per_user=one     |
      | 403    |        | clients_per_user=one     |
    And the response does not carry the password "{{A.password}}"

  @s2.1 @s2.2 @s4.4 @put-clients @mutates-A
  Scenario: the client answer does not carry the password of its user
    Given I am account "A" using the api-key header
    And the request body is the template "client"
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the response does not carry the password "{{A.password}}"

  @s2.1 @s2.3 @post-apps
  Scenario: the app answer does not carry the password of its user
    Given the profile value "apps_per_marketapp" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200
    And the response does not carry the password "{{A.password}}"

  @s1 @s4.2 @post-apps @get-extensions
  Scenario: an app made by POST /apps belongs to its creator's client, never another's, as the read extension GET /clients/:clientId/apps shows where the target has it
    An app belongs to a client of the user who made it (which one, where the user has several, the
    spec does not say): it is never among the apps of another user's client.
    Given the profile value "apps_per_marketapp" is "several"
    And I am account "A" using the api-key header
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200
    And I remember the JSON at "id" as "appId"
    Given I am account "B" using the api-key header
    When I send "GET" to "/clients/{{B.clientId}}/apps" if the target has that read extension
    Then the response status is 200
    And the JSON at "apps.#(id=={{appId}})" is absent
