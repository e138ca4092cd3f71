package source

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func itoa(n int) string { return strconv.Itoa(n) }
