package source

// GRUB reads grub.cfg as a shell-like script: the parameters `corium-agent
// cmdline --grub` prints are quoted for it, and an operator pastes them onto
// the linux line of a boot entry. A workstation reads that line as GRUB
// hands it to the kernel, so the document checked is the one the node gets.

// grubLoader is GRUB's script: a grub.cfg, or the parameters quoted for
// its linux line.
var grubLoader = Loader{
	Name:     "grub",
	Noun:     "a GRUB entry",
	Suffixes: []string{".cfg"},
	Usage:    "quote the parameters for GRUB's linux line (grub.cfg)",
	entry:    grubEntry,
	via:      "GRUB linux",
	undone:   "GRUB's quotes undone, ",
	script:   grubScript,
}

// grubEntry is the kernel line a GRUB script boots, read as GRUB runs it
// (grubBooted), when it names corium.config= (booted).
func grubEntry(data []byte) (line string, at int, ok bool, err error) {
	line, at, ok, err = grubBooted(string(data))
	return booted(data, "GRUB", line, at, ok, err)
}
