// Package secret holds secret values that cannot print themselves (Value) and
// resolves SecretSources (Source) at boot with a Resolver: a file under the
// root (its links followed inside the root, as a chroot would), an https URL
// through package fetch, or a systemd credential from
// $CREDENTIALS_DIRECTORY. A "not there yet" answer is retried through package
// retry until the source's waitFor runs out; each retry is reported per field
// path to the log and, under systemd, to the unit's status line.
//
// A file, an authFile or a credential that is not a regular file (a FIFO, a
// directory, a device, a socket) fails at once: waiting will not turn it
// into a secret, and opening a FIFO would block past waitFor. Each is opened
// O_PATH and checked before it is read (package rootfs), credentials too,
// with their directory as the root.
//
// Contents are trimmed of surrounding whitespace. An empty file, credential or
// response body counts as "not there yet", like a missing one, because a
// secret written by another unit can be seen half-made, and an empty secret
// is never the intended one.
//
// A Source prints and marshals itself with its URL redacted (RedactURL), so a
// configuration written back out never carries a presigned signature.
//
// It does not validate the shape of a Source (schema does), and it never puts
// a value, an authFile's content or a URL's query string into a log line, an
// error or a status line. It does not walk a Config for its sources: schema
// imports this package, so the caller that has the Config (firstboot) does.
package secret
