@put-users
Feature: PUT /users/:userId updates a user
  Sections 2.1, 4.1 and 7.3. Every request carries every field of the body table of 4.1 and the
  phone fields that 7.3 gives codes for (the template "user": a fresh contract- email at the
  profile's email domain and names, password null, no client, the profile's phone), so a server
  that requires them all is not failed. Every scenario that sends PUT to account A's user carries
  the tag mutates-A: it runs alone on account A, and the suite restores the account afterwards.
  The spec never says whether a user may hold several clients: a body with a client is checked
  as the profile's clients_per_user says.

  Background:
    Given I am account "A" using the api-key header

  @s2.1 @s4.1 @s1 @s4 @mutates-A
  Scenario: an update answers the user object with the values sent
    Given I remember "{{gen:email}}" as "email"
    And I remember "{{gen:name}}" as "firstName"
    And I remember "{{gen:name}}" as "lastName"
    And the request body is the template "user"
    And the request body field "email" is "{{email}}"
    And the request body field "firstName" is "{{firstName}}"
    And the request body field "lastName" is "{{lastName}}"
    And the request body field "subscribeWelcome" is false
    And the request body field "subscribeBlog" is true
    And the request body field "subscribeHowto" is false
    And the request body field "subscribeOnboarding" is true
    And the request body field "timezone" is "America/New_York"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the response is JSON
    And the response matches the shape "user"
    And the response matches:
      """json
      {
        "id": "{{A.userId}}",
        "email": "{{email}}",
        "firstName": "{{firstName}}",
        "lastName": "{{lastName}}",
        "subscribeWelcome": false,
        "subscribeBlog": true,
        "subscribeHowto": false,
        "subscribeOnboarding": true,
        "timezone": "America/New_York"
      }
      """
    And the JSON at "password" is absent

  @s2.1 @s4.1 @mutates-A
  Scenario: the subscribe flags are stored as sent, the other way round
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "subscribeWelcome" is true
    And the request body field "subscribeBlog" is false
    And the request body field "subscribeHowto" is true
    And the request body field "subscribeOnboarding" is false
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the response matches:
      """json
      {
        "email": "{{A.email}}",
        "subscribeWelcome": true,
        "subscribeBlog": false,
        "subscribeHowto": true,
        "subscribeOnboarding": false
      }
      """

  @s4.1 @mutates-A
  Scenario: after an email change the new email address logs in and the old one no longer does
    Given I remember "{{gen:email}}" as "email"
    And the request body is the template "user"
    And the request body field "email" is "{{email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I log in with email "{{email}}" and password "{{A.password}}"
    Then the response status is 200
    And the JSON at "userId" is {{A.userId}}
    When I log in with email "{{A.email}}" and password "{{A.password}}"
    Then the response status is 401 or 400

  @s4.1 @s5 @s2.1 @get-extensions @mutates-A
  Scenario: an email address with capital letters logs in as it was set, and is kept as it was set
    5: a session is obtained with the credentials of the account, and the email address the user
    set, typed as it was set, is one of them; the local part of an address may hold capitals (RFC
    5321 2.4, 4.1.2). A server that keeps addresses in one letter case must find this one too.
    The local part is case-sensitive (RFC 5321 2.4), so the address is answered and stored as it
    was set, as a later read shows where the target has the read extension GET /users/:userId.

    Given I remember "Mixed.{{gen:name}}@{{emailDomain}}" as "email"
    And the request body is the template "user"
    And the request body field "email" is "{{email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "email" is "{{email}}"
    When I log in with email "{{email}}" and password "{{A.password}}"
    Then the response status is 200
    And the JSON at "userId" is {{A.userId}}
    When I send "GET" to "/users/{{A.userId}}" if the target has that read extension
    Then the response status is 200
    And the JSON at "email" is "{{email}}"

  @s4.1 @s8 @mutates-A
  Scenario: a new password works for the next login and the old one no longer does
    Given I remember "{{gen:password}}" as "newPassword"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is "{{newPassword}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the response matches the shape "user"
    When I log in with email "{{A.email}}" and password "{{newPassword}}"
    Then the response status is 200
    And the JSON at "userId" is {{A.userId}}
    When I log in with email "{{A.email}}" and password "{{A.password}}"
    Then the response status is 401 or 400

  @s4.1 @s8 @s2 @mutates-A
  Scenario: password null keeps the existing password
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is null
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the response matches the shape "user"
    When I log in with email "{{A.email}}" and password "{{A.password}}"
    Then the response status is 200
    And the JSON at "userId" is {{A.userId}}

  @s4.1 @s2.1 @s5 @mutates-A
  Scenario: a body with a client creates the client too and answers the user
    Account A has a client; where a user may hold only one (the profile's clients_per_user), the
    body is refused instead.

    Given the request body is the template "user-with-client"
    And the request body field "email" is "{{A.email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response is one of:
      | status | shape                                                                                   | when                     |
      | 200    | {"id": "{{A.userId}}", "email": "{{A.email}}", "created": "#iso8601", "password": "#notpresent"} | clients_per_user=several |
      | 400    | errors                                                                                  | clients_per_user=one     |
      | 403    |                                                                                         | clients_per_user=one     |

  @s4.1 @s4.3 @s7.1 @mutates-A
  Scenario Outline: a body with a client that has <case> is answered 400
    The client of PUT /users is made with the body of POST /clients, so its rules hold inside it
    too. Where a user may hold only one client, the target may refuse the second client first (403).

    Given the request body is the template "user-with-client"
    And the request body field "client.<field>" is <value>
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response is one of:
      | status | shape  | when                 |
      | 400    | errors |                      |
      | 403    |        | clients_per_user=one |

    Examples:
      | case                       | field | value            |
      | no name                    | name  | ""               |
      | terms other than I agree   | terms | "I do not agree" |
      | terms in lower case        | terms | "i agree"        |

  @s4.1 @s7.3 @mutates-A
  Scenario: a change of the user's own email in letter case only is accepted
    The address still names the same user: whether the server compares emails with or without case,
    it is not another user's.

    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is "{{upper:A.email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200

  @s7.3 @mutates-A
  Scenario Outline: <field> <case> is answered <code>
    7.3: InvalidFirstName and InvalidLastName when no name was provided, whether the body leaves it
    out, sends null or an empty string: a server that keeps the stored name for an absent one reads
    PUT as a partial update, which 7.3 does not allow.
    Given the request body is the template "user"
    And the request body field "<field>" <change>
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors include:
      | fieldName | error  |
      | <field>   | <code> |

    Examples:
      | field     | case                        | change                    | code             |
      | email     | that is not an email        | is "not-an-email"         | InvalidEmail     |
      | email     | without a domain            | is "contract-user@"       | InvalidEmail     |
      | email     | without a local part        | is "@{{emailDomain}}"     | InvalidEmail     |
      | email     | that is empty               | is ""                     | InvalidEmail     |
      | email     | with a display name         | is "Contract User <contract-user@{{emailDomain}}>" | InvalidEmail |
      | email     | with two at signs           | is "contract@user@{{emailDomain}}" | InvalidEmail |
      | password  | of 5 characters             | is "{{gen:password:5}}"   | InvalidPassword  |
      | password  | that is empty               | is ""                     | InvalidPassword  |
      | firstName | that is empty               | is ""                     | InvalidFirstName |
      | firstName | that is absent              | is absent                 | InvalidFirstName |
      | firstName | that is null                | is null                   | InvalidFirstName |
      | lastName  | that is empty               | is ""                     | InvalidLastName  |
      | lastName  | that is absent              | is absent                 | InvalidLastName  |
      | lastName  | that is null                | is null                   | InvalidLastName  |

  @s7.3 @mutates-A
  Scenario Outline: <field> left out beside a member named <other> is answered 400: a member name is compared in its letter case
    RFC 8259 8.3: member names are compared code unit by code unit, so "<other>" is another member,
    not <field>; a decoder that matches names in any letter case (Go's encoding/json does) takes it
    for <field>. Without <field>, no <field> was provided (7.3), whatever the server makes of the
    other member: ignored, or refused as a member the spec does not name.
    Given the request body is the template "user"
    And the request body field "<field>" is absent
    And the request body field "<other>" is "contract-{{gen:hex:8}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 400

    Examples:
      | field     | other     |
      | firstName | FirstName |
      | lastName  | LASTNAME  |

  @reference @s7.3 @s7.1 @mutates-A
  Scenario Outline: <field> <case> is answered exactly <code>
    Given the request body is the template "user"
    And the request body field "<field>" <change>
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors are exactly:
      | fieldName | error  |
      | <field>   | <code> |

    Examples:
      | field               | case                           | change                     | code                      |
      | email               | that is not an email           | is "not-an-email"          | InvalidEmail              |
      | email               | that is absent                 | is absent                  | InvalidEmail              |
      | email               | that is a number               | is 5                       | InvalidEmail              |
      | email               | used by another user           | is "{{B.email}}"           | InvalidEmail              |
      | password            | of 5 characters                | is "{{gen:password:5}}"    | InvalidPassword           |
      | password            | that is a number               | is 123456                  | InvalidPassword           |
      | firstName           | that is empty                  | is ""                      | InvalidFirstName          |
      | firstName           | that is absent                 | is absent                  | InvalidFirstName          |
      | firstName           | that is null                   | is null                    | InvalidFirstName          |
      | lastName            | that is empty                  | is ""                      | InvalidLastName           |
      | lastName            | that is absent                 | is absent                  | InvalidLastName           |
      | timezone            | that is not of the form Area/City | is "London"             | InvalidTimezone           |
      | timezone            | that is absent                 | is absent                  | InvalidTimezone           |
      | subscribeBlog       | that is not a boolean          | is "yes"                   | InvalidSubscribeBlog      |
      | subscribeWelcome    | that is absent                 | is absent                  | InvalidSubscribeWelcome   |
      | subscribeHowto      | that is a number               | is 1                       | InvalidSubscribeHowto     |
      | subscribeOnboarding | that is null                   | is null                    | InvalidSubscribeOnboarding |
      | client              | that is not an object          | is "a client"              | InvalidClient             |

  @reference @s7.3 @s2.1 @mutates-A
  Scenario Outline: the phone field <field> <case> is answered <code>
    Given the request body is the template "user"
    And the request body field "<field>" <change>
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors are exactly:
      | fieldName | error  |
      | <field>   | <code> |

    Examples:
      | field           | case                        | change                          | code                  |
      | phoneCountry.id | that is unknown             | is 999999                       | InvalidPhoneCountryId |
      | phoneCountry.id | that is a string            | is "1"                          | InvalidPhoneCountryId |
      | phoneNumber     | that is empty               | is ""                           | InvalidPhoneNumber    |
      | phoneNumber     | of 256 characters           | is a string of 256 characters   | InvalidPhoneNumber    |
      | phoneExtension  | that is not digits          | is "ext12"                      | InvalidPhoneExtension |
      | phoneExtension  | of 11 digits                | is "12345678901"                | InvalidPhoneExtension |

  @s2.1 @s4.1 @mutates-A
  Scenario: the phone country's name includes its own dial code in brackets
    2.1: phoneCountry.name "includes the dial code in brackets", the dialCode of the same object.
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And I remember the JSON at "phoneCountry.dialCode" as "dial"
    And the JSON at "phoneCountry.name" matches the pattern "\({{quote:dial}}\)"

  @s7.3 @s2.1 @mutates-A
  Scenario Outline: the phone field <field> <case> is answered 400 with <code>
    7.3 names three codes for the phone: a country id that matches no allowed value, no phone number,
    an extension of a value no target allows. The suite sends the phone in every PUT /users body as
    phoneCountry {id}, phoneNumber and phoneExtension; the fieldName may name the field or the
    object that holds it.
    Given the request body is the template "user"
    And the request body field "<field>" <change>
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors include the code "<code>" for the field "<field>"

    Examples:
      | field           | case                 | change         | code                  |
      | phoneCountry.id | that is unknown      | is 999999999   | InvalidPhoneCountryId |
      | phoneNumber     | that is empty        | is ""          | InvalidPhoneNumber    |
      | phoneExtension  | that is an object    | is {"x": 1}    | InvalidPhoneExtension |

  @s2.1 @s4.1 @mutates-A
  Scenario: a phone extension of digits with a leading zero is answered as a String, or refused
    2.1: phoneExtension is "String or null": digits sent as a string stay a string, never a number.
    Whether a target takes the value (7.3: the extension's allowed values are its own) is open.
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "phoneExtension" is "0042"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response is one of:
      | status | shape                         |
      | 200    | {"phoneExtension": "#string"} |
      | 400    | errors                        |

  @reference @s2.1 @s4.1 @get-extensions @mutates-A
  Scenario: the phone fields are accepted, echoed, and kept when omitted
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "phoneCountry" is {"id": 2}
    And the request body field "phoneNumber" is "2025550100"
    And the request body field "phoneExtension" is "1234567890"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the response matches:
      """json
      {
        "phoneCountry": {"id": 2, "name": "United States (+1)", "dialCode": "+1"},
        "phoneNumber": "2025550100",
        "phoneExtension": "1234567890"
      }
      """
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "phoneCountry" is absent
    And the request body field "phoneNumber" is absent
    And the request body field "phoneExtension" is absent
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "phoneCountry.id" is 2
    And the JSON at "phoneNumber" is "2025550100"
    And the JSON at "phoneExtension" is "1234567890"
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "phoneCountry" is absent
    And the request body field "phoneNumber" is absent
    And the request body field "phoneExtension" is null
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "phoneExtension" is null
    When I send "GET" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "phoneNumber" is "2025550100"
    And the JSON at "phoneExtension" is null

  @reference @s4.1 @s2.1 @get-extensions @mutates-A
  Scenario: a later read shows the updated values
    Given I remember "{{gen:email}}" as "email"
    And I remember "{{gen:name}}" as "firstName"
    And I remember "{{gen:name}}" as "lastName"
    And the request body is the template "user"
    And the request body field "email" is "{{email}}"
    And the request body field "firstName" is "{{firstName}}"
    And the request body field "lastName" is "{{lastName}}"
    And the request body field "subscribeBlog" is true
    And the request body field "timezone" is "Asia/Tokyo"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I send "GET" to "/users/{{A.userId}}"
    Then the response status is 200
    And the response matches the shape "user"
    And the response matches:
      """json
      {
        "id": "{{A.userId}}",
        "email": "{{email}}",
        "firstName": "{{firstName}}",
        "lastName": "{{lastName}}",
        "subscribeBlog": true,
        "timezone": "Asia/Tokyo"
      }
      """

  @reference @s4.1 @s8 @mutates-A
  Scenario: an absent password keeps the existing password, like null
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "password" is absent
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I log in with email "{{A.email}}" and password "{{A.password}}"
    Then the response status is 200

  @reference @s4.1 @s2.5 @get-extensions @mutates-A
  Scenario: a body with a client creates a client the user is a member of
    Given I remember "{{gen:name}}" as "clientName"
    And the request body is the template "user-with-client"
    And the request body field "email" is "{{A.email}}"
    And the request body field "client.name" is "{{clientName}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I send "GET" to "/users/{{A.userId}}/clients"
    Then the response status is 200
    And the JSON at "clients.#(name=="{{clientName}}")" matches the shape "client"

  @reference @s4.1 @s2.5 @get-extensions @mutates-A
  Scenario: a body without a client creates no client
    When I send "GET" to "/users/{{A.userId}}/clients"
    Then the response status is 200
    And I remember the JSON at "clients.#" as "count"
    Given the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
    When I send "GET" to "/users/{{A.userId}}/clients"
    Then the JSON at "clients.#" is {{count}}

  @reference @s4.1 @s7.1 @get-extensions @mutates-A
  Scenario: an invalid client in the body changes neither the user nor the clients
    Given I remember "{{gen:name}}" as "clientName"
    And the request body is the template "user-with-client"
    And the request body field "client.name" is "{{clientName}}"
    And the request body field "client.terms" is "no"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors are exactly:
      | fieldName    | error        |
      | client.terms | InvalidTerms |
    When I send "GET" to "/users/{{A.userId}}"
    Then the response status is 200
    And the JSON at "email" is "{{A.email}}"
    When I send "GET" to "/users/{{A.userId}}/clients"
    Then the response status is 200
    And the JSON at "clients.#(name=="{{clientName}}")" is absent

  @reference @s4.1 @s7.3 @mutates-A
  Scenario: an empty client name in the body is answered InvalidName on client.name
    Given the request body is the template "user-with-client"
    And the request body field "client.name" is ""
    When I send "PUT" to "/users/{{A.userId}}"
    Then the errors are exactly:
      | fieldName   | error       |
      | client.name | InvalidName |
