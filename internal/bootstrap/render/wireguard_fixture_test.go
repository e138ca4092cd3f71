package render

import (
	"github.com/corium/corium-agent/internal/bootstrap/render/rendertest"
	"github.com/corium/corium-agent/internal/schema"
)

// The test keys and the two-interface worker are rendertest's, which apply's
// tests share.
const (
	testPrivA = rendertest.PrivA
	testPubA  = rendertest.PubA
	testPrivB = rendertest.PrivB
	testPubB  = rendertest.PubB
	testPubC  = rendertest.PubC
	testPSK   = rendertest.PSK
	testPrivD = rendertest.PrivD
	testPubD  = rendertest.PubD
	testPubE  = rendertest.PubE
)

func twoInterfaceConfig(role schema.Role) *schema.Config { return rendertest.TwoInterfaceConfig(role) }

func twoInterfaceSecrets() Secrets { return rendertest.TwoInterfaceSecrets() }
