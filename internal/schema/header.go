package schema

import (
	"bytes"
	"fmt"

	"github.com/corium/corium-agent/internal/finding"
)

// cloudConfigHeader is what a cloud-config starts with.
const cloudConfigHeader = "#cloud-config"

// bom is UTF-8's byte order mark, which some editors on Windows put first.
var bom = []byte("\ufeff")

// IsCloudConfig reads the header as cloud-init does (handlers'
// type_from_starts_with): leading whitespace skipped, case ignored, and
// #cloud-config-archive and #cloud-config-jsonp being other formats.
func IsCloudConfig(data []byte) bool {
	head := bytes.TrimLeft(data, " \t\r\n\v\f")
	// Only the longest header read below, not the whole document.
	head = bytes.ToLower(head[:min(len(head), len(cloudConfigHeader+"-archive"))])
	return bytes.HasPrefix(head, []byte(cloudConfigHeader)) &&
		!bytes.HasPrefix(head, []byte(cloudConfigHeader+"-archive")) &&
		!bytes.HasPrefix(head, []byte(cloudConfigHeader+"-jsonp"))
}

// misplacedHeader finds a #cloud-config header cloud-init would not see: one
// behind a byte order mark (cloud-init does not skip it, so the first
// character is not #), or one below a comment such as an editor's modeline.
// cloud-init then takes the file for no cloud-config and ignores it
// ("needs to begin with #cloud-config"); read as a standalone document it
// would give a finding for each of its cloud-init keys instead of the one
// that matters. nil when the document has no such header.
func misplacedHeader(data []byte) *finding.Finding {
	if rest, ok := bytes.CutPrefix(data, bom); ok && IsCloudConfig(rest) {
		return &finding.Finding{Line: 1, Col: 1, Severity: finding.Error,
			Message: "the file starts with a byte order mark (U+FEFF) before " + cloudConfigHeader + ", and cloud-init reads the header only as the very first characters: it takes the file for no cloud-config and ignores it; save the file as UTF-8 without a byte order mark"}
	}
	i := -1
	for line := range bytes.Lines(data) { // lazily: it stops at the content
		i++
		text := bytes.TrimSpace(bytes.TrimPrefix(line, bom))
		switch {
		case len(text) == 0:
			continue
		case IsCloudConfig(text):
			return &finding.Finding{Line: i + 1, Col: 1, Severity: finding.Error,
				Message: fmt.Sprintf("%s is on line %d, but cloud-init reads the header only on the first line: it takes the file for no cloud-config and ignores it; move %s to line 1, above any comment or modeline",
					cloudConfigHeader, i+1, cloudConfigHeader)}
		case text[0] != '#':
			return nil // the document's content begins: no header above it
		}
	}
	return nil
}
