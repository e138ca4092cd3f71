package bus

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"time"

	sdbus "github.com/coreos/go-systemd/v22/dbus"
	godbus "github.com/godbus/dbus/v5"

	"github.com/corium/corium-agent/internal/systemd"
)

// DBus is the live Manager over systemd's D-Bus API.
type DBus struct {
	conn *sdbus.Conn
}

var _ systemd.Manager = (*DBus)(nil)

// Connect reaches systemd over the system bus, or, as root, over its private
// socket when the bus is not up (early in boot).
func Connect(ctx context.Context) (*DBus, error) {
	conn, err := sdbus.NewWithContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("connecting to systemd: %w", err)
	}
	return subscribed(conn)
}

// ConnectBus reaches systemd through the D-Bus system bus listening at the
// socket path: a container's bus is at
// /proc/<its PID 1>/root/run/dbus/system_bus_socket. (systemd's private
// socket refuses clients from another PID namespace.)
func ConnectBus(ctx context.Context, path string) (*DBus, error) {
	conn, err := sdbus.NewConnection(func() (*godbus.Conn, error) {
		c, err := godbus.Dial("unix:path="+path, godbus.WithContext(ctx))
		if err != nil {
			return nil, err
		}
		auth := []godbus.Auth{godbus.AuthExternal(strconv.Itoa(os.Getuid()))}
		if err := c.Auth(auth); err != nil {
			_ = c.Close()
			return nil, err
		}
		if err := c.Hello(); err != nil {
			_ = c.Close()
			return nil, err
		}
		return c, nil
	})
	if err != nil {
		return nil, fmt.Errorf("connecting to systemd over the bus at %s: %w", path, err)
	}
	return subscribed(conn)
}

// subscribed asks systemd for its signals: it sends job results only to
// clients that subscribed, so without this a waited-for job never ends.
func subscribed(conn *sdbus.Conn) (*DBus, error) {
	if err := conn.Subscribe(); err != nil {
		conn.Close()
		return nil, fmt.Errorf("subscribing to systemd's job signals: %w", err)
	}
	return &DBus{conn: conn}, nil
}

// Close ends the connection.
func (d *DBus) Close() { d.conn.Close() }

func (d *DBus) DaemonReload(ctx context.Context) error {
	if err := d.conn.ReloadContext(ctx); err != nil {
		return fmt.Errorf("reloading systemd: %w", err)
	}
	return nil
}

func (d *DBus) NeedsReload(ctx context.Context, units ...string) (bool, error) {
	for _, u := range units {
		p, err := d.conn.GetUnitPropertyContext(ctx, u, "NeedDaemonReload")
		if err != nil {
			return false, fmt.Errorf("asking systemd whether %s needs a reload: %w", u, err)
		}
		behind, ok := p.Value.Value().(bool)
		if !ok {
			return false, fmt.Errorf("asking systemd whether %s needs a reload: NeedDaemonReload is %s, not a boolean", u, p.Value.Signature())
		}
		if behind {
			return true, nil
		}
	}
	return false, nil
}

func (d *DBus) StartAndWait(ctx context.Context, unit string) error {
	return d.waitJob(ctx, "starting", unit, d.conn.StartUnitContext)
}

func (d *DBus) RestartAndWait(ctx context.Context, unit string) error {
	return d.waitJob(ctx, "restarting", unit, d.conn.RestartUnitContext)
}

func (d *DBus) ReloadAndWait(ctx context.Context, unit string) error {
	return d.waitJob(ctx, "reloading", unit, d.conn.ReloadUnitContext)
}

func (d *DBus) StopAndWait(ctx context.Context, unit string) error {
	return d.waitJob(ctx, "stopping", unit, d.conn.StopUnitContext)
}

func (d *DBus) QueueStart(ctx context.Context, unit string) error {
	if _, err := d.conn.StartUnitContext(ctx, unit, "replace", nil); err != nil {
		return fmt.Errorf("queueing the start of %s: %w", unit, err)
	}
	return nil
}

type jobFunc func(ctx context.Context, name, mode string, ch chan<- string) (int, error)

func (d *DBus) waitJob(ctx context.Context, verb, unit string, job jobFunc) error {
	// Buffered: go-systemd blocks its signal loop until the result is read.
	done := make(chan string, 1)
	if _, err := job(ctx, unit, "replace", done); err != nil {
		return fmt.Errorf("%s %s: %w", verb, unit, err)
	}
	select {
	case result := <-done:
		if result != "done" {
			return &systemd.JobError{Verb: verb, Unit: unit, Result: result}
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s %s: waiting for the job: %w", verb, unit, ctx.Err())
	}
}

func (d *DBus) UnitState(ctx context.Context, unit string) (systemd.State, error) {
	props, err := d.conn.GetUnitPropertiesContext(ctx, unit)
	if err != nil {
		return systemd.State{}, fmt.Errorf("reading the state of %s: %w", unit, err)
	}
	str := func(k string) string { s, _ := props[k].(string); return s }
	return systemd.State{Load: str("LoadState"), Active: str("ActiveState"), Sub: str("SubState")}, nil
}

func (d *DBus) ServiceRun(ctx context.Context, unit string) (systemd.ServiceRun, error) {
	svc, err := d.conn.GetUnitTypePropertiesContext(ctx, unit, "Service")
	if err != nil {
		return systemd.ServiceRun{}, fmt.Errorf("reading the last start of %s: %w", unit, err)
	}
	u, err := d.conn.GetUnitPropertiesContext(ctx, unit)
	if err != nil {
		return systemd.ServiceRun{}, fmt.Errorf("reading the last start of %s: %w", unit, err)
	}
	run := systemd.ServiceRun{Imports: stringList(svc["ImportCredential"])}
	run.Result, _ = svc["Result"].(string)
	run.ExecMainCode, _ = svc["ExecMainCode"].(int32)
	run.ExecMainStatus, _ = svc["ExecMainStatus"].(int32)
	if us, _ := u["InactiveExitTimestamp"].(uint64); us != 0 {
		run.StartedAt = time.UnixMicro(int64(us))
	}
	if id, _ := u["InvocationID"].([]byte); len(id) > 0 {
		run.InvocationID = hex.EncodeToString(id)
	}
	for _, p := range []struct {
		prop      string
		encrypted bool
	}{{"LoadCredential", false}, {"LoadCredentialEncrypted", true}} {
		for _, pair := range pairs(svc[p.prop]) {
			run.Credentials = append(run.Credentials, systemd.CredentialSetting{ID: pair[0], Source: pair[1], Encrypted: p.encrypted})
		}
	}
	return run, nil
}

// stringList is an "as" property's value.
func stringList(v any) []string {
	l, _ := v.([]string)
	return l
}

// pairs is an "a(ss)" property's value, as godbus decodes it.
func pairs(v any) [][2]string {
	var l [][]any
	switch v := v.(type) {
	case [][]any:
		l = v
	case []any: // a struct array inside a variant, by some godbus versions
		for _, e := range v {
			if s, ok := e.([]any); ok {
				l = append(l, s)
			}
		}
	}
	var out [][2]string
	for _, e := range l {
		if len(e) != 2 {
			continue
		}
		a, _ := e[0].(string)
		b, _ := e[1].(string)
		out = append(out, [2]string{a, b})
	}
	return out
}
