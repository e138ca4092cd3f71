package schema

import (
	"fmt"
	"strings"
)

// Reference is docs/reference.md: every field of the block with its type,
// default, rules and an example, built by the same walk as JSONSchema.
func Reference() string {
	d, _ := describeConfig()
	var b strings.Builder
	b.WriteString(referenceIntro)
	var block, source []field
	for _, f := range d.fields {
		if strings.HasPrefix(f.Path, "SecretSource.") {
			source = append(source, f)
		} else {
			block = append(block, f)
		}
	}
	b.WriteString("\n## The block\n")
	writeFields(&b, block)
	writeRolePorts(&b)
	b.WriteString("\n## SecretSource\n\n" + typeDocs["secret.Source"] +
		" Used by `join.tokenFrom`, `ha.authPassFrom`, `wireguard[].privateKeyFrom` and" +
		" `wireguard[].peers[].presharedKeyFrom`.\n")
	writeFields(&b, source)
	return b.String()
}

func writeFields(b *strings.Builder, fields []field) {
	for _, f := range fields {
		fmt.Fprintf(b, "\n### `%s`\n\n", f.Path)
		if f.Doc != "" {
			b.WriteString(f.Doc + "\n\n")
		}
		if n := fieldNotes[f.Path]; n != "" {
			b.WriteString(n + "\n\n")
		}
		fmt.Fprintf(b, "- **type:** %s\n", f.Type)
		def := f.Default
		if def == "" {
			def = "none"
		}
		fmt.Fprintf(b, "- **default:** %s\n", def)
		if len(f.Rules) > 0 {
			fmt.Fprintf(b, "- **rules:** %s\n", strings.Join(f.Rules, "; "))
		}
		fmt.Fprintf(b, "- **example:**\n\n```yaml\n%s```\n", exampleYAML(f.Path, f.Example))
	}
}

// exampleYAML nests value under its path: wireguard[].peers[].endpoint
// becomes a list item inside a list item.
func exampleYAML(path, value string) string {
	if rest, ok := strings.CutPrefix(path, "SecretSource."); ok {
		path = "join.tokenFrom." + rest
	}
	var b strings.Builder
	indent := ""
	segs := strings.Split(path, ".")
	for i, seg := range segs {
		name, list := strings.CutSuffix(seg, "[]")
		if i == len(segs)-1 {
			fmt.Fprintf(&b, "%s%s: %s\n", indent, name, value)
			break
		}
		fmt.Fprintf(&b, "%s%s:\n", indent, name)
		indent += "  "
		if list {
			segs[i+1] = "- " + segs[i+1] // the next key opens a list item
		}
	}
	return fixListIndent(b.String())
}

// fixListIndent moves the keys under a "- " item to line up with it.
func fixListIndent(s string) string {
	lines := strings.Split(s, "\n")
	shift := 0
	for i, l := range lines {
		if l == "" {
			continue
		}
		trimmed := strings.TrimLeft(l, " ")
		pad := len(l) - len(trimmed) + shift
		if strings.HasPrefix(trimmed, "- ") {
			lines[i] = strings.Repeat(" ", pad) + trimmed
			shift += 2
			continue
		}
		lines[i] = strings.Repeat(" ", pad) + trimmed
	}
	return strings.Join(lines, "\n")
}

