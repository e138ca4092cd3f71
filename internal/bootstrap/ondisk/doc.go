// Package ondisk reads from the root, before rendering, what render needs of
// the node's disk and takes as input: the wg-quick file of each interface the
// last run applied (ReadPrevious, render.Inputs.Previous) and the enable
// links of each wg-quick@ unit, from the template's [Install] section
// (ReadWgQuickLinks, render.Inputs.WgQuickLinks).
//
// It reads files under the root only (package rootfs), never the live host,
// and decides nothing: render compares and decides. Package bootstrap calls
// it when it sequences a run.
package ondisk
