// Package hostile attacks the agent's promise that no secret leaks, from the
// attacker's side: a corpus of broken and malicious documents
// (testdata/hostile) — typos that turn values into keys and keys into
// values, secrets in every field that is not a secret, anchors and aliases
// named like secrets, tags, wrong types around every secret field, keys cut
// short and padded, secret URLs carrying credentials, cloud-configs with
// passwords around the block — each run through every command an operator
// pastes from (validate, plan, plan and apply --again on a provisioned node,
// apply, resolve, status, and cmdline, whose line is searched with the
// document decoded out of it), given as a file and inline on the kernel
// command line. Every
// output stream, every sd_notify line and every file written is searched for
// every secret in raw, base64 and hex form and for any 12 characters of it;
// a file may hold a secret only when it is the 0600 file in a 0700
// directory that the secret is for. A document that names secrets on a
// "# holds: NAME..." line must provision with them: each has to rest in the
// file it is for.
//
// It holds tests, and the corpus's placeholders (Corpus) for test/agree,
// which runs the same documents.
package hostile
