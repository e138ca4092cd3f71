// Package resolve turns SecretSources into secret.Values at boot with a
// Resolver: a file under the root (its links followed inside the root, as a
// chroot would; a regular file only), an https URL through package fetch, or
// a systemd credential from $CREDENTIALS_DIRECTORY. A "not there yet" answer
// is retried through package retry until the source's waitFor runs out; each
// retry is reported per field path to the log and, under systemd, to the
// unit's status line.
//
// Contents are trimmed of surrounding whitespace. An empty file, credential or
// response body counts as "not there yet", like a missing one, because a
// secret written by another unit can be seen half-made, and an empty secret
// is never the intended one.
//
// It does not validate the shape of a Source (schema does), and it never puts
// a value, an authFile's content or a URL's query string into a log line, an
// error or a status line. It does not walk a Config for its sources: the
// caller that has the Config does, through schema.SecretFields.
package resolve
