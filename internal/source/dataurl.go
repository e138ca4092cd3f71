package source

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// decodeDataURL returns the bytes of an RFC 2397 data: URL,
// data:[<mediatype>][;base64],<data>. The media type is not checked: the
// document is YAML whatever it claims. Percent-escapes are decoded in both
// forms (RFC 2397 allows them inside base64 too); errors never quote the data,
// which is the whole configuration, join material included.
func decodeDataURL(raw string) ([]byte, error) {
	rest, ok := cutPrefixFold(raw, "data:")
	if !ok {
		return nil, errors.New("not a data: URL")
	}
	header, payload, ok := strings.Cut(rest, ",")
	if !ok {
		return nil, errors.New("data: URL has no comma between its header and its data (data:[;base64],DATA)")
	}
	text, err := url.PathUnescape(payload)
	if err != nil {
		return nil, errors.New("data: URL holds an invalid percent-escape")
	}
	if !hasSuffixFold(header, ";base64") {
		return []byte(text), nil
	}
	// Padding is optional in the wild; accept a document with or without it.
	enc := base64.StdEncoding
	if !strings.HasSuffix(text, "=") && len(text)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	data, err := enc.DecodeString(text)
	if err != nil {
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("data: URL holds invalid base64 at byte %d", int64(ce))
		}
		return nil, errors.New("data: URL holds invalid base64")
	}
	return data, nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}
