package main

import (
	"net/url"
	"reflect"

	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/secret"
)

var secretSourceType = reflect.TypeFor[secret.Source]()

// redactSourceURLs rewrites, in place, every SecretSource URL under v (a
// pointer) whose query string, user info or fragment may carry a credential
// (a presigned URL's signature), so that a printed configuration shows where
// a secret comes from and nothing that grants it.
func redactSourceURLs(v any) {
	redactWalk(reflect.ValueOf(v))
}

func redactWalk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			redactWalk(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == secretSourceType {
			if src := v.Addr().Interface().(*secret.Source); src.URL != "" {
				src.URL = redactedSourceURL(src.URL)
			}
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				redactWalk(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			redactWalk(v.Index(i))
		}
	}
}

// redactedSourceURL keeps scheme, host and path, and marks what was taken out.
func redactedSourceURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return secret.Redacted
	}
	if u.User == nil && u.RawQuery == "" && !u.ForceQuery && u.Fragment == "" {
		return raw
	}
	return fetch.Redact(raw) + "?" + secret.Redacted
}
