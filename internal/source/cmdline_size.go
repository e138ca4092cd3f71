package source

import "strings"

// CmdlineSize is what a kernel command line takes of the MaxCmdline bytes
// the kernel keeps.
type CmdlineSize struct {
	// Whole is the line's length in bytes, as the kernel is handed it.
	Whole int
	// Corium is what the agent's parameters (corium.config= and the other
	// corium.* ones, and the credentials set for it) take, with one space
	// between each two.
	Corium int
	// Rest is what the rest of the line takes (the boot loader's
	// parameters and the spaces between them); -1 when the line holds the
	// agent's parameters alone, as corium-agent cmdline prints them to be
	// added to a boot entry, where the rest is not known.
	Rest int
}

// MeasureCmdline measures line, a whole kernel command line as the kernel
// is handed it (one line, as /proc/cmdline shows it without its newline).
// A reader of another form of the line (a boot loader's entry) measures
// the line the boot loader builds from it.
func MeasureCmdline(line string) CmdlineSize {
	line = strings.TrimSpace(line)
	s := CmdlineSize{Whole: len(line), Rest: -1}
	ours, others := 0, 0
	for _, tok := range splitCmdline(line) {
		if key, _, _ := strings.Cut(tok, "="); strings.HasPrefix(key, "corium.") || len(LineCredentials(tok)) > 0 {
			s.Corium += len(tok)
			ours++
			continue
		}
		others++
	}
	s.Corium += max(ours-1, 0)
	if others > 0 {
		// Whatever the line holds beyond the agent's parameters and one
		// space before them is the rest's: quotes, repeated blanks.
		s.Rest = max(s.Whole-s.Corium-1, 0)
	}
	return s
}
