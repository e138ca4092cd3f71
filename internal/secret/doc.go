// Package secret holds secret values that cannot print themselves and resolves
// SecretSources (file under the root, https URL, systemd credential) at boot,
// retrying "not there yet" until waitFor runs out.
//
// It does not validate the shape of a Source (schema does) and never logs a
// value or a URL's query string.
package secret
