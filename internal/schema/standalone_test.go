package schema

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// cloudConfigDoc holds a corium block between cloud-init keys that carry
// passwords, comments that say anything, and an anchor outside the block
// that the block uses twice.
const cloudConfigDoc = `#cloud-config
# root's password: chpass-comment-4711
endpoint: &ep 192.0.2.1:51820
chpasswd:
  expire: false
  users:
    - {name: root, password: chpass-secret-4711, type: text}
corium:
  role: worker  # the block's own comment: comment-in-block-4711
  join:
    tokenFrom: {credential: corium.join}
  wireguard:
    - name: wg0
      address: 10.10.0.5/24
      nodeAddress: true
      privateKeyFrom: {credential: corium.wg0}
      peers:
        - publicKey: lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho=
          endpoint: *ep
          allowedIPs: [10.10.0.1/32]
        - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=
          endpoint: *ep
          allowedIPs: [10.10.0.2/32]
users:
  - name: ops
    plain_text_passwd: users-secret-4711
write_files:
  - path: /etc/motd
    content: files-secret-4711
`

// Standalone keeps the block and nothing else: no cloud-init key, no
// comment, the outside anchor's value taken along; it reads back as a
// standalone document with the very configuration.
func TestStandaloneKeepsOnlyTheBlock(t *testing.T) {
	doc, err := Parse([]byte(cloudConfigDoc))
	if err != nil || doc.Shape != ShapeEmbedded || len(Validate(doc)) != 0 {
		t.Fatalf("the cloud-config must be valid: %v %v", err, Validate(doc))
	}
	data, dropped, err := doc.Standalone()
	if err != nil || dropped != 4 {
		t.Fatalf("Standalone: %d dropped, %v", dropped, err)
	}
	for _, v := range []string{"chpass", "users-secret", "files-secret", "comment", "#", "corium:"} {
		if strings.Contains(string(data), v) {
			t.Errorf("the block alone holds %q:\n%s", v, data)
		}
	}
	back, err := Parse(data)
	if err != nil || back.Shape != ShapeStandalone || len(Validate(back)) != 0 || !reflect.DeepEqual(back.Config, doc.Config) {
		t.Errorf("the block alone reads otherwise: %v %v\n%s", err, back, data)
	}
	if !strings.Contains(string(data), "&ep 192.0.2.1:51820") || strings.Count(string(data), "*ep") != 1 {
		t.Errorf("the outside anchor is not taken along once:\n%s", data)
	}
}

// Every valid configuration, put under corium: in a cloud-config, comes
// back out of it the same.
func TestStandaloneRoundTripsValidConfigs(t *testing.T) {
	for _, file := range configs(t, "valid") {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !IsCloudConfig(raw) {
			raw = []byte("#cloud-config\npackage_update: true\ncorium:\n  " + strings.ReplaceAll(strings.TrimRight(string(raw), "\n"), "\n", "\n  ") + "\n")
		}
		doc, err := Parse(raw)
		if err != nil || doc.Shape != ShapeEmbedded || len(doc.Findings) > 0 {
			continue // a standalone document under a single corium: key
		}
		if _, _, err := doc.Standalone(); err != nil {
			t.Errorf("%s: %v", filepath.Base(file), err)
		}
	}
}

// A block that would not read the same on its own is refused rather than
// changed, and the error quotes nothing; a standalone document has no
// block to take out.
func TestStandaloneRefusesWhatItCannotKeep(t *testing.T) {
	doc, err := Parse([]byte("#cloud-config\ncorium:\n  role: single\n  k0s: {patch: {spec: {x: .nan}}}\n"))
	if err != nil || doc.Config == nil {
		t.Fatal(err)
	}
	if _, _, err := doc.Standalone(); err == nil || !strings.Contains(err.Error(), "write it as a standalone document") || strings.Contains(err.Error(), "nan") {
		t.Errorf("a NaN, which never equals itself: %v", err)
	}
	doc, _ = Parse([]byte("role: single\n"))
	if _, _, err := doc.Standalone(); err == nil {
		t.Error("a standalone document: no error")
	}
}
