// Package image ties the image's own files under image/ (the agent's and the
// guard's units, tmpfiles.d, the preset) to the agent's constants: the
// provisioned marker, the rendered guard, the state, config and status
// directories, and the unit names the agent orders k0s after. Both sides
// spell these paths; a change to one side that the other does not follow
// fails here, without building or booting an image.
//
// It reads files and imports the constants; it runs nothing.
package image
