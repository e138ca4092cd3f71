package vm

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// cleartextForms is what a secret looks like wherever it could be carried:
// the value itself and its base64 in the standard and the URL alphabets,
// at each of the three alignments it can have inside a longer encoded
// stream (only the characters that depend on the secret alone, so a
// secret encoded in the middle of a file is found too). A WireGuard key,
// itself base64, is searched for as its 32 bytes as well. Base64 broken
// across lines is found only within a line.
func cleartextForms(secret string) [][]byte {
	raws := [][]byte{[]byte(secret)}
	if k, err := base64.StdEncoding.DecodeString(secret); err == nil && len(k) == 32 {
		raws = append(raws, k)
	}
	var forms [][]byte
	for _, raw := range raws {
		forms = append(forms, raw)
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			for shift := 0; shift < 3; shift++ {
				forms = append(forms, base64Window(enc, raw, shift))
			}
		}
	}
	return forms
}

// base64Window is the part of raw's encoding, shift bytes into a stream,
// that no byte around it changes: from the first character whose six bits
// all come from raw to the last.
func base64Window(enc *base64.Encoding, raw []byte, shift int) []byte {
	s := enc.EncodeToString(append(make([]byte, shift), raw...))
	return []byte(s[(8*shift+5)/6 : 8*(shift+len(raw))/6])
}

// firstCleartext is the index of the first form found in data, -1 for none.
func firstCleartext(data []byte, forms [][]byte) int {
	for i, f := range forms {
		if bytes.Contains(data, f) {
			return i
		}
	}
	return -1
}

func checkNoCleartext(t testing.TB, where string, data []byte, forms [][]byte) {
	t.Helper()
	if i := firstCleartext(data, forms); i >= 0 {
		t.Errorf("%s holds a secret (form %d of %d: raw or base64)", where, i, len(forms))
	}
}

// checkFileHasNoCleartext searches a (sparse) image file's data, skipping
// its holes, in chunks that overlap by the longest form.
func checkFileHasNoCleartext(t testing.TB, where, path string, forms [][]byte) {
	t.Helper()
	found, err := fileHasCleartext(path, forms)
	if err != nil {
		t.Fatalf("searching %s: %v", where, err)
	}
	if found >= 0 {
		t.Errorf("%s holds a secret (form %d of %d: raw or base64)", where, found, len(forms))
	}
}

func fileHasCleartext(path string, forms [][]byte) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return -1, err
	}
	defer f.Close()
	longest := 0
	for _, form := range forms {
		longest = max(longest, len(form))
	}
	const chunk = 32 << 20
	buf := make([]byte, chunk+longest)
	fd := int(f.Fd())
	for off := int64(0); ; {
		data, err := unix.Seek(fd, off, unix.SEEK_DATA)
		if errors.Is(err, unix.ENXIO) {
			return -1, nil // no data past off
		}
		if err != nil {
			return -1, err
		}
		hole, err := unix.Seek(fd, data, unix.SEEK_HOLE)
		if err != nil {
			return -1, err
		}
		for pos := data; pos < hole; pos += chunk {
			n, err := f.ReadAt(buf[:min(int64(len(buf)), hole-pos)], pos)
			if err != nil && !errors.Is(err, io.EOF) {
				return -1, err
			}
			if i := firstCleartext(buf[:n], forms); i >= 0 {
				return i, nil
			}
		}
		off = hole
	}
}

// The search finds a secret however it was carried: as itself, and in
// base64 of either alphabet at every alignment inside a longer stream,
// in a sparse file past a hole too; and it finds nothing in what does not
// carry it.
func TestCleartextFormsFindTheSecret(t *testing.T) {
	key := "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk="
	token := "H4sIAAAAAAAA/3vuv2vDbaOnFuPOzvMyPL3nOplAAhh0d2MwAAAA"
	for _, secret := range []string{key, token} {
		forms := cleartextForms(secret)
		raw := []byte(secret)
		var carriers [][]byte
		carriers = append(carriers, []byte("PrivateKey = "+secret+"\n"))
		if k, err := base64.StdEncoding.DecodeString(secret); err == nil && len(k) == 32 {
			carriers = append(carriers, append([]byte("wg\x00"), k...))
			raw = k
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding} {
			for _, prefix := range []string{"", "x", "xy", "xyz", "io.systemd.credential:corium.wg0="} {
				carriers = append(carriers, []byte(enc.EncodeToString(append([]byte(prefix), raw...))+"tail"))
				carriers = append(carriers, []byte(enc.EncodeToString(append([]byte(prefix), secret...))))
			}
		}
		for _, c := range carriers {
			if firstCleartext(c, forms) < 0 {
				t.Errorf("%q carries the secret; the search did not find it", c)
			}
		}
		if i := firstCleartext([]byte(base64.StdEncoding.EncodeToString([]byte("unrelated "+secret[:8]))), forms); i >= 0 {
			t.Errorf("form %d found in data without the secret", i)
		}

		path := t.TempDir() + "/sparse.img"
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(200 << 20); err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte(base64.URLEncoding.EncodeToString(append([]byte("ab"), raw...))), 150<<20); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if i, err := fileHasCleartext(path, forms); err != nil || i < 0 {
			t.Errorf("a secret written past a hole: found %d, %v", i, err)
		}
	}
}
