// Package baregin is the yardstick of the mock's speed: a bare Gin engine
// that answers the two requests the load benchmarks send, GET /v1/platforms
// and PUT /v1/users/1 with an api key, the way a minimal Gin service would
// (no middleware, one handler each, Gin's own JSON binding and rendering).
// The mock's engine benchmark (mockserver/bench_test.go) and the wrk script
// (.ci/wrk-bench) compare the mock with it in the same run, as a ratio, so
// that the figure does not depend on the machine.
package baregin

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

type platform struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	Name          string `json:"name"`
}

type phoneCountry struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	DialCode string `json:"dialCode"`
}

type user struct {
	ID                  int64        `json:"id"`
	Created             string       `json:"created"`
	Email               string       `json:"email" binding:"required"`
	PasswordLastChanged string       `json:"passwordLastChanged"`
	FirstName           string       `json:"firstName" binding:"required"`
	LastName            string       `json:"lastName" binding:"required"`
	SubscribeWelcome    bool         `json:"subscribeWelcome"`
	SubscribeBlog       bool         `json:"subscribeBlog"`
	SubscribeHowto      bool         `json:"subscribeHowto"`
	SubscribeOnboarding bool         `json:"subscribeOnboarding"`
	PhoneCountry        phoneCountry `json:"phoneCountry"`
	PhoneNumber         string       `json:"phoneNumber"`
	PhoneExtension      *string      `json:"phoneExtension"`
	Timezone            string       `json:"timezone" binding:"required"`
	Password            *string      `json:"password,omitempty"`
}

// Engine is the bare engine. APIKey is the one key PUT /v1/users/1 takes.
func Engine(apiKey string) *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	created := time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC).Format(time.RFC3339)
	platforms := []platform{
		{ID: 1, Created: created, CreatorUserID: 1, Name: "Android"},
		{ID: 2, Created: created, CreatorUserID: 1, Name: "iOS"},
	}
	e.GET("/v1/platforms", func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"platforms": platforms})
	})
	e.PUT("/v1/users/:userId", func(c *gin.Context) {
		if c.GetHeader("Authorization") != "api-key "+apiKey || c.Param("userId") != "1" {
			c.AbortWithStatus(http.StatusUnauthorized)
			return
		}
		var u user
		if err := c.ShouldBindJSON(&u); err != nil {
			c.AbortWithStatus(http.StatusBadRequest)
			return
		}
		u.ID, u.Created, u.PasswordLastChanged, u.Password = 1, created, created, nil
		u.PhoneCountry = phoneCountry{ID: 1, Name: "United Kingdom (+44)", DialCode: "+44"}
		u.PhoneNumber = "7700900123"
		c.JSON(http.StatusOK, u)
	})
	return e
}
