package rules

import "slices"

// validateStorage is StorageSpec.Validate (storage.go:115-134). A storage
// block starts from type etcd (storage.go:92), so only an explicit type is
// checked; etcd's peerAddress and kine's dataSource are not validated by k0s
// at all.
func validateStorage(s node, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/storage.go:"
	if t, ok := s.str("type"); ok {
		switch t {
		case "etcd", "kine":
		case "":
			c.add(s.child("type").path, src+"123", "required value")
		default:
			c.add(s.child("type").path, src+"125", "unsupported value: supported values: \"etcd\", \"kine\"")
		}
	}
	ext := s.at("etcd", "externalCluster")
	if !ext.present() {
		return
	}
	endpoints := ext.strings("endpoints")
	if len(endpoints) == 0 {
		c.add(ext.child("endpoints").path, src+"311", "spec.storage.etcd.externalCluster.endpoints cannot be null or empty")
	} else if slices.Contains(endpoints, "") {
		c.add(ext.child("endpoints").path, src+"313", "spec.storage.etcd.externalCluster.endpoints cannot contain empty strings")
	}
	if prefix, _ := ext.str("etcdPrefix"); prefix == "" {
		c.add(ext.child("etcdPrefix").path, src+"317", "spec.storage.etcd.externalCluster.etcdPrefix cannot be empty")
	}
	ca, _ := ext.str("caFile")
	cert, _ := ext.str("clientCertFile")
	key, _ := ext.str("clientKeyFile")
	none, all := ca == "" && cert == "" && key == "", ca != "" && cert != "" && key != ""
	if !none && !all {
		c.add(ext.path, src+"329", "spec.storage.etcd.externalCluster is invalid: all TLS properties [caFile,clientCertFile,clientKeyFile] must be defined or none of those")
	}
}
