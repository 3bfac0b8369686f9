@s9
Feature: the version segment of the base URL
  Section 9: the version is a segment of the base path; the endpoint pages show the form v1.0
  and the overview the form v1, and one version is currently available. A target may serve that
  version under one form or both: the profile's version_forms lists those it serves (v1,v1.0 by
  default, the mock's choice), and each listed form must serve the API. Another major version
  answers 404. Each request here is sent with the base URL's version segment replaced.

  Background:
    Given I am account "A" using the api-key header

  @get-platforms @s2.5
  Scenario Outline: GET on the platforms resource under the version <version>
    Given the profile value "version_forms" includes "<version>"
    When I send "GET" to "{{platformsPath}}" under the version "<version>"
    Then the response status is 200
    And the response is JSON
    And the response matches the shape "platforms"

    Examples:
      | version |
      | v1      |
      | v1.0    |

  @post-apps @s4.2 @s2.3
  Scenario Outline: POST /apps under the version <version>
    Given the profile value "version_forms" includes "<version>"
    And the profile value "apps_per_marketapp" is "several"
    And the request body is the template "app"
    When I send "POST" to "/apps" under the version "<version>"
    Then the response status is 200
    And the response matches the shape "app"
    And the JSON at "marketapp.hash" matches the pattern "(?i)^{{marketappHash}}$"

    Examples:
      | version |
      | v1      |
      | v1.0    |

  @put-users @s4.1 @s2.1 @mutates-A
  Scenario Outline: PUT /users/:userId under the version <version>
    Given the profile value "version_forms" includes "<version>"
    And I remember "{{gen:name}}" as "firstName"
    And the request body is the template "user"
    And the request body field "email" is "{{A.email}}"
    And the request body field "firstName" is "{{firstName}}"
    When I send "PUT" to "/users/{{A.userId}}" under the version "<version>"
    Then the response status is 200
    And the response matches the shape "user"
    And the JSON at "firstName" is "{{firstName}}"

    Examples:
      | version |
      | v1      |
      | v1.0    |

  @reference @get-platforms @post-apps
  Scenario Outline: the mock serves the one version under both v1 and v1.0 (<version>)
    When I send "GET" to "/platforms" under the version "<version>"
    Then the response status is 200
    And the response matches the shape "platforms"
    Given the request body is the template "app"
    When I send "POST" to "/apps" under the version "<version>"
    Then the response status is 200
    And the response matches the shape "app"

    Examples:
      | version |
      | v1      |
      | v1.0    |

  Scenario Outline: <method> <path> under the version v2 is answered 404
    Given the request body is the template "<body>" with stand-ins for the profile values it lacks
    When I send "<method>" to "<path>" under the version "v2"
    Then the response status is 404

    @post-apps
    Examples: POST /apps
      | method | path  | body |
      | POST   | /apps | app  |

    @put-users @mutates-A
    Examples: PUT /users/:userId
      | method | path                | body |
      | PUT    | /users/{{A.userId}} | user |

  @get-platforms
  Scenario: GET on the platforms resource under the version v2 is answered 404
    When I send "GET" to "{{platformsPath}}" under the version "v2"
    Then the response status is 404

  @reference @s7.2
  Scenario Outline: <method> <path> under the version <version> is answered 404 with the error array
    Given the request body is the template "<body>"
    When I send "<method>" to "<path>" under the version "<version>"
    Then the response status is 404
    And the response matches:
      """json
      [{"fieldName": "", "error": "NotFound", "message": "#string"}]
      """

    @post-apps
    Examples: POST /apps
      | method | path  | body | version |
      | POST   | /apps | app  | v1.1    |
      | POST   | /apps | app  | v0      |
      | POST   | /apps | app  | v2.0    |

  @reference @s7.2 @get-platforms
  Scenario: GET /platforms under the version v1.1 is answered 404 with the error array
    When I send "GET" to "/platforms" under the version "v1.1"
    Then the response status is 404
    And the response matches:
      """json
      [{"fieldName": "", "error": "NotFound", "message": "#string"}]
      """
