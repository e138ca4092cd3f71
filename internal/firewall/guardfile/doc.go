// Package guardfile reads the guard rendered under a root (Load): the file
// package firewall's Guard.File wrote to firewall.FilePath, parsed by
// firewall.ParseFile. A missing file is firewall.ErrNotRendered, one that
// cannot be used firewall.ErrBadFile.
//
// It reads through package rootfs only. It does not render the guard
// (package firewall) or program it (package nft).
package guardfile