const referenceIntro = `# Configuration reference

<!-- Generated from the Go types by go generate ./internal/schema; do not edit. -->

This is contract v1 of the node configuration read by ` + "`corium-agent`" + `. Every
field below is generated from the same types, tags and comments the validator
uses, so it cannot drift from what ` + "`corium-agent validate`" + ` accepts.

- **Shapes.** A standalone file (` + "`/etc/corium/config.yaml`" + `, the kernel command line,
  the image default) is the block itself or a single ` + "`corium:`" + ` key. A
  cloud-config (first line ` + "`#cloud-config`" + `) holds the block under ` + "`corium:`" + `;
  its other keys belong to cloud-init and are ignored.
- **Unknown keys are errors** inside the block, except in the free-form maps
  ` + "`node.labels`" + ` and ` + "`k0s.patch`" + `.
- **Anchors and merge keys** share settings: ` + "`- &hub {...}`" + ` on one peer and
  ` + "`- <<: *hub`" + ` on the next, or, in a cloud-config, an anchored top-level key beside
  ` + "`corium:`" + `. A mapping's own keys win over merged ones, and of several merged
  mappings (` + "`<<: [*a, *b]`" + `) the first wins; a merged key is checked, and placed
  in messages, at its line in the mapping merged.
- **Paths** are spelled as in messages: ` + "`wireguard[0].peers[1].allowedIPs[0]`" + `;
  here ` + "`[]`" + ` stands for any item.
- **Check a file:** ` + "`corium-agent validate [--strict] [--cluster] [--topology FILE] [--facts FILE|DIR] [--format text|json] FILE|DIR...`" + `
  (exit 0 valid, 1 invalid, 2 unreadable or a usage error); a directory is its
  ` + "`*.yaml`" + `, ` + "`*.yml`" + `, ` + "`*.cmdline`" + `, ` + "`*.cfg`" + ` and ` + "`user-data`" + ` files, sorted, and
  ` + "`--facts`" + ` adds what ` + "`plan --facts`" + ` checks on that host. With ` + "`--cluster`" + ` (the files are the
  nodes of one cluster, [cluster.md](cluster.md)), ` + "`--facts DIR`" + ` holds each node's own facts,
  ` + "`NODE.json`" + ` by its ` + "`node.name`" + ` or its file's name less the extension, and every check
  that needs a host runs with that node's (a node without facts there is a warning, a
  file no node takes a usage error); one ` + "`--facts FILE`" + ` is then every file's host, for
  each file's own checks only. Text lines are
  ` + "`FILE:LINE:COL: [warning: ]PATH: message`" + `. Where the document is decoded out of
  the file (a ` + "`.cmdline`" + ` file, an iPXE script, a GRUB entry, an encoded ` + "`write_files`" + `
  content), a finding is ` + "`FILE:LINE: PLACE (decoded) LINE:COL: [warning: ]PATH: message`" + `,
  the file's line that carries the document, then where it is (` + "`corium.config`" + `,
  ` + "`write_files[0].content`" + `) and the position in the decoded document, and two
  indented lines follow it: a window of at most 60 characters of the decoded line
  (` + "`…`" + ` where cut), every value that could be a secret masked as ` + "`plan`" + ` masks it,
  and a ` + "`^`" + ` under the column ([pxe.md](pxe.md#findings-inside-a-script)). This
  grows the contract's form (the path, then the explanation, with ` + "`line:col`" + `
  where the YAML has one) by the carrying line and the window, which quotes no
  secret. ` + "`--format json`" + ` prints
  ` + "`{\"files\": [{\"file\", \"valid\", \"shape\", \"findings\": [{\"path\", \"line\", \"col\", \"severity\", \"message\"}], \"error\"}]}`" + `
  (` + "`error`" + ` only for a file that could not be read). Warnings fail only under ` + "`--strict`" + `.
- **A cluster's topology** is no node's configuration (ADR 6: a node's block holds its
  own view): ` + "`validate --cluster --topology NAME.topology`" + ` reads it, and nothing on a
  node does. Its name must end in ` + "`.topology`" + `, which no directory of documents is read
  for; ` + "`plan`" + `, ` + "`apply`" + `, ` + "`resolve`" + ` and ` + "`firewall`" + ` refuse such a file as ` + "`--config`" + ` (exit 2),
  and ` + "`validate`" + ` takes it only with ` + "`--topology`" + `. It is YAML, read strictly (an unknown key,
  a wrong type, a name given twice, an address that is no IP: an error at its path, as
  ` + "`nat[0].public`" + `, and the set is then checked without it). ` + "`sites[].name`" + ` names a site and
  ` + "`sites[].nodes`" + ` the nodes that share its underlay, each at one site; ` + "`nat[]`" + ` is a node of a
  site behind a 1:1 NAT (addresses mapped, ports kept): ` + "`node`" + `, its ` + "`private`" + ` address, dialled
  from its own site, and its ` + "`public`" + ` one, dialled from everywhere else. Nodes are named by
  ` + "`node.name`" + ` or their file's name less the extension; a name no node of the set has is
  an error. Each peer ` + "`endpoint`" + ` that dials such a node is then held to its dialler's site
  (the other address: an error at the dialler's entry; its public address from its own
  site: a warning, a hairpin through the NAT), a ` + "`listenPort`" + ` its every dialler disagrees
  with is an error (the NAT keeps ports), and the node is no longer warned of as
  dialled at two endpoints ([cluster.md](cluster.md#sites-and-11-nat-the-topology)):

` + "```yaml" + `
sites:
  - {name: office, nodes: [c1]}
  - {name: cloud, nodes: [w1, w2]}
nat:
  - {node: w1, private: 10.0.1.21, public: 203.0.113.21}
` + "```" + `

- **At most 1,000 findings** of a document are shown: past them, one more,
  ` + "`and K more findings`" + ` (no path, no position), stands for the rest, in
  ` + "`validate`" + `'s text and JSON, in what ` + "`resolve`" + `, ` + "`plan`" + ` and ` + "`apply`" + ` print, and in
  the status file. It is the one exception to reporting every problem at once,
  for documents built to make that many (a mapping of unknown keys merged a
  thousand times); fix what is shown and check again. A mapping a merge key or
  an alias brings in many times is reported once per key, at its line, and a
  document that expands to more than about four times its own size is refused.
- **Editors:** ` + "`corium-agent schema > corium.schema.json`" + ` writes the JSON Schema;
  with yaml-language-server, start the file with
  ` + "`# yaml-language-server: $schema=corium.schema.json`" + `. The schema knows
  every field, type, enum, pattern and range; rules across fields (overlaps,
  duplicate keys, what ` + "`ha`" + ` needs when enabled) are checked by ` + "`validate`" + ` only.
- Secret values (` + "`join.token`" + `, ` + "`ha.authPass`" + `, ` + "`privateKey`" + `, ` + "`presharedKey`" + `, the datasource
  ` + "`storage.dataSourceFrom`" + ` gives)
  never appear in a message, log, status or plan. Inline secrets are a liability:
  prefer the ` + "`...From`" + ` SecretSource fields.
`

