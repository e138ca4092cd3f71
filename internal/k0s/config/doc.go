// Package config is the ClusterConfig as the agent builds and reads it: the
// part the agent derives from a node document alone (Base), the merge
// k0s.patch is documented to do (Merge), and the network facts k0s will act
// on, read back from a merged value with k0s's own defaults (ReadNetwork).
// Package k0s puts them together into the effective configuration, once.
//
// It exists so that what the agent derives from the cluster's network (the
// guard's ports, trusted ranges and devices, the masquerade, the checks) has
// one source: the configuration k0s runs, not the corium block beside it. A
// patch that moves calico's VXLAN port moves the guarded port with it.
//
// It is a leaf: plain maps in, plain values out, no I/O. The node-specific
// parts of the rendered k0s.yaml (addresses, the VRRP password, MTUs) are
// render's; none of them is a fact read here, which render's tests check by
// reading the facts back from the files it writes.
//
// The defaults and field names are those of k0s v1.36.3+k0s.0, cited where
// they are read.
package config
