// Package listen judges the sockets that listen in the node's network
// namespace against the guard: which of them answer the underlay, which
// belong to the cluster (a process of k0s's units or of a pod, by its
// cgroup), and of those, which the guard holds, which firewall.publicPorts
// leaves open on purpose, and which the guard does not cover. Every other
// host service (sshd and the like, which the guard deliberately leaves
// alone) is information only, and so is a Service's health-check node port
// (kube-proxy's or kube-router's, in the service node-port range), which
// the guard leaves to Kubernetes.
//
// A socket no process holds is named by the kernel's device that holds it
// (a WireGuard or VXLAN device, a FOU port), never taken for the kernel's
// because no process holds it: one passed between processes is held by
// none while it is in flight. One that is none of these has a holder
// unknown, which on a cluster port (one the guard holds, or one k0s's
// table lists) is a class of its own for the verdict to degrade on.
//
// It reads nothing: package scan reads the sockets (sock_diag), their
// processes (/proc) and the kernel's devices on their ports, and hands them
// over; the status report decides what the verdict makes of the result. It
// names a process by its comm and its cgroup, never by its command line,
// which may carry a secret, and shows the comm, the unit and a device's
// name through package shown, as they are the host's to choose.
//
// What it cannot see is said in docs/firewall.md ("What status sees"): a
// NodePort or hostPort forwarded by address rewriting has no socket on the
// node, and a pod's own network namespace is not the node's.
package listen
