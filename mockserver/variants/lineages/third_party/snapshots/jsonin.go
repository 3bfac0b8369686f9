package snapshots

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	maxBodyBytes = 64 << 10
	maxDepth     = 16
	maxTokens    = 20000
)

// decodeJSON parses one JSON document into map[string]any, []any, string,
// json.Number, bool or nil. It is stricter than encoding/json on purpose:
// duplicate keys would make "what was sent" ambiguous, invalid UTF-8 would be
// silently rewritten, and deep nesting costs stack and memory.
func decodeJSON(b []byte) (any, error) {
	if !utf8.Valid(b) {
		return nil, errors.New("body is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	budget := maxTokens
	v, err := decodeValue(dec, 0, &budget)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int, budget *int) (any, error) {
	*budget--
	if *budget < 0 {
		return nil, errors.New("body has too many values")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, errors.New("body is not valid JSON")
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return tok, nil
	}
	if depth >= maxDepth {
		return nil, fmt.Errorf("body is nested deeper than %d levels", maxDepth)
	}
	switch d {
	case '{':
		obj := map[string]any{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, errors.New("body is not valid JSON")
			}
			k, ok := kt.(string)
			if !ok {
				return nil, errors.New("body is not valid JSON")
			}
			if _, dup := obj[k]; dup {
				return nil, fmt.Errorf("duplicate key %q", k)
			}
			v, err := decodeValue(dec, depth+1, budget)
			if err != nil {
				return nil, err
			}
			obj[k] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, errors.New("body is not valid JSON")
		}
		return obj, nil
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := decodeValue(dec, depth+1, budget)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, errors.New("body is not valid JSON")
		}
		return arr, nil
	}
	return nil, errors.New("body is not valid JSON")
}

// parseIntegral reads a JSON number literal and reports its value when that
// value is a whole number that fits in int64. A Number is a value, not a
// spelling, so 7, 7.0, 70e-1 and 0.7E1 are all seven; 7.5 is not whole.
// It does the arithmetic on the decimal digits so huge exponents cost nothing.
func parseIntegral(lit string) (int64, bool) {
	num, ok := lexNumber(lit)
	if !ok {
		return 0, false
	}
	digits := strings.TrimLeft(num.intPart+num.frac, "0")
	if digits == "" {
		return 0, true
	}
	if num.hugeExp {
		return 0, false
	}
	return integral(num.neg, digits, num.exp-len(num.frac))
}

// number is a JSON number split: its sign, its digits before and after
// the point, and its exponent (hugeExp: of more than seven digits).
type number struct {
	neg           bool
	intPart, frac string
	exp           int
	hugeExp       bool
}

// lexNumber splits a JSON number literal; ok is false for anything else.
func lexNumber(lit string) (number, bool) {
	var num number
	i, n := 0, len(lit)
	if i < n && lit[i] == '-' {
		num.neg = true
		i++
	}
	if i >= n {
		return num, false
	}
	start := i
	switch {
	case lit[i] == '0':
		i++
	case lit[i] >= '1' && lit[i] <= '9':
		i = skipDigits(lit, i)
	default:
		return num, false
	}
	num.intPart = lit[start:i]
	if i < n && lit[i] == '.' {
		fs := i + 1
		i = skipDigits(lit, fs)
		if i == fs {
			return num, false
		}
		num.frac = lit[fs:i]
	}
	if i < n && (lit[i] == 'e' || lit[i] == 'E') {
		var ok bool
		if i, ok = num.lexExponent(lit, i+1); !ok {
			return num, false
		}
	}
	return num, i == n
}

// lexExponent reads the exponent that begins at lit[i], after its e: it
// returns where it ends.
func (num *number) lexExponent(lit string, i int) (int, bool) {
	n := len(lit)
	eneg := false
	if i < n && (lit[i] == '+' || lit[i] == '-') {
		eneg = lit[i] == '-'
		i++
	}
	es := i
	i = skipDigits(lit, es)
	if i == es {
		return i, false
	}
	digits := strings.TrimLeft(lit[es:i], "0")
	if len(digits) > 7 {
		num.hugeExp = true
	} else if digits != "" {
		num.exp, _ = strconv.Atoi(digits)
	}
	if eneg {
		num.exp = -num.exp
	}
	return i, true
}

// integral is the int64 of the digits (no leading zero) times 10^e, when
// it is a whole number of that range.
func integral(neg bool, digits string, e int) (int64, bool) {
	for strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		e++
	}
	if e < 0 || len(digits)+e > 19 {
		return 0, false
	}
	var v uint64
	for j := 0; j < len(digits); j++ {
		v = v*10 + uint64(digits[j]-'0')
	}
	for ; e > 0; e-- {
		if v > (1<<64-1)/10 {
			return 0, false
		}
		v *= 10
	}
	if neg {
		if v > 1<<63 {
			return 0, false
		}
		return int64(-v), true
	}
	if v > 1<<63-1 {
		return 0, false
	}
	return int64(v), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipDigits is the index of the first byte of lit from i that is no digit.
func skipDigits(lit string, i int) int {
	for i < len(lit) && isDigit(lit[i]) {
		i++
	}
	return i
}
