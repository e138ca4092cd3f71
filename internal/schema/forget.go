package schema

// Forget drops the parsed tree that Position (and Standalone) look fields
// up in. Once a document is decoded and validated, that tree is most of
// what it holds: yaml.v3 keeps about ten nodes of some 160 bytes for each
// peer entry, against the few strings the decoded Config shares with it,
// so a set of documents kept for a check across them (validate --cluster)
// would otherwise hold every tree at once. read parses the same document
// again, as the tree was first read; the first lookup after Forget calls it
// once, and a document whose fields are never looked up again (a valid
// one) never pays for it.
func (doc *Document) Forget(read func() (*Tree, error)) {
	if doc == nil || doc.block == nil || read == nil {
		return
	}
	doc.block, doc.keyIndex, doc.mergedIndex, doc.reread = nil, nil, nil, read
}

// restore parses the document again after Forget, locating its block as
// Tree.Document did; the same bytes give the same block.
func (doc *Document) restore() {
	if doc == nil || doc.reread == nil {
		return
	}
	read := doc.reread
	doc.reread = nil
	t, err := read()
	if err != nil || t.misplaced != nil {
		return
	}
	if top := t.top(); top != nil {
		doc.block = (&Document{}).locateBlock(t.CloudConfig, top)
	}
}
