// Package nft programs a firewall.Guard into the kernel: Apply builds the
// `inet corium` table in one netlink batch, Remove deletes it, and State
// reads the kernel back and says whether the table in force is the one
// rendered, and what it holds: a table with the masquerade alone never reads
// as a guard. ApplyRendered is what first boot and corium-firewall.service
// run: the guard rendered under the root, programmed.
//
// It is the only package that links github.com/google/nftables. It touches
// nothing outside its own table, ever: no ruleset flush, no other table read
// or written. It does not decide what the guard holds (package firewall does)
// or in which network namespace it runs (apply, the CLI and the image's units
// do).
package nft
