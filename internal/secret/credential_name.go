package secret

import "regexp"

// CredentialName is systemd's credential name alphabet as the contract
// allows it for SecretSource.credential: the schema checks a document
// against it and the resolver checks it again before it joins the name to
// $CREDENTIALS_DIRECTORY.
var CredentialName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
