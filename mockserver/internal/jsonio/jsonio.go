// Package jsonio reads and writes JSON the one way the mock does, for the
// domain, the HTTP adapter and the rewrites of answers alike.
package jsonio

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// ErrTrailingData is the error of a document that holds more than one JSON
// value.
var ErrTrailingData = errors.New("unexpected data after the JSON value")

// Decode reads the one JSON value of b into v. A number decoded into an
// `any` stays a json.Number, so that an id is read exactly; a struct refuses
// unknown fields, so that a typo is an error rather than a value silently
// missing; anything after the value is ErrTrailingData.
func Decode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return ErrTrailingData
	}
	return nil
}

// Encode writes v as one line of JSON. HTML is not escaped: the mock's
// messages quote "<API_KEY>" and are read by people.
func Encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := EncodeTo(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// EncodeTo writes v to buf as Encode does; on an error buf holds part of
// it.
func EncodeTo(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
