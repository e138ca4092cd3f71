// Package k0syaml is the codec of the parts of /etc/k0s/k0s.yaml the agent
// renders for its node, and of the join token file: the typed Node, whose
// kine datasource and VRRP password are secret.Value; Tree, the form render
// merges under k0s.patch, and Marshal, the one writer of the file; Parse,
// which reads the agent's fields out of a k0s.yaml as k0s reads them; and
// the redacted forms a plan shows (Node.Redacted, Redact, Token.Redacted)
// and resolve and the applied record show of k0s.patch (RedactedPatch).
//
// The agent's own secrets are known by type and tag: every secret.Value
// field of Node, tagged `secret:"kind"`, is a secret of the file at the
// path its JSON names spell; Tree writes it, Parse reads it and Redact
// hides it there, each by reflection over the types (secret's one walk),
// so a field added to types.go is written, read and hidden with no list
// of keys to update. What the file holds beyond
// them (k0s.patch's values, a helm repository's password) is free text to
// the codec; FreeTextSecretKeys names the keys hidden in it at any depth.
// PatchSecrets names, in a k0s.patch tree, every place holding what a plan
// masks in the file (the agent's secret paths and the free-text keys), and
// RedactedPatch hides them, through the one walk Redact uses
// (secret_walk.go), so the command line, the records and the outputs
// refuse and hide the same list the plan masks. UnderKeys is that walk
// for a reader that knows secrets by their keys alone, at any depth: a
// finding's window over free-form maps (schema) and a plan's reading of a
// Secret YAML file (bootstrap) use it, so no second such walk exists.
// Redact places what it hides on secret.Text, which writes the marker,
// and reads a block scalar's text (a helm chart's values) as the YAML it
// is to a chart, so a plan needs no parser of its own for it.
//
// It is a leaf of the pure core: the standard library, the two YAML
// libraries (yaml.v3 writes the file and gives Redact its lines;
// sigs.k8s.io/yaml reads it as k0s does), secret.Value, and yamltext's
// reading of a quoted scalar and of where a value ends. It reads no file;
// what the file holds is render's choice, and merging k0s.patch is the
// k0s tree's.
package k0syaml
