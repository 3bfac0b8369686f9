package api

import (
	"encoding/json"
	"time"
)

// JournalEntry is one API request as the mock's GET /__admin/requests
// shows it: the mock writes it (mockserver/journal.go) and the replay reads
// it back (cmd/internal/replay), from this one definition. Bodies are JSON
// values when they parse as JSON, strings otherwise, null when empty;
// secrets are masked.
type JournalEntry struct {
	ID           int64             `json:"id"`
	Time         time.Time         `json:"time"`
	Method       string            `json:"method"`
	Path         string            `json:"path"`
	Query        string            `json:"query"`
	Headers      map[string]string `json:"headers"`
	Status       int               `json:"status"`
	DurationMs   float64           `json:"durationMs"`
	RequestBody  json.RawMessage   `json:"requestBody"`
	ResponseBody json.RawMessage   `json:"responseBody"`
	Truncated    bool              `json:"truncated,omitempty"`
}
