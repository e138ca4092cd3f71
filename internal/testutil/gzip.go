package testutil

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"testing"
)

// Gzip compresses data as cloud-init's gzip encodings expect it.
func Gzip(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// GzipBase64 is data as a write_files entry with encoding gz+b64 holds it.
func GzipBase64(t testing.TB, data []byte) string {
	t.Helper()
	return base64.StdEncoding.EncodeToString(Gzip(t, data))
}
