// Package source reads the node's configuration document out of what
// delivers it, from bytes alone: a standalone document, a #cloud-config
// with corium: or with a write_files entry for /etc/corium/config.yaml
// (FilePath, decoded as cloud-init decodes it, every encoding cloud-init
// knows), a kernel command line with corium.config=data: and its
// corium.config.sha256= pin, and a boot loader's script whose kernel line
// carries that command line (the linux line of a GRUB entry or grub.cfg,
// the kernel line of an iPXE script), read as the interpreter runs the
// script (ipxe_run.go, grub_run.go): a grammar followed completely, by
// allow-list, and anything else refused by line and command, so the line
// checked is the line the script boots. Unpack is that one reader, for
// validate, validate --cluster, plan and apply --config alike; the chain a
// booted node runs (internal/source/chain) reads the same shapes through it.
//
// Each boot loader is one Loader in one table (loader.go): its name, its
// files' suffixes, its reader of a script and its printer of one carrying
// the parameters (GRUB's quoting, the iPXE script cmdline --ipxe prints).
// Unpack, validate's directories and help, and cmdline's choice of loader
// read the table, so a new loader is its own file and an entry there.
//
// The kernel command line's parameters are read here too (ReadParams: the
// pin checked first, a line the kernel cut at MaxCmdline told apart from a
// whole one), and a document they name is judged here whoever read it
// (Params.Accept): the pin, an empty document, a missing block. Fetching a
// URL or reading a path under a root is the chain's.
//
// A document is a cloud-config when it comes from cloud-init or starts with
// the #cloud-config header; a cloud-config holds the block only under
// corium:, whatever its other keys. A document is read once, into a
// schema.Tree (Inspect), which says whether a block is there from the
// top-level keys alone (the block's content is the schema's to judge, with
// line numbers, so a typo beside role: is reported, never skipped). Unpack
// parses a file once too (schema.ReadYAML) to tell its shape, and the
// Delivery hands that parse on (Delivery.Tree): only a document decoded out
// of write_files, which no one parsed yet, is parsed there.
//
// Errors never quote the document: an inline data: document shows only its
// size, and URLs lose their query string and user info. A finding inside a
// document decoded out of a file is placed by the file's line carrying it
// (Delivery.Decoded) and shown with a window of the decoded line
// (Delivery.Excerpt), every value that could be a secret masked
// (schema.Tree.Masked).
//
// It reads no file, fetches nothing and links no net/http; it does not
// decode or validate the block (schema does).
package source
