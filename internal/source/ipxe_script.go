package source

import (
	"fmt"
	"net/url"
	"strings"
)

// ipxeScript is the iPXE script that boots boot's kernel and initrd (URIs,
// a relative one taken from where the script was fetched) with params
// first on the kernel's command line, then boot's other parameters (root=
// console= and the like). iPXE has no quoting, so
// nothing is escaped: a line iPXE would change (CheckIPXELine) is
// refused, naming what to change. line is the kernel's command line the
// script hands over, for measuring.
func ipxeScript(params []string, boot Boot) (script, line string, err error) {
	kernel, initrd, rest := boot.Kernel, boot.Initrd, boot.Append
	for flag, uri := range map[string]string{"--kernel": kernel, "--initrd": initrd} {
		if uri == "" || strings.ContainsAny(uri, " \t") {
			return "", "", fmt.Errorf("%s: must be one URI, without blanks", flag)
		}
		if err := CheckIPXELine(uri); err != nil {
			return "", "", fmt.Errorf("%s: %w; name the file plainly (a relative URI is taken from where the script was fetched)", flag, err)
		}
		if u, err := url.Parse(uri); err == nil && u.User != nil {
			// Said, not quoted: the user and password are the secret.
			return "", "", fmt.Errorf("%s: holds a user and password (user@ before the host), which the script carries in the clear to whoever fetches it; serve the images without them, or from where the script itself was fetched", flag)
		}
	}
	if rest != "" {
		if err := CheckIPXELine(rest); err != nil {
			return "", "", fmt.Errorf("--append: %w; iPXE has no quoting, so write the parameters without it (one space between each two)", err)
		}
	}
	line = strings.Join(params, " ")
	if rest != "" {
		line += " " + rest
	}
	if err := CheckIPXELine(line); err != nil {
		// The document's encoding (base64) holds none of iPXE's specials:
		// should it ever, the document is refused, never escaped.
		return "", "", fmt.Errorf("the parameters that carry the document: %w; iPXE would hand the kernel another line", err)
	}
	if err := CheckBootLine(line); err != nil {
		// --append is checked as the document's parameters are: what the
		// node at boot would refuse is refused here first.
		return "", "", fmt.Errorf("--append: %w", err)
	}
	script = IPXEHeader + "\nkernel " + kernel + " " + line + "\ninitrd " + initrd + "\nboot\n"
	if rest == "" {
		// The rest of the line is not known (the parameters alone, to be
		// measured as such, with room left for the rest).
		return script, line, nil
	}
	// On UEFI the kernel gets the image's name first (efi_image_cmdline).
	return script, ipxeImageName(kernel) + " " + line, nil
}
