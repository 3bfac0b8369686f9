@post-apps
Feature: POST /apps creates an app from a marketplace app
  Sections 2.3, 4.2, 7.3 and 8. Every request carries every field of the body table of 4.2 (the
  template "app": marketapp.hash {{marketappHash}}, name null, platform.id null, nextplan.id
  {{planId}}). The profile's marketplace app is on platform {{platformId}}. A hash is hexadecimal
  and the spec does not fix the case of its letters, so spec scenarios compare an answered hash
  ignoring case; that it comes back in lower case is the mock's decision (@reference). The seed's
  app already uses the profile's marketplace app, and "further validation codes for POST /apps:
  not shown" lets a target refuse a second app of one marketplace app: scenarios that create an
  app from it hold as the profile's apps_per_marketapp says.

  Background:
    Given I am account "A" using the api-key header

  @s2.3 @s4.2 @s1 @s2 @s4
  Scenario: an app created from a marketplace app answers the app object
    Given the profile value "apps_per_marketapp" is "several"
    And the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200
    And the response is JSON
    And the response matches the shape "app"
    And the JSON at "marketapp.hash" matches the pattern "(?i)^{{marketappHash}}$"
    And the JSON at "platform.id" is {{platformId}}
    And the JSON at "writeKey" matches the pattern "^[0-9a-fA-F]{32}$"
    And the JSON at "plan.isLite" is a boolean
    And the JSON at "plan.isPro" is a boolean
    And the JSON at "plan.isDynamic" is a boolean
    And the JSON at "plan.needBilling" is a boolean

  @s4.2 @s7.3
  Scenario Outline: neither a marketapp hash nor a name (<case>) is answered InvalidName
    Given the request body is the template "app"
    And the request body field "marketapp.hash" <hash>
    And the request body field "name" <name>
    And the request body field "platform.id" is {{platformId}}
    When I send "POST" to "/apps"
    Then the errors include:
      | fieldName | error       |
      | name      | InvalidName |

    Examples:
      | case                 | hash      | name      |
      | both absent          | is absent | is absent |

  @s4.2 @s7.3
  Scenario Outline: a null hash beside no name (<case>) is refused, for the name or for the hash
    Whether a hash of null is "given" (4.2: the name is "used when marketapp.hash is not given";
    7.3: InvalidName "where neither a marketapp hash nor a name is given") is open: a target may read
    null as no hash and refuse the missing name, or refuse the null, which is no String, as the hash.
    Given the request body is the template "app"
    And the request body field "marketapp.hash" is null
    And the request body field "name" <name>
    And the request body field "platform.id" is {{platformId}}
    When I send "POST" to "/apps"
    Then the response status is 400
    And the errors name one of the fields "name, marketapp.hash, marketapp"

    Examples:
      | case         | name      |
      | name null    | is null   |
      | name absent  | is absent |

  @s4.2 @s8
  Scenario Outline: a marketapp hash of <case> is answered 400
    Given the request body is the template "app"
    And the request body field "marketapp.hash" is "<hash>"
    When I send "POST" to "/apps"
    Then the response status is 400
    And the response matches the shape "errors"

    Examples:
      | case                                     | hash                                      |
      | 39 hexadecimal characters                | {{gen:hex:39}}                            |
      | 41 hexadecimal characters                | {{gen:hex:41}}                            |
      | 40 characters with a non-hexadecimal one | {{gen:hex:39}}g                           |
      | 40 characters of letters beyond f        | contract-zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz  |

  @s4.2 @s8
  Scenario: the profile's marketapp hash with a space before and after it is answered 400
    A marketapp hash "is 40 hexadecimal characters long" (4.2, 8): with a space on each side it is
    42 characters, whatever the hash inside them would be.
    Given the request body is the template "app"
    And the request body field "marketapp.hash" is " {{marketappHash}} "
    When I send "POST" to "/apps"
    Then the response status is 400
    And the response matches the shape "errors"

  @s4.2 @s2.3 @get-platforms
  Scenario: with a marketapp hash, platform.id of another platform never moves the app off the marketplace app's platform
    platform.id is "used when marketapp.hash is not given": an app made with a hash is on the
    marketplace app's platform, and a target may also refuse the conflicting body (400), or a
    second app of the marketplace app.

    When I send "GET" to "{{platformsPath}}"
    Then the response status is 200
    And I remember the JSON at "platforms.#(id!={{platformId}}).id" as "otherPlatformId"
    Given the request body is the template "app"
    And the request body field "platform.id" is {{otherPlatformId}}
    When I send "POST" to "/apps"
    Then the response is one of:
      | status | shape                                                                                            |
      | 200    | {"platform": {"id": "{{platformId}}"}, "marketapp": {"hash": "#regex (?i){{marketappHash}}"}} |
      | 400    | errors                                                                                           |

  @s4.2 @s2.3
  Scenario Outline: an app made on platform <n> of the profile names that platform as the profile does
    2.3: platform.name is the name of that platform; the profile's platforms say which name each id
    has. A target that makes apps only from a store refuses the body (400 or 404).
    Given the request body is the template "app-by-name"
    And the request body field "platform.id" is {{platforms.<n>.id}}
    When I send "POST" to "/apps"
    Then the response is one of:
      | status | shape                                                                                  |
      | 200    | {"platform": {"id": "{{platforms.<n>.id}}", "name": "{{platforms.<n>.name}}"}}          |
      | 400    | errors                                                                                 |
      | 404    |                                                                                        |

    Examples:
      | n |
      | 1 |
      | 2 |

  @s4.2 @s2.3
  Scenario: with a marketapp hash, the app is never named after the body's name
    name is "used when marketapp.hash is not given": an app made with a hash bears the marketplace
    app's name (which is no name of this suite: they all start with contract-), or the conflicting
    body is refused.
    Given the profile value "apps_per_marketapp" is "several"
    And the request body is the template "app"
    And the request body field "name" is "contract-body-name-{{gen:hex:8}}"
    When I send "POST" to "/apps"
    Then the response is one of:
      | status | shape                                                    |
      | 200    | {"name": "#regex ^(?s)(?:.{0,8}\|[^c].*\|c[^o].*\|co[^n].*\|con[^t].*\|cont[^r].*\|contr[^a].*\|contra[^c].*\|contrac[^t].*\|contract[^-].*)$"} |
      | 400    | errors                                                   |

  @s4.2 @s7.3
  Scenario: a second app of the profile's marketplace app is created, or refused where the profile says so
    Where a target refuses a second app of one marketplace app (the profile's apps_per_marketapp),
    the first request may already be the second (the seed's app uses the profile's marketplace
    app), and the second is refused.

    Given the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response is one of:
      | status | shape  | when                   |
      | 200    | app    |                        |
      | 400    | errors | apps_per_marketapp=one |
    Given the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response is one of:
      | status | shape  | when                       |
      | 200    | app    | apps_per_marketapp=several |
      | 400    | errors | apps_per_marketapp=one     |

  @reference @s4.2 @s8 @s7.1
  Scenario Outline: a marketapp hash of <case> is answered exactly InvalidMarketappHash
    Given the request body is the template "app"
    And the request body field "marketapp.hash" is "<hash>"
    When I send "POST" to "/apps"
    Then the errors are exactly:
      | fieldName      | error                |
      | marketapp.hash | InvalidMarketappHash |

    Examples:
      | case                                        | hash            |
      | 39 hexadecimal characters                   | {{gen:hex:39}}  |
      | 41 hexadecimal characters                   | {{gen:hex:41}}  |
      | 40 characters with a non-hexadecimal one    | {{gen:hex:39}}g |
      | 40 hexadecimal characters of no marketplace app | 0000000000000000000000000000000000000000 |

  @reference @s4.2 @s7.3
  Scenario: neither hash nor name is answered exactly InvalidName on name
    Given the request body is the template "app"
    And the request body field "marketapp.hash" is null
    And the request body field "name" is null
    And the request body field "platform.id" is 1
    When I send "POST" to "/apps"
    Then the errors are exactly:
      | fieldName | error       |
      | name      | InvalidName |

  @reference @s4.2 @s7.3
  Scenario: an empty name without a hash is answered InvalidName
    Given the request body is the template "app"
    And the request body field "marketapp.hash" is null
    And the request body field "name" is ""
    And the request body field "platform.id" is 1
    When I send "POST" to "/apps"
    Then the errors are exactly:
      | fieldName | error       |
      | name      | InvalidName |

  @reference @s4.2 @s2.3
  Scenario: an app created from a name and a platform has no marketapp hash
    Given I remember "{{gen:name}}" as "name"
    And the request body is the template "app"
    And the request body field "marketapp.hash" is null
    And the request body field "name" is "{{name}}"
    And the request body field "platform.id" is 2
    When I send "POST" to "/apps"
    Then the response status is 200
    And the response matches:
      """json
      {
        "id": "#number",
        "created": "#iso8601",
        "name": "{{name}}",
        "platform": {"id": 2, "name": "iOS"},
        "writeKey": "#regex [0-9a-f]{32}",
        "plan": {"isLite": true, "isPro": false, "isDynamic": false, "needBilling": false},
        "marketapp": {"hash": null}
      }
      """

  @reference @s4.2 @s7.1
  Scenario: a name with an unknown platform is answered InvalidPlatformId
    Given the request body is the template "app"
    And the request body field "marketapp.hash" is null
    And the request body field "name" is "{{gen:name}}"
    And the request body field "platform.id" is 999999
    When I send "POST" to "/apps"
    Then the errors are exactly:
      | fieldName   | error             |
      | platform.id | InvalidPlatformId |

  @reference @s4.2 @s2.3 @get-platforms
  Scenario: with a hash, platform.id of another platform is ignored
    When I send "GET" to "/platforms"
    Then the response status is 200
    And I remember the JSON at "platforms.#(id!={{platformId}}).id" as "otherPlatformId"
    Given the request body is the template "app"
    And the request body field "platform.id" is {{otherPlatformId}}
    When I send "POST" to "/apps"
    Then the response status is 200
    And the JSON at "platform.id" is {{platformId}}

  @reference @s4.2 @s2.3
  Scenario: with a hash, the marketplace app's name and platform win over name and platform.id
    Given the request body is the template "app"
    And the request body field "marketapp.hash" is "41cc95107d02f0a55079d23d8dcf2b2852ef397d"
    And the request body field "name" is "{{gen:name}}"
    And the request body field "platform.id" is 1
    When I send "POST" to "/apps"
    Then the response status is 200
    And the response matches the shape "app"
    And the response matches:
      """json
      {
        "name": "Puzzle Quest",
        "platform": {"id": 2, "name": "iOS"},
        "marketapp": {"hash": "41cc95107d02f0a55079d23d8dcf2b2852ef397d"}
      }
      """

  @reference @s4.2 @s7.1
  Scenario: an unknown plan is answered InvalidPlanId
    Given the request body is the template "app"
    And the request body field "nextplan.id" is 999999
    When I send "POST" to "/apps"
    Then the errors are exactly:
      | fieldName   | error         |
      | nextplan.id | InvalidPlanId |

  @reference @s4.2 @s2.3
  Scenario Outline: plan <plan> sets the plan flags
    Given the request body is the template "app"
    And the request body field "nextplan.id" is <plan>
    When I send "POST" to "/apps"
    Then the response status is 200
    And the JSON at "plan" matches:
      """json
      {"isLite": <lite>, "isPro": <pro>, "isDynamic": <dynamic>, "needBilling": <billing>}
      """

    Examples:
      | plan | lite  | pro   | dynamic | billing |
      | 1    | true  | false | false   | false   |
      | 2    | false | true  | false   | true    |
      | 3    | false | false | true    | true    |

  @reference @s4.2 @s2.3
  Scenario: without nextplan the app gets the lite plan
    Given the request body is the template "app"
    And the request body field "nextplan" is absent
    When I send "POST" to "/apps"
    Then the response status is 200
    And the JSON at "plan.isLite" is true

  @reference @s4.2 @s2.3 @get-extensions
  Scenario: the app is attached to the caller's client and can be read back
    Given the request body is the template "app"
    When I send "POST" to "/apps"
    Then the response status is 200
    And I remember the JSON at "id" as "appId"
    And I remember the JSON at "writeKey" as "writeKey"
    When I send "GET" to "/clients/{{A.clientId}}/apps"
    Then the response status is 200
    And the JSON at "apps.#(id=={{appId}}).writeKey" is "{{writeKey}}"
    When I send "GET" to "/apps/{{appId}}"
    Then the response status is 200
    And the response matches the shape "app"
    And the JSON at "writeKey" is "{{writeKey}}"
    And the JSON at "marketapp.hash" is "{{marketappHash}}"
