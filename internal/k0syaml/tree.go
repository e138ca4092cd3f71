package k0syaml

// Tree is n as the document k0s.patch merges over: {"spec": {...}}, each
// key render writes and no other, lists as []any, secrets revealed (the
// file is their destination). spec.network and spec.storage are written
// even when empty.
func (n Node) Tree() map[string]any {
	spec := map[string]any{
		"network": n.Network.tree(),
		"storage": n.Storage.tree(),
	}
	if n.API != nil {
		spec["api"] = n.API.tree()
	}
	return map[string]any{"spec": spec}
}

func (a API) tree() map[string]any {
	api := map[string]any{}
	if a.Address != "" {
		api["address"] = a.Address
	}
	if a.ExternalAddress != "" {
		api["externalAddress"] = a.ExternalAddress
	}
	if len(a.SANs) > 0 {
		api["sans"] = anyList(a.SANs)
	}
	return api
}

func (s Storage) tree() map[string]any {
	out := map[string]any{}
	if s.Etcd != nil {
		out["etcd"] = map[string]any{"peerAddress": s.Etcd.PeerAddress}
	}
	if s.Kine != nil {
		out["kine"] = map[string]any{"dataSource": s.Kine.DataSource.Reveal()}
	}
	return out
}

func (n Network) tree() map[string]any {
	out := map[string]any{}
	if k := n.KubeRouter; k != nil {
		out["kuberouter"] = map[string]any{"autoMTU": k.AutoMTU, "mtu": k.MTU}
	}
	if c := n.Calico; c != nil {
		out["calico"] = map[string]any{"mtu": c.MTU}
	}
	if c := n.ControlPlaneLoadBalancing; c != nil {
		out["controlPlaneLoadBalancing"] = c.tree()
	}
	return out
}

func (c CPLB) tree() map[string]any {
	out := map[string]any{"enabled": c.Enabled, "type": c.Type}
	if c.Keepalived != nil {
		instances := make([]any, 0, len(c.Keepalived.VRRPInstances))
		for _, v := range c.Keepalived.VRRPInstances {
			instances = append(instances, v.tree())
		}
		out["keepalived"] = map[string]any{"vrrpInstances": instances}
	}
	return out
}

func (v VRRPInstance) tree() map[string]any {
	out := map[string]any{
		"virtualIPs": anyList(v.VirtualIPs),
		"authPass":   v.AuthPass.Reveal(),
	}
	if v.Interface != "" {
		out["interface"] = v.Interface
	}
	if v.VirtualRouterID != nil {
		out["virtualRouterID"] = *v.VirtualRouterID
	}
	if v.UnicastSourceIP != "" {
		out["unicastSourceIP"] = v.UnicastSourceIP
	}
	if v.UnicastPeers != nil {
		out["unicastPeers"] = anyList(v.UnicastPeers)
	}
	return out
}

func anyList(s []string) []any {
	out := make([]any, 0, len(s))
	for _, v := range s {
		out = append(out, v)
	}
	return out
}
