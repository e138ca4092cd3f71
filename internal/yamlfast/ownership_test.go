package yamlfast

import "testing"

// The tree is the caller's to change: appending to one node's Content must
// not write into a sibling's, and reusing the input buffer must not change
// any Value.
func TestTreeIsIndependent(t *testing.T) {
	data := []byte("a: [x, y]\nb: [z]\nc:\n  d: 1\n  e: 2\nf: {g: h}\n")
	doc, ok := Parse(data)
	if !ok {
		t.Fatal("declined")
	}
	root := doc.Content[0]
	for _, n := range root.Content {
		n.Content = append(n.Content, nil)
	}
	want, _, err := reference([]byte("a: [x, y]\nb: [z]\nc:\n  d: 1\n  e: 2\nf: {g: h}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range root.Content {
		n.Content = n.Content[:len(n.Content)-1]
		if d := equalTrees(n, want.Content[0].Content[i]); d != "" {
			t.Fatalf("after appending to every node's Content: %s", d)
		}
	}
	for i := range data {
		data[i] = 'X'
	}
	if d := equalTrees(doc, want); d != "" {
		t.Fatalf("after overwriting the input: %s", d)
	}
}
