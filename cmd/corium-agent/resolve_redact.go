package main

import (
	"net/url"
	"reflect"

	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/secret"
)

var sourceType = reflect.TypeFor[secret.Source]()

// redactSourceURLs rewrites, in place, every SecretSource URL under v (a
// pointer) whose query string, user info or fragment may carry a credential
// (a presigned URL's signature), so that a printed configuration shows where
// a secret comes from and nothing that grants it.
func redactSourceURLs(v any) {
	walk(reflect.ValueOf(v))
}

func walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == sourceType {
			if src := v.Addr().Interface().(*secret.Source); src.URL != "" {
				src.URL = redactedURL(src.URL)
			}
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walk(v.Index(i))
		}
	}
}

// redactedURL keeps scheme, host and path, and marks what was taken out.
func redactedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return secret.Redacted
	}
	if u.User == nil && u.RawQuery == "" && !u.ForceQuery && u.Fragment == "" {
		return raw
	}
	return fetch.Redact(raw) + "?" + secret.Redacted
}
