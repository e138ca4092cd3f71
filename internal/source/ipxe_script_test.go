package source

import (
	"strings"
	"testing"
)

// An encoding holding a special is refused, never escaped (base64 holds
// none; the rule stands should the encoding change).
func TestIPXEScriptRefusesTheDocumentsSpecials(t *testing.T) {
	for _, p := range []string{"corium.config=data:,${x}", "#corium.config=x", `corium.config=x\`, ";"} {
		if _, _, err := ipxeScript([]string{"corium.config.sha256=00", p}, Boot{Kernel: "vmlinuz", Initrd: "initrd.img"}); err == nil || !strings.Contains(err.Error(), "the parameters that carry the document") {
			t.Errorf("%q: %v", p, err)
		}
	}
}
