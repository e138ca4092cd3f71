package render

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// kineConfig is a controller joining others on a shared PostgreSQL
// database, its datasource read from a file; defaults applied.
func kineConfig() *schema.Config {
	cfg := &schema.Config{
		Role:    schema.RoleController,
		Storage: schema.Storage{Type: schema.StorageKine, DataSourceFrom: &secret.Source{File: "/run/corium/kine-dsn"}},
		Join:    schema.Join{TokenFrom: &secret.Source{File: "/run/corium/join-token"}},
	}
	schema.ApplyDefaults(cfg)
	return cfg
}

// kineInputs renders kineConfig with the datasource dsn on a host whose
// eth0 holds 192.0.2.12.
func kineInputs(dsn string) Inputs {
	cfg := kineConfig()
	return Inputs{Config: cfg, K0s: schema.Effective(cfg), Secrets: kineSecrets(dsn), Facts: eth0("192.0.2.12/24")}
}

func kineSecrets(dsn string) Secrets {
	return Secrets{"join.tokenFrom": secret.NewValue("K10token"), "storage.dataSourceFrom": secret.NewValue(dsn)}
}

// The resolved datasource lands in kine.dataSource of k0s.yaml, a 0600 file
// the plan reads through the k0s.yaml codec, where it is a secret by type,
// and nowhere else.
func TestKineDataSourceReachesOnlyK0sConfig(t *testing.T) {
	const dsn = "postgres://k0s:Pw-kine-7Rt2@db.example:5432/k0s?sslmode=require"
	p, err := RenderNode(kineInputs(dsn))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range p.Steps {
		for _, f := range s.Files {
			if !strings.Contains(string(f.Content), "Pw-kine-7Rt2") {
				continue
			}
			if f.Path != K0sConfigPath {
				t.Errorf("%s holds the datasource", f.Path)
				continue
			}
			found = true
			if f.Mode.Perm() != 0o600 || f.DirMode.Perm() != 0o700 || !f.Secret || f.SecretSyntax != plan.SyntaxK0s {
				t.Errorf("%s: mode %04o in %04o, secret %v, syntax %q; want a 0600 secret file in 0700 read as a k0s.yaml", f.Path, f.Mode.Perm(), f.DirMode.Perm(), f.Secret, f.SecretSyntax)
			}
			if n, err := k0syaml.Parse(f.Content); err != nil || n.Storage.Kine == nil || n.Storage.Kine.DataSource.Reveal() != dsn {
				t.Errorf("%s: the codec does not read the datasource as a secret (%v)", f.Path, err)
			}
			var doc struct {
				Spec struct {
					Storage struct {
						Type string `yaml:"type"`
						Kine struct {
							DataSource string `yaml:"dataSource"`
						} `yaml:"kine"`
						Etcd map[string]any `yaml:"etcd"`
					} `yaml:"storage"`
				} `yaml:"spec"`
			}
			if err := yaml.Unmarshal(f.Content, &doc); err != nil {
				t.Fatal(err)
			}
			if st := doc.Spec.Storage; st.Type != "kine" || st.Kine.DataSource != dsn || st.Etcd != nil {
				t.Errorf("spec.storage is %+v; want kine with the resolved datasource and no etcd", st)
			}
		}
	}
	if !found {
		t.Error("no file holds the datasource")
	}
}

// A resolved datasource kine would not share among controllers, or that
// breaks the line k0s hands kine, is refused before anything is written,
// naming the field and the source, never the URL.
func TestKineDataSourceRefusedUnlessShared(t *testing.T) {
	for name, dsn := range map[string]string{
		"sqlite":             "sqlite:///var/lib/k0s/db/Pw-kine-7Rt2.db",
		"no scheme (sqlite)": "/var/lib/k0s/Pw-kine-7Rt2.db",
		"nats":               "nats://k0s:Pw-kine-7Rt2@nats.example:4222",
		"etcd over https":    "https://k0s:Pw-kine-7Rt2@etcd.example:2379",
		"scheme in capitals": "POSTGRES://k0s:Pw-kine-7Rt2@db.example/k0s",
		"a line break":       "postgres://k0s:Pw-kine-7Rt2@db.example/k0s\nmysql://x",
		"the password alone": "Pw-kine-7Rt2",
		"unresolved":         "",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := RenderNode(kineInputs(dsn))
			if err == nil {
				t.Fatal("rendered")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "storage.dataSourceFrom: ") || strings.Contains(msg, "Pw-kine") || strings.Contains(msg, "example") {
				t.Errorf("%q: want the field first and no part of the datasource", msg)
			}
			if dsn != "" && !strings.Contains(msg, "/run/corium/kine-dsn") {
				t.Errorf("%q does not name the source", msg)
			}
		})
	}
	// kine registers postgresql beside postgres (kine v0.16.3
	// pkg/drivers/pgsql/pgsql.go:267-268).
	for _, dsn := range []string{"postgres://k0s:pw@db.example/k0s", "postgresql://k0s:pw@db.example/k0s", "mysql://k0s:pw@tcp(db.example:3306)/k0s"} {
		if _, err := RenderNode(kineInputs(dsn)); err != nil {
			t.Errorf("%s: %v", strings.SplitN(dsn, ":", 2)[0], err)
		}
	}
}

// sqlite is kine with k0s's default datasource, a file of this controller's:
// no dataSource is written.
func TestSQLiteWritesNoDataSource(t *testing.T) {
	cfg := &schema.Config{Role: schema.RoleSingle}
	schema.ApplyDefaults(cfg)
	conf, err := RenderK0sConfig(cfg, schema.Effective(cfg), K0sInputs{NodeAddress: "192.0.2.10", Secrets: Secrets{schema.DataSourcePath: secret.NewValue("postgres://stray")}})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(conf); !strings.Contains(s, "type: kine") || strings.Contains(s, "dataSource") {
		t.Errorf("sqlite rendered:\n%s", s)
	}
}
