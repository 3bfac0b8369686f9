package match

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// An ISO 8601 value names an instant only as precisely as it is written:
// "2026-01-02T15:04:05Z" is any moment of that second, "2026-01-02" any
// moment of that day in whatever zone the server meant, and a time without
// a zone any moment of that local time in some zone. ISORange is that range, so
// that two values are compared as a correct server may write them: in any
// form of ISO 8601, at any resolution, with another offset on a later read.
type ISORange struct {
	Lo, Hi time.Time     // the instant is in [Lo, Hi)
	Whole  time.Duration // the resolution it is written at: a day, a minute, a second or finer
}

// maxOffset is the widest offset of a zone (UTC+14, UTC-12; 14 h either
// way covers both).
const maxOffset = 14 * time.Hour

// ParseISORange reads an ISO 8601 date or date-time (extended or basic form, the
// forms IsISO8601 accepts) as the range of instants it may name.
func ParseISORange(s string) (ISORange, error) {
	if !IsISO8601(s) {
		return ISORange{}, fmt.Errorf("%q is not an ISO 8601 date or date-time", s)
	}
	m := isoExtended.FindStringSubmatch(s)
	if m == nil {
		m = isoBasic.FindStringSubmatch(s)
	}
	num := func(i int) int { n, _ := strconv.Atoi(m[i]); return n }
	t := time.Date(num(1), time.Month(num(2)), num(3), 0, 0, 0, 0, time.UTC)
	whole := 24 * time.Hour
	if m[4] != "" {
		t = t.Add(time.Duration(num(4))*time.Hour + time.Duration(num(5))*time.Minute)
		whole = time.Minute
		if m[6] != "" {
			t = t.Add(time.Duration(num(6)) * time.Second)
			whole = time.Second
			if frac := fraction(s); frac != "" {
				n, _ := strconv.ParseInt(frac, 10, 64)
				unit := time.Second
				for range frac {
					unit /= 10
				}
				if unit == 0 { // finer than a nanosecond: as good as one
					unit = 1
					n, _ = strconv.ParseInt(frac[:9], 10, 64)
				}
				t = t.Add(time.Duration(n) * unit)
				whole = unit
			}
		}
	}
	r := ISORange{Lo: t, Hi: t.Add(whole), Whole: whole}
	switch zone := m[7]; {
	case zone == "Z":
	case zone != "":
		digits := strings.ReplaceAll(zone[1:], ":", "")
		off := time.Duration(atoi(digits[:2])) * time.Hour
		if len(digits) == 4 {
			off += time.Duration(atoi(digits[2:])) * time.Minute
		}
		if zone[0] == '+' {
			off = -off
		}
		r.Lo, r.Hi = r.Lo.Add(off), r.Hi.Add(off)
	default:
		// A date, or a local time: in some zone the spec does not name.
		r.Lo, r.Hi = r.Lo.Add(-maxOffset), r.Hi.Add(maxOffset)
	}
	return r, nil
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// fraction returns the digits of the fraction of a second of s, if any.
func fraction(s string) string {
	i := strings.IndexAny(s, ".,")
	if i < 0 {
		return ""
	}
	j := i + 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return s[i+1 : j]
}

// SameInstant reports whether a and b may name the same instant.
func (a ISORange) SameInstant(b ISORange) bool { return a.Lo.Before(b.Hi) && b.Lo.Before(a.Hi) }

// NoEarlierThan reports whether a may name an instant at or after b's.
func (a ISORange) NoEarlierThan(b ISORange) bool { return a.Hi.After(b.Lo) }

// After reports whether every instant a may name comes after every one b may.
func (a ISORange) After(b ISORange) bool { return !a.Lo.Before(b.Hi) }
