package yamlfast

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
)

// peersConfig is the benchmark's node configuration: one overlay interface
// with n peers, as bench/gen.py writes it (about 342 KB for 2,000 peers).
func peersConfig(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	key := func() string {
		b := make([]byte, 32)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	var sb strings.Builder
	sb.WriteString("role: controller+worker\nnode:\n  name: bench-node\nwireguard:\n  - name: wg0\n" +
		"    address: 10.10.255.1/16\n    listenPort: 51820\n    nodeAddress: true\n" +
		"    privateKey: " + key() + "\n    peers:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "      - publicKey: %s\n        endpoint: 198.51.100.%d:%d\n"+
			"        allowedIPs: [10.10.%d.%d/32]\n        persistentKeepalive: 25\n",
			key(), i%250+1, 51820+i/250, i/250, i%250+2)
	}
	return []byte(sb.String())
}
