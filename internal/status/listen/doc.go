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
// It reads nothing: package scan reads the sockets (sock_diag) and their
// processes (/proc) and hands them over; the status report decides what
// the verdict makes of the result. It names a process by its comm and its
// cgroup, never by its command line, which may carry a secret.
//
// What it cannot see is said in docs/firewall.md ("What status sees"): a
// NodePort or hostPort forwarded by address rewriting has no socket on the
// node, and a pod's own network namespace is not the node's.
package listen
