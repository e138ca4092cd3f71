package source

import (
	"fmt"

	"github.com/corium/corium-agent/internal/finding"
)

// CmdlineRoom is what the rest of a typical line needs beside the agent's
// parameters: the boot loader's BOOT_IMAGE=, root=, a bootc entry's
// ostree= and boot=, console=, ip= take a few hundred bytes.
const CmdlineRoom = 512

// CmdlineFit says whether a kernel command line fits in what the kernel
// keeps of it (MaxCmdline), as a finding without a path (it is the whole
// line's): an error when it does not, nil when it does. Of a line that
// holds the agent's parameters alone (Rest unknown) it warns, too, when
// they leave less than CmdlineRoom for the rest. validate, validate --for
// cmdline, validate --cluster and cmdline all judge a line by it.
func CmdlineFit(s CmdlineSize) *finding.Finding {
	if s.Rest >= 0 {
		if s.Whole <= MaxCmdline {
			return nil
		}
		return &finding.Finding{Severity: finding.Error, Message: fmt.Sprintf(
			"the kernel command line takes %d bytes, and the kernel keeps %d of it: the rest of the line (the boot loader's parameters) already takes %d, and the parameters that carry this document %d; what stands past the limit is cut off without a word, and the node refuses a cut %s=: put the document in a file or at a URL (%s=https://... with %s=), shorten it (comments count), or drop parameters from the rest of the line",
			s.Whole, MaxCmdline, s.Rest, s.Corium, ParamConfig, ParamConfig, ParamSHA256)}
	}
	switch left := MaxCmdline - s.Corium - 1; {
	case left < 0:
		return &finding.Finding{Severity: finding.Error, Message: fmt.Sprintf(
			"the kernel command line parameters that carry this document take %d bytes, and the kernel keeps %d of the whole line; a longer line is cut, and the node refuses a cut one: put the document in a file or at a URL (%s=https://... with %s=), or shorten it (comments count)",
			s.Corium, MaxCmdline, ParamConfig, ParamSHA256)}
	case left < CmdlineRoom:
		return &finding.Finding{Severity: finding.Warning, Message: fmt.Sprintf(
			"the kernel command line parameters that carry this document take %d of the %d bytes the kernel keeps of the whole line, leaving %d for the rest of it (BOOT_IMAGE=, root=, console= and the like take a few hundred); a longer line is cut, and the node refuses a cut one: shorten the document (comments count) or put it in a file or at a URL",
			s.Corium, MaxCmdline, left)}
	}
	return nil
}
