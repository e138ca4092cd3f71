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
// "://" (kine v0.16.3 pkg/drivers/factory.go:24-35, util.SchemeAndAddress)
// and registers both postgres and postgresql for PostgreSQL
// (pkg/drivers/pgsql/pgsql.go:267-268), mysql for MySQL
// (pkg/drivers/mysql/mysql.go:249). It refuses an endpoint without "://"
// and a scheme it does not know (factory.go:30-33, 38-45); it does not
// fall back to sqlite. sqlite:// (and k0s's default, no datasource) keeps
// the datastore in this controller's files, and the other schemes it knows
// (nats://, an etcd URL) are not a database the controllers share.
var kineBackends = []string{"postgres", "postgresql", "mysql"}

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
		return fmt.Errorf("storage.dataSourceFrom: the datasource read from %s is not a postgres://, postgresql:// or mysql:// URL: kine refuses a URL without a scheme or with one it does not know, and its other backends (SQLite, NATS) are not a database several controllers share; give the URL of the PostgreSQL or MySQL database the controllers share", from.Where())
	}
	if !schema.NoControlChars(dsn) {
		return fmt.Errorf("storage.dataSourceFrom: the datasource read from %s holds a control character (a line break, a tab); put the URL on one line of printable characters", from.Where())
	}
	return nil
}
