package lab

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"text/template"

	"github.com/corium/corium-agent/internal/k0syaml"
)

// keepalived's configuration as k0s v1.36.3+k0s.0 writes it on a
// controller, mirrored as test equipment (the k0s module is not served).
// Paths are in github.com/k0sproject/k0s at that tag:
//
//   - cmd/controller/controller.go:309-316 hands the component
//     spec.network.controlPlaneLoadBalancing.keepalived of the ClusterConfig
//     k0s read from k0s.yaml, after validation set its defaults
//     (pkg/apis/k0s/v1beta1/clusterconfig_types.go:467, cplb.go:340-354);
//   - pkg/apis/k0s/v1beta1/cplb.go:140-208 (validateVRRPInstances) sets
//     each VRRP instance's defaults and refuses what keepalived could not
//     run: k0sVRRPDefaults below;
//   - pkg/component/controller/cplb/cplb_linux.go:111-131 fills
//     keepalivedConfig (:524-532) and executes the template with
//     text/template (:383-398, :508-518), no custom template set;
//   - pkg/component/controller/cplb/cplb_templates.go:6-64 is the template,
//     copied below unchanged.

// k0sKeepalivedVRRPTemplate is KeepalivedVRRPConfigTemplate
// (cplb_templates.go:6-64), byte for byte.
const k0sKeepalivedVRRPTemplate = `
{{ $ipvsLoadBalancer := .IPVSLoadBalancer }}
{{ $k0s := .K0sBin }}
{{ $runDir := .RunDir }}
{{ $VRRPInstancesLen := len .VRRPInstances }}
{{ range $i, $instance := .VRRPInstances }}
vrrp_instance k0s-vip-{{$i}} {
    # All servers must have state BACKUP so that when a new server comes up
    # it doesn't perform a failover. This must be combined with the priority.
    state BACKUP
    # Make sure the interface is aligned with your server's network interface.
    interface {{ .Interface }}
    # The virtual router ID must be unique to each VRRP instance that you define.
    virtual_router_id {{ $instance.VirtualRouterID }}
    # All servers have the same priority so that when a new one comes up we don't
    # do a failover.
    priority 200

    {{ if and ($ipvsLoadBalancer) (eq $VRRPInstancesLen 1) }}
    # Required to prevent routing loops when we use keepalived
    # virtual_servers: https://github.com/k0sproject/k0s/issues/5178
    notify_master "'{{ $k0s }}' keepalived-setstate -r '{{ $runDir }}' -s MASTER"
    notify_backup "'{{ $k0s }}' keepalived-setstate -r '{{ $runDir }}' -s BACKUP"
    {{ end }}

	#advertisement interval, 1 second by default
    advert_int {{ $instance.AdvertIntervalSeconds }}
    authentication {
        auth_type PASS
        auth_pass {{ $instance.AuthPass }}
    }
    virtual_ipaddress {
        {{ range $instance.VirtualIPs }}
        {{ . }}
        {{ end }}
    }
    {{ if .UnicastPeers }}
    unicast_src_ip {{ .UnicastSourceIP }}
    unicast_peer {
        {{ range .UnicastPeers }}
        {{ . }}
        {{ end }}
    }
    {{ else}}
    {{ end }}
}
{{ end }}
{{ if $ipvsLoadBalancer }}
{{ if eq $VRRPInstancesLen 1 }}
# This include is commented by default and is only used after becoming master
# so that we prevent routing looops: https://github.com/k0sproject/k0s/issues/5178
include keepalived-virtualservers-consumed.conf
{{ else}}
# If there is more than one VRRP instance, we need to always have the servers list
# because we cannot guarantee that the masters will always be in the same host.
include keepalived-virtualservers-generated.conf
{{ end }}
{{ end }}
`

// k0sVRRPInstance is k0s's v1beta1.VRRPInstance (cplb.go:85-136): the
// template reads these field names.
type k0sVRRPInstance struct {
	VirtualIPs            []string
	Interface             string
	VirtualRouterID       int32
	AdvertIntervalSeconds int32
	AuthPass              string
	UnicastPeers          []string
	UnicastSourceIP       string
	AddressLabel          uint32
}

// k0sKeepalivedConfig is cplb_linux.go's keepalivedConfig (:524-532).
// Without virtualServers (the agent renders none) IPVSLoadBalancer is
// false (:119-122) and K0sBin, RunDir and RealServers are not read.
type k0sKeepalivedConfig struct {
	VRRPInstances    []k0sVRRPInstance
	RealServers      []string
	APIServerPort    int
	IPVSLoadBalancer bool
	K0sBin           string
	RunDir           string
}

