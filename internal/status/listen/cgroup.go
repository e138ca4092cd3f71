package listen

import "strings"

// The units k0s installs its processes in (`k0s install controller` and
// `k0s install worker` name them; the agent's own render.K0sUnit says the
// same): every process k0s starts runs in one of them, containerd's
// included, until the kubelet moves a container into a pod's cgroup.
var k0sUnits = map[string]bool{"k0scontroller.service": true, "k0sworker.service": true}

// podCgroupPrefix begins the kubelet's cgroups for pods: kubepods.slice and
// kubepods-burstable-pod<uid>.slice with the systemd driver, /kubepods/
// burstable/pod<uid> with the cgroupfs one.
const podCgroupPrefix = "kubepods"

// clusterUnit names the cgroup that makes a process the cluster's: the k0s
// unit it runs in, or the pod it is a container of. ok is false for any
// other process.
func clusterUnit(cgroups []string) (unit string, ok bool) {
	for _, path := range cgroups {
		segs := strings.Split(strings.Trim(path, "/"), "/")
		for i, s := range segs {
			if k0sUnits[s] {
				return s, true
			}
			if strings.HasPrefix(s, podCgroupPrefix) {
				return podOf(segs[i:]), true
			}
		}
	}
	return "", false
}

// podOf is a pod's cgroup from kubepods down to the pod, without the
// container below it (its id says nothing a reader needs).
func podOf(segs []string) string {
	for i, s := range segs {
		if strings.HasPrefix(s, "pod") || strings.Contains(s, "-pod") {
			return strings.Join(segs[:i+1], "/")
		}
	}
	return strings.Join(segs, "/")
}

// hostUnit names the systemd unit a host process runs in (sshd.service),
// "" when its cgroups name none.
func hostUnit(cgroups []string) string {
	for _, path := range cgroups {
		segs := strings.Split(strings.Trim(path, "/"), "/")
		for i := len(segs) - 1; i >= 0; i-- {
			if strings.HasSuffix(segs[i], ".service") {
				return segs[i]
			}
		}
	}
	return ""
}
