// Command etcd is etcd's own server, built from the Go module proxy by
// scripts/etcd.sh outside the project's module (it lives in testdata so
// that the project's go tools never see it).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
