Feature: POST /clients creates a client, PUT /clients/:clientId updates one
  Sections 2.2, 4.3, 4.4 and 7.3. Every request carries every field of the body table of 4.3
  (the template "client": a fresh contract- name, the profile's address and vat, currency
  {{currencyId}}, terms "I agree"); 7.3 says that address codes exist but does not show them, so
  the address is one the target accepts. addressLine2 and vat are optional in 2.2: an answer may
  leave them out, and when it has them they are the values sent. PUT /clients scenarios update
  client A and are tagged @mutates-A so that no other scenario runs on account A meanwhile.
  POST /clients runs as account A, which has a client: the spec never says whether a user may
  hold several, so those scenarios hold as the profile's clients_per_user says.

  Background:
    Given I am account "A" using the api-key header

  @s2.2 @s4.3 @s1 @s2 @s4 @post-clients
  Scenario: POST /clients answers the client object with the values sent
    Given the profile value "clients_per_user" is "several"
    And I remember "{{gen:name}}" as "name"
    And the request body is the template "client"
    And the request body field "name" is "{{name}}"
    When I send "POST" to "/clients"
    Then the response status is 200
    And the response is JSON
    And the response matches the shape "client"
    And the response matches:
      """json
      {
        "name": "{{name}}",
        "addressLine1": "{{addressLine1}}",
        "addressLine2": {"#optional": "{{addressLine2}}"},
        "addressCity": "{{addressCity}}",
        "addressPostcode": "{{addressPostcode}}",
        "addressCountry": "{{addressCountry}}",
        "vat": {"#optional": "{{vat}}"},
        "currency": {"id": "{{currencyId}}", "code": "#regex [A-Za-z]{3}"}
      }
      """

  @s2.2 @s4.3 @s2 @post-clients
  Scenario: POST /clients without the optional addressLine2 and vat
    Given the profile value "clients_per_user" is "several"
    And I remember "{{gen:name}}" as "name"
    And the request body is the template "client"
    And the request body field "name" is "{{name}}"
    And the request body field "addressLine2" is absent
    And the request body field "vat" is absent
    When I send "POST" to "/clients"
    Then the response status is 200
    And the response matches the shape "client"
    And the JSON at "name" is "{{name}}"

  @s2.2 @s4.3 @s4.2 @post-clients
  Scenario: POST /clients with a valid app creates the client
    Given the profile value "clients_per_user" is "several"
    And the profile value "apps_per_marketapp" is "several"
    And I remember "{{gen:name}}" as "name"
    And the request body is the template "client-with-app"
    And the request body field "name" is "{{name}}"
    When I send "POST" to "/clients"
    Then the response status is 200
    And the response matches the shape "client"
    And the JSON at "name" is "{{name}}"

  @s4.3 @s8 @post-clients
  Scenario Outline: POST /clients with a valid client and an app whose hash is <case> is answered 400
    Given the profile value "clients_per_user" is "several"
    And the request body is the template "client-with-app"
    And the request body field "app.marketapp.hash" is "<hash>"
    When I send "POST" to "/clients"
    Then the response status is 400
    And the response matches the shape "errors"

    Examples:
      | case                                   | hash                |
      | 39 hexadecimal characters              | {{gen:hex:39}}      |
      | 41 hexadecimal characters              | {{gen:hex:41}}      |
      | 40 characters with a non-hexadecimal one | {{gen:hex:39}}g   |

  @s2.2 @s4.4 @s1 @s4 @put-clients @mutates-A
  Scenario: PUT /clients/:clientId answers the client with the new values
    Given I remember "{{gen:name}}" as "name"
    And the request body is the template "client"
    And the request body field "name" is "{{name}}"
    And the request body field "addressLine1" is "2 Contract Road"
    And the request body field "addressLine2" is "Unit 5"
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the response is JSON
    And the response matches the shape "client"
    And the response matches:
      """json
      {
        "id": "{{A.clientId}}",
        "name": "{{name}}",
        "addressLine1": "2 Contract Road",
        "addressLine2": {"#optional": "Unit 5"},
        "addressCity": "{{addressCity}}",
        "addressPostcode": "{{addressPostcode}}",
        "addressCountry": "{{addressCountry}}",
        "vat": {"#optional": "{{vat}}"},
        "currency": {"id": "{{currencyId}}"}
      }
      """

  @s4.3 @s4.4 @s5 @post-clients @put-clients
  Scenario: a client the caller made is the caller's to update
    A user is a member of the client it creates (4.3), so it may modify it (5): a permission
    check that holds only for the client the account began with refuses it.
    Given the profile value "clients_per_user" is "several"
    And the request body is the template "client"
    When I send "POST" to "/clients"
    Then the response status is 200
    And I remember the JSON at "id" as "madeId"
    Given I am account "A" using the api-key header
    And I remember "{{gen:name}}" as "name"
    And the request body is the template "client"
    And the request body field "name" is "{{name}}"
    When I send "PUT" to "/clients/{{madeId}}"
    Then the response status is 200
    And the JSON at "id" is {{madeId}}
    And the JSON at "name" is "{{name}}"

  @s4.4 @put-clients @mutates-A
  Scenario: PUT /clients/:clientId with an app is answered 400
    Given the request body is the template "client-with-app"
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 400
    And the response matches the shape "errors"

  @s4.4 @s1 @put-clients @mutates-A
  Scenario: PUT /clients/:clientId with an app whose member name is written with an escape is answered 400
    RFC 8259 7 and 8.3: "\u0061pp" is the member name app once the JSON is parsed, so the body
    gives the app property, which 4.4 says must not be given; a search of the raw text for "app"
    does not see it.
    Given the raw request body is:
      """
      {"name": "{{gen:name}}", "addressLine1": "{{addressLine1}}", "addressCity": "{{addressCity}}", "addressPostcode": "{{addressPostcode}}", "addressCountry": "{{addressCountry}}", "currency": {"id": {{currencyId}}}, "terms": "I agree", "\u0061pp": {"name": "contract-app"}}
      """
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 400
    And the response matches the shape "errors"

  @s7.3 @s4.3 @post-clients
  Scenario Outline: POST /clients with <case> is answered InvalidName
    Given the profile value "clients_per_user" is "several"
    And the request body is the template "client"
    And the request body field "name" <change>
    When I send "POST" to "/clients"
    Then the errors include:
      | fieldName | error       |
      | name      | InvalidName |

    Examples:
      | case          | change    |
      | an empty name | is ""     |
      | no name       | is absent |
      | a null name   | is null   |

  @s7.3 @s4.4 @put-clients @mutates-A
  Scenario Outline: PUT /clients/:clientId with <case> is answered InvalidName
    Given the request body is the template "client"
    And the request body field "name" <change>
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the errors include:
      | fieldName | error       |
      | name      | InvalidName |

    Examples:
      | case          | change    |
      | an empty name | is ""     |
      | no name       | is absent |
      | a null name   | is null   |

  @s4.3 @post-clients
  Scenario Outline: terms <case> is answered 400
    Given the profile value "clients_per_user" is "several"
    And the request body is the template "client"
    And the request body field "terms" <change>
    When I send "POST" to "/clients"
    Then the errors name the field "terms"

    Examples:
      | case                       | change            |
      | in lower case              | is "i agree"      |
      | in upper case              | is "I AGREE"      |
      | with a full stop           | is "I agree."     |
      | with surrounding spaces    | is " I agree "    |
      | that is empty              | is ""             |
      | that is absent             | is absent         |
      | that is true               | is true           |
      | that is another word       | is "yes"          |

  @reference @s4.3 @s4.4 @s7.1
  Scenario Outline: <method> <path> with terms <case> is answered InvalidTerms
    Given the request body is the template "client"
    And the request body field "terms" <change>
    When I send "<method>" to "<path>"
    Then the errors are exactly:
      | fieldName | error        |
      | terms     | InvalidTerms |

    @post-clients
    Examples: POST /clients
      | method | path     | case           | change         |
      | POST   | /clients | in lower case  | is "i agree"   |
      | POST   | /clients | that is absent | is absent      |
      | POST   | /clients | that is true   | is true        |

    @put-clients @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | case           | change         |
      | PUT    | /clients/{{A.clientId}} | in lower case  | is "i agree"   |
      | PUT    | /clients/{{A.clientId}} | that is absent | is absent      |

  @reference @s4.3 @s4.4 @s7.1
  Scenario Outline: <method> <path> with <field> <case> is answered exactly <code>
    Given the request body is the template "client"
    And the request body field "<field>" <change>
    When I send "<method>" to "<path>"
    Then the errors are exactly:
      | fieldName | error  |
      | <errorField> | <code> |

    @post-clients
    Examples: POST /clients
      | method | path     | field           | case            | change            | errorField      | code                   |
      | POST   | /clients | name            | that is empty   | is ""             | name            | InvalidName            |
      | POST   | /clients | name            | that is null    | is null           | name            | InvalidName            |
      | POST   | /clients | addressLine1    | that is absent  | is absent         | addressLine1    | InvalidAddressLine1    |
      | POST   | /clients | addressCity     | that is absent  | is absent         | addressCity     | InvalidAddressCity     |
      | POST   | /clients | addressPostcode | that is absent  | is absent         | addressPostcode | InvalidAddressPostcode |
      | POST   | /clients | addressCountry  | that is absent  | is absent         | addressCountry  | InvalidAddressCountry  |
      | POST   | /clients | addressLine2    | that is a number | is 5             | addressLine2    | InvalidAddressLine2    |
      | POST   | /clients | currency.id     | that is unknown | is 999999         | currency.id     | InvalidCurrencyId      |
      | POST   | /clients | currency        | that is absent  | is absent         | currency.id     | InvalidCurrencyId      |
      | POST   | /clients | app             | that is not an object | is "app"    | app             | InvalidApp             |
      | POST   | /clients | app             | without hash or name | is {"marketapp": {"hash": null}, "name": null, "platform": {"id": 1}, "nextplan": {"id": 1}} | app.name | InvalidName |
      | POST   | /clients | app             | with an unknown plan | is {"marketapp": {"hash": "{{marketappHash}}"}, "name": null, "platform": {"id": null}, "nextplan": {"id": 999999}} | app.nextplan.id | InvalidPlanId |

    @put-clients @mutates-A
    Examples: PUT /clients/:clientId
      | method | path                    | field        | case            | change    | errorField   | code                |
      | PUT    | /clients/{{A.clientId}} | name         | that is empty   | is ""     | name         | InvalidName         |
      | PUT    | /clients/{{A.clientId}} | addressLine1 | that is absent  | is absent | addressLine1 | InvalidAddressLine1 |
      | PUT    | /clients/{{A.clientId}} | currency.id  | that is unknown | is 999999 | currency.id  | InvalidCurrencyId   |
      | PUT    | /clients/{{A.clientId}} | app          | that is given   | is {"marketapp": {"hash": "{{marketappHash}}"}, "name": null, "platform": {"id": null}, "nextplan": {"id": 1}} | app | InvalidApp |

  @reference @s4.3 @s2.2 @post-clients
  Scenario Outline: POST /clients with addressLine2 and vat <case> leaves them out of the answer
    Given the request body is the template "client"
    And the request body field "addressLine2" <change>
    And the request body field "vat" <change>
    When I send "POST" to "/clients"
    Then the response status is 200
    And the JSON at "addressLine2" is absent
    And the JSON at "vat" is absent

    Examples:
      | case   | change    |
      | null   | is null   |
      | absent | is absent |

  @reference @s4.3 @s2.2 @post-clients
  Scenario: POST /clients answers addressLine2 and vat as sent
    Given the request body is the template "client"
    And the request body field "addressLine2" is "Unit 7"
    And the request body field "vat" is "GB555555555"
    When I send "POST" to "/clients"
    Then the response status is 200
    And the JSON at "addressLine2" is "Unit 7"
    And the JSON at "vat" is "GB555555555"

  @reference @s4.4 @s2.2 @put-clients @mutates-A
  Scenario: PUT /clients/:clientId takes any address text
    Given the request body is the template "client"
    And the request body field "addressCity" is "Leeds"
    And the request body field "addressPostcode" is "LS1 1AA"
    And the request body field "addressCountry" is "England"
    And the request body field "vat" is "GB987654321"
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the response matches:
      """json
      {"addressCity": "Leeds", "addressPostcode": "LS1 1AA", "addressCountry": "England", "vat": "GB987654321"}
      """

  @reference @s4.3 @s2.2 @post-clients
  Scenario: POST /clients answers an upper-case currency code
    Given the request body is the template "client"
    When I send "POST" to "/clients"
    Then the response status is 200
    And the JSON at "currency.code" matches the pattern "^[A-Z]{3}$"

  @reference @s4.3 @s7.1 @post-clients @get-extensions
  Scenario: POST /clients with an invalid app creates neither the client nor the app
    Given I remember "{{gen:name}}" as "clientName"
    And the request body is the template "client-with-app"
    And the request body field "name" is "{{clientName}}"
    And the request body field "app.marketapp.hash" is "{{gen:hex:39}}"
    When I send "POST" to "/clients"
    Then the errors are exactly:
      | fieldName          | error                |
      | app.marketapp.hash | InvalidMarketappHash |
    When I send "GET" to "/users/{{A.userId}}/clients"
    Then the response status is 200
    And the JSON at "clients.#(name=="{{clientName}}")" is absent

  @reference @s4.3 @post-clients @get-extensions
  Scenario: POST /clients with an invalid client and a valid app creates nothing
    Given I remember "{{gen:name}}" as "clientName"
    And the request body is the template "client-with-app"
    And the request body field "name" is "{{clientName}}"
    And the request body field "terms" is "no"
    When I send "POST" to "/clients"
    Then the errors are exactly:
      | fieldName | error        |
      | terms     | InvalidTerms |
    When I send "GET" to "/users/{{A.userId}}/clients"
    Then the response status is 200
    And the JSON at "clients.#(name=="{{clientName}}")" is absent

  @reference @s4.3 @s2.3 @post-clients @get-extensions
  Scenario: POST /clients with a valid app creates the app under the new client
    Given I remember "{{gen:name}}" as "clientName"
    And the request body is the template "client-with-app"
    And the request body field "name" is "{{clientName}}"
    When I send "POST" to "/clients"
    Then the response status is 200
    And I remember the JSON at "id" as "clientId"
    When I send "GET" to "/clients/{{clientId}}/apps"
    Then the response status is 200
    And the JSON at "apps.#" is 1
    And the JSON at "apps.0" matches the shape "app"
    And the JSON at "apps.0.marketapp.hash" is "{{marketappHash}}"
    When I send "GET" to "/users/{{A.userId}}/clients"
    Then the response status is 200
    And the JSON at "clients.#(id=={{clientId}})" matches the shape "client"

  @reference @s4.4 @s2.2 @put-clients @get-extensions @mutates-A
  Scenario: a later read shows the updated client
    Given I remember "{{gen:name}}" as "name"
    And the request body is the template "client"
    And the request body field "name" is "{{name}}"
    And the request body field "addressCity" is "York"
    And the request body field "currency.id" is 2
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the JSON at "currency" matches:
      """json
      {"id": 2, "code": "EUR"}
      """
    When I send "GET" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the response matches the shape "client"
    And the response matches:
      """json
      {"id": "{{A.clientId}}", "name": "{{name}}", "addressCity": "York", "currency": {"id": 2, "code": "EUR"}}
      """