// writeRolePorts lists each role's k0s ports, from the effective configuration itself (Effective).
func writeRolePorts(b *strings.Builder) {
	b.WriteString("\n## The role's k0s ports\n\nWhat `firewall.clusterPorts: overlay` guards and `firewall.publicPorts` picks from, with the default storage.\n\n| role | cni | ports |\n|---|---|---|\n")
	for _, r := range []Role{RoleSingle, RoleController, RoleControllerWorker, RoleWorker} {
		for _, cni := range []CNI{CNIKubeRouter, CNICalico, CNICustom} {
			if r == RoleController && cni != CNIKubeRouter {
				continue // no kubelet, no CNI ports
			}
			var ports []string
			for _, p := range Effective(&Config{Role: r, Network: Network{CNI: cni}}).Ports.Role {
				ports = append(ports, fmt.Sprintf("%d/%s", p.Number, p.Proto))
			}
			c := string(cni)
			if r == RoleController {
				c = "any"
			}
			fmt.Fprintf(b, "| %s | %s | %s |\n", r, c, strings.Join(ports, ", "))
		}
	}
	on := true
	var ports []string
	for _, p := range Effective(&Config{Role: RoleController, HA: HA{Enabled: &on, VirtualIP: "192.0.2.100/24"}}).Ports.Role {
		ports = append(ports, fmt.Sprintf("%d/%s", p.Number, p.Proto))
	}
	fmt.Fprintf(b, "| controller, `ha.enabled` | any | %s |\n", strings.Join(ports, ", "))
	b.WriteString("\nThe ports are those of the followed listeners of the table in docs/firewall.md (\"Every listener k0s opens\"), which the guard's set is computed from. " +
		"2380/tcp is etcd's peers with etcd (a single node given `storage.type: etcd`, and `controller` by default), and kine's metrics with `sqlite` or `kine`: k0s starts kine with its metrics on every address at 2380. " +
		"With `ha.enabled` a controller adds 6444/tcp, the control-plane load balancer's proxy to the API: it reaches the same API servers and k0s redirects the virtual IP's API port to it, so it is guarded or public with 6443 " +
		"(listing 6443 in `firewall.publicPorts` makes 6444 public too, and the guard's summary shows 6444/tcp beside 6443). " +
		"With `spec.network.nodeLocalLoadBalancing.enabled` in `k0s.patch`, roles with a kubelet add 8093/tcp, the konnectivity agent's health, which then runs in the host network.\n")
}
