// Package rules says what k0s v1.36.3+k0s.0 refuses when a node is
// installed: the ClusterConfig it reads from /etc/k0s/k0s.yaml and the
// command line of `k0s install controller|worker`, and the few things
// `k0s controller|worker` refuses when the installed unit starts.
//
// The rules are written by hand from k0s's own source at that release; each
// one names the k0s file and line it comes from, so a reader can check it
// and the next release can be compared line by line. The package imports
// neither k0s nor Kubernetes's API types and does no I/O (the YAML it reads
// through sigs.k8s.io/yaml, as k0s does): callers hand it bytes and
// arguments, so the same rules serve a unit test on a laptop and the k0s
// stand-in of the boot tests.
//
// What it mirrors:
//   - the decoding k0s does (pkg/apis/k0s/v1beta1/clusterconfig_types.go:313,
//     internal/pkg/strictyaml; its YAML half is sigs.k8s.io/yaml's, called
//     here as k0s calls it): YAML 1.1 scalars, duplicate keys, value types,
//     and unknown keys where k0s's decoder is strict. It is not strict
//     everywhere: spec.api, spec.storage, spec.network and spec.images have
//     UnmarshalJSON methods that decode with a plain json.Unmarshal, so k0s
//     drops unknown keys below them without a word (DroppedKeys lists them);
//   - the keys encoding/json matches to a field only by folding case
//     (Respelled), and the blocks that carry flags, patches and
//     environment variables (ArgBlocks, PatchBlocks, EnvBlocks), read from
//     the same tables, for package k0s to refuse what it would misread;
//   - the Validate methods of the v1beta1 types that a rendered config or a
//     k0s.patch can break;
//   - the flags of the install, controller and worker commands, with the
//     value checks their flag types do while parsing, and the kubelet's rule
//     for the --node-ip that --kubelet-extra-args hands it (one IP or a
//     dual-stack pair; k8s.io/component-helpers node/util/ips.go).
//
// What it does not: rules that depend on the host (the API address and the
// VRRP interface k0s picks from the host's routes and links, a MAC address
// given as a VRRP interface), the kubelet configuration validation behind
// spec.workerProfiles[].values, and anything k0s only finds out while
// running (etcd, kine, the API server refusing its flags).
//
// Command lines go through github.com/spf13/pflag v1.0.10, the library
// and release k0s parses its own with (k0s go.mod:44; its flag sets are
// pflag.FlagSets, pkg/config/cli.go:208-322, cmd/install/install.go:34-43,
// and the unit's line is written by walking one, cmd/install/util.go:37).
// This was a hand-written copy of pflag's loop until issue 35 tried pflag
// itself and kept it, because every rule and every problem's path (the flag
// it names, "--<flag>" where the name is not shown) came out the same: all
// tests here and in schema, cmd and test/agree pass unchanged, and a run of
// 40,051 generated command lines through both parsers differed in three
// cases only, each one where the copy had drifted from k0s (pinned by
// TestArgsAsPflagReads): a string slice of line breaks alone, which
// encoding/csv reads as no record and k0s refuses; a list's text in the unit,
// whose brackets k0s trims with strings.Trim(val, "[]"), so `--taints=[a]`
// is written --taints=a; and a shorthand group from "test." on, which pflag
// skips (isGotestShorthandFlag). The agent renders none of these. parse.go
// and flags.go were 512 lines; with flag_values.go they are 482, what is
// left being k0s's flag table with a source per flag (flags.go), k0s's own
// pflag.Value types (flag_values.go) and the wording of problems (parse.go).
//
// What pflag decides: `--name=value` and `--name value` alike, except for a
// flag with a NoOptDefVal (every boolean's is "true"), which takes no
// separate value (`--single true` leaves "true" a positional argument,
// `--single=false` sets it); any other flag takes the next argument
// whatever it is (`--config --single` sets the config to "--single");
// shorthands group (-dv) and take a value glued on (-lkubelet=2) or with
// '='; a string slice's first value replaces its default and later ones
// append, each read as one CSV record, while a string array takes each value
// whole; "--" ends the flags. Where this package differs from pflag, on
// purpose: the first unknown or malformed flag ends the parse as in k0s, but
// the problem is worded from pflag's error type (NotExistError,
// ValueRequiredError, InvalidSyntaxError), never its text, which quotes the
// argument and so perhaps a value glued on; a value a flag's type refuses is
// recorded through ParseAll and parsing goes on, so every such value is
// named at once where k0s names the first; and defaults are zero, since only
// flags given are read or written into the unit. The subcommand is still
// found as cobra finds it (findSubcommand), asking pflag which flags take a
// value; cobra itself would bring its command tree for that one loop.
package rules

// Version is the k0s release these rules are written from; the image pins
// the same release (Containerfile K0S_VERSION).
const Version = "v1.36.3+k0s.0"