// k0sVRRPDefaults is validateVRRPInstances (cplb.go:140-208) on the
// instances: the defaults set (the default route's interface, which is
// defaultNIC here; router IDs from 51; an advert a second; address label
// 10000) and k0s's refusals, each an error as k0s words it.
func k0sVRRPDefaults(in []k0sVRRPInstance, defaultNIC string) error {
	var errs []error
	for i := range in {
		v := &in[i]
		if v.Interface == "" {
			v.Interface = defaultNIC // cplb.go:146-151
		}
		switch {
		case v.VirtualRouterID == 0: // cplb.go:156-161
			v.VirtualRouterID = 51 + int32(i)
			if v.VirtualRouterID > 255 {
				errs = append(errs, errors.New("automatic virtualRouterIDs exceeded, specify them explicitly"))
			}
		case v.VirtualRouterID < 0 || v.VirtualRouterID > 255:
			errs = append(errs, errors.New("VirtualRouterID must be in the range of 1-255"))
		}
		if v.AddressLabel == 0 { // cplb.go:166-168
			v.AddressLabel = 10000
		}
		if v.AdvertIntervalSeconds == 0 { // cplb.go:173-175
			v.AdvertIntervalSeconds = 1
		}
		if v.AuthPass == "" { // cplb.go:177-182
			errs = append(errs, errors.New("AuthPass must be defined"))
		}
		if len(v.AuthPass) > 8 {
			errs = append(errs, errors.New("AuthPass must be 8 characters or less"))
		}
		if len(v.VirtualIPs) == 0 { // cplb.go:184-191
			errs = append(errs, errors.New("VirtualIPs must be defined"))
		}
		for _, vip := range v.VirtualIPs {
			if _, _, err := net.ParseCIDR(vip); err != nil {
				errs = append(errs, fmt.Errorf("VirtualIPs must be a CIDR. Got: %s", vip))
			}
		}
		if len(v.UnicastPeers) > 0 { // cplb.go:193-205
			if net.ParseIP(v.UnicastSourceIP) == nil {
				errs = append(errs, fmt.Errorf("UnicastPeers require a valid UnicastSourceIP. Got: %s", v.UnicastSourceIP))
			}
			for _, peer := range v.UnicastPeers {
				if net.ParseIP(peer) == nil {
					errs = append(errs, fmt.Errorf("UnicastPeers require valid IP addresses. Got: %s", peer))
				}
				if peer == v.UnicastSourceIP {
					errs = append(errs, fmt.Errorf("UnicastPeers must not contain the UnicastSourceIP. Got: %s", peer))
				}
			}
		}
	}
	return errors.Join(errs...)
}

// renderKeepalived is keepalived.conf as k0s writes it from the k0s.yaml
// the agent wrote (read by the agent's own codec, as k0s reads the file):
// spec.network.controlPlaneLoadBalancing.keepalived's instances with
// k0s's defaults, through k0s's template. The result holds the VRRP
// password; errors do not.
func renderKeepalived(k0sYAML []byte, defaultNIC string, apiPort int) (string, error) {
	node, err := k0syaml.Parse(k0sYAML)
	if err != nil {
		return "", err
	}
	cplb := node.Network.ControlPlaneLoadBalancing
	if cplb == nil || !cplb.Enabled || cplb.Keepalived == nil {
		return "", errors.New("k0s.yaml: spec.network.controlPlaneLoadBalancing.keepalived is not enabled")
	}
	var in []k0sVRRPInstance
	for _, v := range cplb.Keepalived.VRRPInstances {
		k := k0sVRRPInstance{
			VirtualIPs:      v.VirtualIPs,
			Interface:       v.Interface,
			AuthPass:        v.AuthPass.Reveal(),
			UnicastPeers:    v.UnicastPeers,
			UnicastSourceIP: v.UnicastSourceIP,
		}
		if v.VirtualRouterID != nil {
			k.VirtualRouterID = int32(*v.VirtualRouterID)
		}
		in = append(in, k)
	}
	if err := k0sVRRPDefaults(in, defaultNIC); err != nil {
		return "", fmt.Errorf("k0s would refuse spec.network.controlPlaneLoadBalancing.keepalived: %w", err)
	}
	return executeK0sKeepalivedTemplate(in, apiPort)
}

// executeK0sKeepalivedTemplate is k0s's template executed on the instances
// (their defaults set), as cplb_linux.go:111-131 executes it.
func executeK0sKeepalivedTemplate(in []k0sVRRPInstance, apiPort int) (string, error) {
	tmpl, err := template.New("keepalived-vrrp").Parse(k0sKeepalivedVRRPTemplate)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := tmpl.Execute(&b, k0sKeepalivedConfig{VRRPInstances: in, APIServerPort: apiPort}); err != nil {
		return "", errors.New("executing k0s's keepalived template failed") // the error may quote the password
	}
	return b.String(), nil
}
