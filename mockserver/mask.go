package mockserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"mime"
	"net/textproto"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Masking: the journal shows requests and answers with every credential
// replaced by "***", whatever form it came in: a JSON or form field, a
// query argument, a header, a part of a multipart body, and in malformed
// bodies too. Which names hold one is pricing.SecretName. Where a body
// cannot be read as JSON, a form or a multipart body and still names a
// secret after masking, the whole body is masked.

// namesSecret reports whether a text mentions a secret word anywhere, once
// its JSON and URL escapes are undone: the test of a body that could not be
// masked field by field.
func namesSecret(text string) bool {
	if u, err := url.QueryUnescape(text); err == nil {
		text = u
	}
	return pricing.MentionsSecret(pricing.NormalName(unescapeJSON(text)))
}

// maskQuery masks the values of secret arguments of a query, whichever of
// "&" and ";" separates them.
func maskQuery(raw string) string {
	if raw == "" {
		return ""
	}
	var b strings.Builder
	for len(raw) > 0 {
		i := strings.IndexAny(raw, "&;")
		pair, sep := raw, ""
		if i >= 0 {
			pair, sep, raw = raw[:i], raw[i:i+1], raw[i+1:]
		} else {
			raw = ""
		}
		k, _, hasValue := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			name = k
		}
		if pricing.SecretName(name) || (err != nil && namesSecret(k)) {
			pair = k
			if hasValue || err != nil {
				pair = k + "=" + masked
			}
		}
		b.WriteString(pair)
		b.WriteString(sep)
	}
	return b.String()
}

// authSchemes are the scheme words an Authorization header may keep in the
// journal, so that it tells which scheme was used: "api-key ***".
var authSchemes = map[string]bool{"api-key": true, "bearer": true, "basic": true, "digest": true, "token": true, "negotiate": true}

// maskHeaders shapes recorded headers as the journal shows them, one value
// per name (several joined with ", "), secret ones masked.
func maskHeaders(fields []headerField) map[string]string {
	out := make(map[string]string, len(fields))
	for _, f := range fields {
		if prev, ok := out[f.name]; ok {
			out[f.name] = prev + ", " + f.value
		} else {
			out[f.name] = f.value
		}
	}
	for name, v := range out {
		if !pricing.SecretName(name) {
			continue
		}
		scheme, _, ok := strings.Cut(strings.TrimSpace(v), " ")
		if ok && strings.Contains(pricing.NormalName(name), "authorization") && authSchemes[strings.ToLower(scheme)] {
			out[name] = scheme + " " + masked
		} else {
			out[name] = masked
		}
	}
	return out
}

// maskBody returns a body as the journal shows it: a JSON value when it is
// JSON, a string otherwise, nil when empty; secrets masked.
func maskBody(b []byte, contentType string) json.RawMessage {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	text := maskText(b, contentType)
	if json.Valid(text) {
		var buf bytes.Buffer
		if json.Compact(&buf, text) == nil {
			return buf.Bytes()
		}
	}
	out, _ := json.Marshal(strings.ToValidUTF8(string(text), "\uFFFD"))
	return out
}

// maskText masks a body's secrets, keeping everything else as it was.
func maskText(b []byte, contentType string) []byte {
	mt, params, _ := mime.ParseMediaType(contentType) // lower-cases the type
	if json.Valid(b) {
		// Exact: the structure says which strings are keys.
		out, _, _ := maskJSONText(b)
		return out
	}
	switch {
	case api.IsFormLogin(contentType, b):
		// A form-typed body that starts as JSON does is not taken for a
		// form: POST /sessions reads it as JSON, so it is masked as JSON.
		return []byte(maskQuery(string(b)))
	case strings.HasPrefix(mt, "multipart/") && params["boundary"] != "":
		if out, ok := maskMultipart(b, params["boundary"]); ok {
			return out
		}
	}
	// Malformed JSON, text, a form sent as something else: mask what looks
	// like a secret field, and the whole body if a secret name is left
	// beside the fields masked.
	out, keys, rest := maskJSONText(b)
	if keys == 0 && !bytes.ContainsAny(b, "{\"") && bytes.Contains(b, []byte("=")) {
		out = []byte(maskQuery(string(b)))
		rest = formRest(string(out))
	}
	if namesSecret(rest) {
		return []byte(masked + " (a body that is neither JSON nor form data, naming a secret: masked whole)")
	}
	return out
}

// formRest is a masked form without its masked arguments.
func formRest(form string) string {
	var rest []string
	for _, part := range strings.FieldsFunc(form, func(c rune) bool { return c == '&' || c == ';' }) {
		if k, v, _ := strings.Cut(part, "="); v != masked || !pricing.SecretName(k) {
			rest = append(rest, part)
		}
	}
	return strings.Join(rest, "&")
}

