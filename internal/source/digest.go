package source

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// parsePin checks a corium.config.sha256= value: 64 hex digits, any case.
func parsePin(v string) (string, error) {
	v = strings.ToLower(v)
	if b, err := hex.DecodeString(v); err != nil || len(b) != sha256.Size {
		return "", fmt.Errorf("%s= must be 64 hex digits (the document's SHA-256)", ParamSHA256)
	}
	return v, nil
}

// CheckPin fails when a pin is set and the document's digest differs.
func CheckPin(data []byte, pin string) error {
	if pin == "" {
		return nil
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != pin {
		return fmt.Errorf("digest mismatch: the document's sha256 is %s, %s= pins %s", got, ParamSHA256, pin)
	}
	return nil
}
