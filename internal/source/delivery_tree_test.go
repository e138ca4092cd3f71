package source

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
)

// The document Unpack parsed to tell a file's shape, or Params.Accept to
// judge a command line's, is the tree handed to the schema: Data is not
// parsed again. Data is overwritten after Unpack, so a tree parsed again
// would read the replacement.
func TestDeliveryTreeIsUnpacksParse(t *testing.T) {
	inline := "corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(docCmdline))
	for name, file := range map[string]string{
		"standalone":                docFile,
		"a cloud-config's corium:":  docCloudInit,
		"a syntax error":            "role: [controller\n",
		"two documents":             docFile + "---\n" + docFile,
		"a kernel command line":     "quiet " + inline,
		"a grub.cfg":                "menuentry 'node' {\n  linux /vmlinuz '" + inline + "'\n}\n",
		"an iPXE script":            "#!ipxe\nkernel vmlinuz " + inline + "\nboot\n",
		"a cloud-config, no corium": "#cloud-config\nhostname: n1\n",
	} {
		t.Run(name, func(t *testing.T) {
			d, err := Unpack([]byte(file))
			if err != nil {
				t.Fatal(err)
			}
			want, wantErr := schema.ReadTree(d.Data, false)
			d.Data = []byte("- another document\n")
			got, gotErr := d.Tree()
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Errorf("Tree() = %+v, %v; want the parse of the document delivered, %+v, %v", got, gotErr, want, wantErr)
			}
		})
	}
}

// A document taken out of write_files was not parsed by Unpack: Tree parses
// it, as ReadTree does.
func TestDeliveryTreeOfWrittenFile(t *testing.T) {
	d, err := Unpack([]byte(cloudConfigWriting("", encodedEntries(t)[""])))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := schema.ReadTree(d.Data, false)
	if got, err := d.Tree(); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Tree() = %+v, %v; want %+v", got, err, want)
	}
}
