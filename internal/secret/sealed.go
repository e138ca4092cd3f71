package secret

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
)

// Sealed is what the plaintext header of a systemd encrypted credential
// (what `systemd-creds encrypt` writes) says of it: which key it is
// encrypted with and, for a TPM2 key, the PCRs its policy binds. The
// header is authenticated but not encrypted (systemd's
// src/shared/creds-util.c, struct encrypted_credential_header and
// tpm2_credential_header); the name and the secret are in the ciphertext
// after it and are never read here.
type Sealed struct {
	// Key is the key's name as systemd-creds encrypt --with-key= takes it
	// ("tpm2", "host+tpm2", "null", ...).
	Key string
	// Host says the key takes /var/lib/systemd/credential.secret, the
	// host's own secret on its disk.
	Host bool
	// TPM2 says the key is sealed to a TPM2.
	TPM2 bool
	// PCRs are the PCRs a TPM2 key's policy binds, ascending; nil without
	// TPM2.
	PCRs []int
}

// sealedKeys are systemd 257's key IDs (creds-util.h, CRED_AES256_GCM_BY_*),
// the first 16 bytes of every encrypted credential.
var sealedKeys = map[[16]byte]Sealed{
	id128("5a1c6a86df9d4096b1d5a65e0862f19a"): {Key: "host", Host: true},
	id128("55b9ed1d38594d43a8319d2ebb332ac6"): {Key: "host (scoped)", Host: true},
	id128("0c7cc07b117645919c4b0bea08bc20fe"): {Key: "tpm2", TPM2: true},
	id128("faf7eb9341e3412ca1a436f95a29362f"): {Key: "tpm2-with-public-key", TPM2: true},
	id128("93a894094874449090caf2fc93cab553"): {Key: "host+tpm2", Host: true, TPM2: true},
	id128("ef4ac13679a9480ea7db68897f9f165d"): {Key: "host+tpm2 (scoped)", Host: true, TPM2: true},
	id128("af4950a849134eb1a73846304ff30c05"): {Key: "host+tpm2-with-public-key", Host: true, TPM2: true},
	id128("058469daf6f54324800549da0f8ea2fb"): {Key: "null"},
}

func id128(hex string) [16]byte {
	var id [16]byte
	for i := range id {
		id[i] = unhex(hex[2*i])<<4 | unhex(hex[2*i+1])
	}
	return id
}

func unhex(c byte) byte {
	if c >= 'a' {
		return c - 'a' + 10
	}
	return c - '0'
}

// ErrNotSealed says data is not a ciphertext systemd-creds encrypt writes:
// it may be the secret itself, which is then never quoted.
var ErrNotSealed = errors.New("is not a ciphertext systemd-creds encrypt writes (its header names no key systemd 257 knows)")

// ReadSealed reads the header of an encrypted credential, base64 as
// systemd-creds encrypt prints it (lines joined or not) or binary, and
// returns it with the credential's base64 on one line, as a kernel
// command line or an SMBIOS string carries it.
func ReadSealed(data []byte) (Sealed, string, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(data)), ""))
	if err != nil || !isSealed(raw) {
		raw = data // the binary form
	}
	if !isSealed(raw) {
		return Sealed{}, "", ErrNotSealed
	}
	s := sealedKeys[[16]byte(raw[:16])]
	if s.TPM2 {
		// The TPM2 header follows the IV, padded to 8 bytes.
		ivSize := int(binary.LittleEndian.Uint32(raw[28:32]))
		at := (32 + ivSize + 7) &^ 7
		if ivSize > 64 || len(raw) < at+8 {
			return Sealed{}, "", errors.New("is cut short: its TPM2 header is missing")
		}
		mask := binary.LittleEndian.Uint64(raw[at:])
		for pcr := range 64 {
			if mask&(1<<pcr) != 0 {
				s.PCRs = append(s.PCRs, pcr)
			}
		}
	}
	return s, base64.StdEncoding.EncodeToString(raw), nil
}

// isSealed says raw starts with a key ID systemd knows and has room for
// the rest of the header.
func isSealed(raw []byte) bool {
	if len(raw) < 32 {
		return false
	}
	_, ok := sealedKeys[[16]byte(raw[:16])]
	return ok
}