// maskJSONText masks the value of every secret key of a JSON text (or of a
// text that looks like JSON: it reads on through errors) and returns it with
// the number of keys it masked, and the text without the masked fields
// (their names and values). A null value stays null.
func maskJSONText(b []byte) ([]byte, int, string) {
	s := string(b)
	var out, others strings.Builder
	keys := 0
	out.Grow(len(s))
	for len(s) > 0 {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			out.WriteString(s)
			others.WriteString(s)
			break
		}
		out.WriteString(s[:i])
		others.WriteString(s[:i])
		str, n := scanString(s[i:])
		out.WriteString(s[i : i+n])
		name := s[i : i+n]
		s = s[i+n:]
		ws := len(s) - len(strings.TrimLeft(s, " \t\r\n"))
		if ws >= len(s) || s[ws] != ':' || !pricing.SecretName(unescapeJSON(str)) {
			others.WriteString(name)
			continue
		}
		// A secret key: keep the colon, replace the value.
		out.WriteString(s[:ws+1])
		s = s[ws+1:]
		lead := len(s) - len(strings.TrimLeft(s, " \t\r\n"))
		out.WriteString(s[:lead])
		s = s[lead:]
		v := valueLen(s)
		if strings.HasPrefix(s, "null") && v == 4 {
			out.WriteString("null")
		} else {
			out.WriteString(`"` + masked + `"`)
			keys++
		}
		s = s[v:]
	}
	return []byte(out.String()), keys, others.String()
}

// scanString reads the JSON string at the start of s (s[0] is '"'): its
// content between the quotes, still escaped, and the length read. An
// unterminated string runs to the end.
func scanString(s string) (string, int) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return s[1:i], i + 1
		}
	}
	return s[1:], len(s)
}

// valueLen is the length of the JSON value at the start of s: a string, an
// object or array (to its matching bracket), or a literal (to the next
// delimiter); an unterminated one runs to the end.
func valueLen(s string) int {
	if s == "" {
		return 0
	}
	switch s[0] {
	case '"':
		_, n := scanString(s)
		return n
	case '{', '[':
		depth := 0
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '"':
				_, n := scanString(s[i:])
				i += n - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(s)
	}
	if i := strings.IndexAny(s, ",}]\r\n"); i >= 0 {
		return i
	}
	return len(s)
}

// unescapeJSON undoes the escapes of a JSON string's content, leaving a
// broken one as it is: "pass\u0077ord" is the name "password".
func unescapeJSON(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'u':
			if r, ok := hex4(s[i+1:]); ok {
				b.WriteRune(r)
				i += 4
			} else {
				b.WriteString(`\u`)
			}
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b', 'f':
		default:
			b.WriteByte(c) // \" \\ \/ and anything else
		}
	}
	return b.String()
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	if !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	return r, true
}

// maskMultipart masks a multipart body part by part: a part with a secret
// name becomes "***", the others are masked as bodies of their own type.
// ok is false when the body is not the multipart its type says.
func maskMultipart(b []byte, boundary string) ([]byte, bool) {
	delim := "--" + boundary
	s := string(b)
	first := strings.Index(s, delim)
	if first < 0 {
		return nil, false
	}
	var out strings.Builder
	out.WriteString(s[:first])
	s = s[first:]
	for {
		// s starts with a delimiter line.
		s = s[len(delim):]
		if strings.HasPrefix(s, "--") {
			out.WriteString(delim + s)
			return []byte(out.String()), true
		}
		out.WriteString(delim)
		next := strings.Index(s, "\r\n"+delim)
		if next < 0 {
			return nil, false // cut short: no closing delimiter
		}
		part := s[:next+2]
		s = s[next+2:]
		head, body, ok := strings.Cut(part, "\r\n\r\n")
		if !ok {
			return nil, false
		}
		hdr, err := textproto.NewReader(bufio.NewReader(strings.NewReader(strings.TrimPrefix(head, "\r\n") + "\r\n\r\n"))).ReadMIMEHeader()
		if err != nil {
			return nil, false
		}
		_, disp, _ := mime.ParseMediaType(hdr.Get("Content-Disposition"))
		content := strings.TrimSuffix(body, "\r\n")
		if pricing.SecretName(disp["name"]) || pricing.SecretName(disp["filename"]) {
			content = masked
		} else {
			content = string(maskText([]byte(content), hdr.Get("Content-Type")))
		}
		out.WriteString(head + "\r\n\r\n" + content + "\r\n")
	}
}
