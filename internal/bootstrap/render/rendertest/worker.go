package rendertest

import (
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// Test keys, never used outside tests.
const (
	PrivA = "0KoqO8A2DHCUpqHo+XTJy9ZkUWmBUVYj8owr7uEX+UA="
	PubA  = "FTk2vaoL1o1iTlThIwB4FnC/7TmUEEjCUIsjF3MvEVo="
	PrivB = "WK3g2azhakimcO+MMwY1K6oM4UoFIcsREdMb0ywlX2A="
	PubB  = "rhkIITlu9hcHjc/dRBiXPUsgoARI49+OEpEVIxUF9A4="
	PubC  = "MZYA/Hi/yrdBlOqNx4EH5Hsoad3T+I+kSQtim+v2N3s="
	PSK   = "WDaRGUVNK3MMmQ4IG54fCaLAAoaF7Ma5wZzjQK6wnmI="
	PrivD = "oKacMcVc/uHpOpXEhQe1rc5l4t8m8odR2CTVnRY7CF4="
	PubD  = "h/CTHx1kWGKvidmtFsb6O7kfvnV/DnE6eEmIahkIukQ="
	// PubE is another node's key, whose private half no test holds.
	PubE = "1+B04lWRwvQsTj+aXYSfobwX9X60Bko2Iq7Tx/3X0Tw="
)

// TwoInterfaceConfig has wg0 (inline key, marked nodeAddress) and wg1 (key
// and preshared key from SecretSources).
func TwoInterfaceConfig(role schema.Role) *schema.Config {
	port, keepalive := 51820, 25
	key := secret.NewValue(PrivA)
	return &schema.Config{
		Role: role,
		WireGuard: []schema.WireGuard{
			{
				Name: "wg0", Address: schema.AddressList{"10.10.0.1/24"}, ListenPort: &port, NodeAddress: true, PrivateKey: &key,
				Peers: []schema.Peer{{PublicKey: PubE, Endpoint: "192.0.2.2:51820", AllowedIPs: []string{"10.10.0.2/32"}, PersistentKeepalive: &keepalive}},
			},
			{
				Name: "wg1", Address: schema.AddressList{"10.20.0.1/24", "fd20::1/64"},
				PrivateKeyFrom: &secret.Source{File: "/run/corium/wg1.key"},
				Peers: []schema.Peer{{PublicKey: PubC, Endpoint: "192.0.2.3:51820", AllowedIPs: []string{"10.20.0.0/24"},
					PresharedKeyFrom: &secret.Source{Credential: "corium.wg1psk"}}},
			},
		},
	}
}

// TwoInterfaceSecrets resolves TwoInterfaceConfig's SecretSources.
func TwoInterfaceSecrets() map[string]secret.Value {
	return map[string]secret.Value{
		"wireguard[1].privateKeyFrom":            secret.NewValue(PrivB),
		"wireguard[1].peers[0].presharedKeyFrom": secret.NewValue(PSK),
	}
}
