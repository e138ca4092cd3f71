package schema

// storage: sqlite lives in the files of the one controller that runs it, so
// it serves that controller alone. k0s runs it through kine with kine's
// default datasource, a file under its data dir, which no other controller
// reads (k0s pkg/apis/k0s/v1beta1/storage.go KineConfig.IsJoinable: "An
// sqlite backend is only available via the file system"); a controller
// joining with a token would start a control plane of its own. kine with
// an external database is the datastore several controllers can share
// besides etcd (k0s docs/k0s-multi-node.md), and its datasource URL carries
// the database's password: it comes from a SecretSource only.
func (v *crossCheck) storage() {
	s, role := v.cfg.Storage, v.cfg.Role
	switch {
	case s.Type == StorageSQLite && v.cfg.HA.On():
		v.errorf("storage.type", "sqlite cannot serve several controllers: it keeps the datastore in this controller's own files; with ha.enabled use etcd (the default), or kine with storage.dataSourceFrom")
	case s.Type == StorageSQLite && role.IsController() && v.joining():
		v.errorf("storage.type", "sqlite cannot serve several controllers: it keeps the datastore in this controller's own files, so a controller joining with a join token would run a second control plane that shares nothing with the cluster; use the datastore of the controllers it joins: etcd (the default), or kine with storage.dataSourceFrom")
	}
	kine := v.eff.Storage.Type == StorageKine
	switch {
	case s.DataSourceFrom == nil:
		if kine && role.IsController() {
			v.errorf("storage.dataSourceFrom", "is required with storage.type kine: the URL of the PostgreSQL or MySQL database the controllers share (postgres://..., postgresql://... or mysql://...), from a SecretSource, since it carries the database's password")
		}
	case role == RoleWorker:
		v.errorf("storage.dataSourceFrom", "a worker runs no datastore, so it must not be handed the database's password; remove it")
	case !kine && validStorage(v.eff.Storage.Type):
		v.errorf("storage.dataSourceFrom", "is kine's datasource and does nothing with storage.type %s; remove it, or set storage.type: kine", v.eff.Storage.Type)
	}
}

func validStorage(t StorageType) bool {
	return t == StorageEtcd || t == StorageSQLite || t == StorageKine
}
