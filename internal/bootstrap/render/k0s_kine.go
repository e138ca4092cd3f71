package render

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/schema"
)

// kineBackends are the datasource schemes of the external databases the
// contract's kine reaches. kine takes the backend from the text before
// "://" (kine pkg/endpoint/endpoint.go ParseStorageEndpoint, its
// PostgresBackend and MySQLBackend); no scheme at all is sqlite to it, as
// sqlite:// is, and both keep the datastore in this controller's files.
var kineBackends = []string{"postgres", "mysql"}

// checkKineDataSource checks storage.dataSourceFrom, resolved, before
// kine.dataSource is written; nothing unless storage.type is kine. What
// validation cannot see, the URL itself, is checked here, before anything
// is written: a datasource that is no PostgreSQL or MySQL URL would give
// this controller a datastore of its own, and a control character would
// break the line k0s hands kine. The URL is never quoted: it carries the
// database's password.
func checkKineDataSource(cfg *schema.Config, secrets Secrets) error {
	from := cfg.Storage.DataSourceFrom
	if cfg.Storage.Type != schema.StorageKine {
		return nil
	}
	v := configuredSecret(secrets, schema.DataSourcePath, nil, from != nil)
	if from == nil || v.IsZero() {
		return errors.New("storage.dataSourceFrom: no resolved datasource; resolve secrets before rendering")
	}
	dsn := v.Reveal()
	if backend, _, ok := strings.Cut(dsn, "://"); !ok || !slices.Contains(kineBackends, backend) {
		return fmt.Errorf("storage.dataSourceFrom: the datasource read from %s is not a postgres:// or mysql:// URL; kine would take it for sqlite, or for a backend several controllers cannot share; give the URL of the PostgreSQL or MySQL database the controllers share", from.Where())
	}
	if !schema.NoControlChars(dsn) {
		return fmt.Errorf("storage.dataSourceFrom: the datasource read from %s holds a control character (a line break, a tab); put the URL on one line of printable characters", from.Where())
	}
	return nil
}
